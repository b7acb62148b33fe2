import RewindDiff
import Testing

/// Every pair of sequences of length 0...5 over {a, b, c}: 364 × 364 = 132,496 flat pairs.
@Suite("Exhaustive small pairs")
struct ExhaustiveTests {
  /// All 364 sequences of length 0...5 over three identifiers.
  static let sequences: [[Int]] = {
    var all: [[Int]] = [[]]
    var layer: [[Int]] = [[]]
    for _ in 1...5 {
      layer = layer.flatMap { prefix in (0..<3).map { prefix + [$0] } }
      all += layer
    }
    return all
  }()

  @Test("the alphabet gives 364 sequences")
  func sequenceCount() {
    #expect(Self.sequences.count == 364)
  }

  @Test("identity changes only: every pair applies and validates", arguments: 0...5)
  func identities(sourceLength: Int) {
    for source in Self.sequences where source.count == sourceLength {
      for target in Self.sequences {
        if let problem = flatProblem(source: items(source), target: items(target)) {
          Issue.record("\(source) -> \(target): \(problem)")
          return
        }
      }
    }
  }

  /// The same pairs where content changes too: the target marks every other position as changed.
  @Test("with content changes: every pair applies and validates", arguments: 0...5)
  func contents(sourceLength: Int) {
    for source in Self.sequences where source.count == sourceLength {
      for target in Self.sequences {
        let changed = target.enumerated().map { Item($1, $0 % 2) }
        if let problem = flatProblem(source: items(source), target: changed) {
          Issue.record("\(source) -> \(changed): \(problem)")
          return
        }
      }
    }
  }
}
