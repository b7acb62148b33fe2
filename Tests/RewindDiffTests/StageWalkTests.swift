import RewindDiff
import Testing

/// A custom section type: a title and a list of strings.
private struct Group: DifferentiableSection, Equatable {
  var title: String
  var members: [String]

  init(_ title: String, _ members: [String]) {
    self.title = title
    self.members = members
  }

  init<Elements: Swift.Collection>(source: Group, elements: Elements) where Elements.Element == String {
    self.init(source.title, Array(elements))
  }

  var elements: [String] { members }
  var differenceIdentifier: String { title }
  func isContentEqual(to source: Group) -> Bool { true }
}

@Suite("Stage walk")
struct StageWalkTests {
  @Test("custom section types diff, validate and apply")
  func customSections() throws {
    let source = [Group("a", ["x", "y"]), Group("b", ["z"])]
    let target = [Group("b", ["z", "x"]), Group("c", ["w"])]
    let staged = StagedChangeset(source: source, target: target)
    try BatchUpdateValidator.validate(staged, from: source)
    #expect(try staged.apply(to: source) == target)
  }

  @Test("walkStages hands over the stages in order")
  func order() {
    let staged = StagedChangeset(source: items([1, 2, 3]), target: [Item(3), Item(4), Item(1, 1)])
    var log: [String] = []
    let finished = staged.walkStages { stage, changes in
      log.append("data \(changes.data)")
      log.append("batch \(stage) \(changes.changeCount)")
    }
    #expect(finished)
    #expect(
      log == ["data [1, 3]", "batch 0 1", "data [3, 4, 1]", "batch 1 2", "data [3, 4, 1'1]", "batch 2 1"])
  }

  @Test("an interrupted walk stops before the stage and reports it")
  func interrupt() {
    let staged = StagedChangeset(source: items([1, 2, 3]), target: [Item(3), Item(4), Item(1, 1)])
    var batches = 0
    let finished = staged.walkStages(interrupt: { $0.elementInserted.count > 0 }) { _, _ in
      batches += 1
    }
    #expect(!finished)
    #expect(batches == 1)
  }
}
