import Testing

@testable import RewindDiff

/// Replays sequential steps on `rows` (before-rows by index; inserted rows as -1).
private func replay(_ steps: [SequentialRowStep], on count: Int) -> [Int] {
  var rows = Array(0..<count)
  for step in steps {
    switch step {
    case .insert(let index): rows.insert(-1, at: index)
    case .move(let from, let to): rows.insert(rows.remove(at: from), at: to)
    }
  }
  return rows
}

@Suite("Sequential row steps (NSTableView)")
struct SequentialRowStepsTests {
  @Test(
    "every flat insert-and-move stage of random pairs replays to the same rows",
    arguments: [UInt64(0x5E9_0001)])
  func randomStages(seed: UInt64) {
    var generator = PairGenerator(seed: seed)
    for pair in 0..<2_000 {
      let (source, target) = generator.flatPair()
      let staged = StagedChangeset(source: source, target: target)
      var before = source
      for stage in staged {
        defer { before = stage.data }
        guard !stage.elementInserted.isEmpty || !stage.elementMoved.isEmpty else { continue }
        let steps = sequentialRowSteps(
          beforeCount: before.count, inserted: stage.elementInserted.map(\.element),
          moved: stage.elementMoved.map { Move(source: $0.source.element, target: $0.target.element) })
        let rows = replay(steps, on: before.count)
        let shown = rows.map { $0 < 0 ? nil : before[$0].id }
        let expected = stage.data.indices.map { index -> Int? in
          stage.elementInserted.contains(ElementPath(element: index, section: 0)) ? nil : stage.data[index].id
        }
        #expect(shown == expected, "seed \(seed) pair \(pair): \(steps)")
      }
    }
  }
}
