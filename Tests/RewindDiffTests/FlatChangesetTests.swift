import RewindDiff
import Testing

extension String: Differentiable {}

private func path(_ element: Int, _ section: Int = 0) -> ElementPath {
  ElementPath(element: element, section: section)
}

@Suite("Flat changesets")
struct FlatChangesetTests {
  @Test("delete")
  func delete() throws {
    let staged = StagedChangeset(source: items([1, 2, 3]), target: items([1, 3]))
    #expect(staged == StagedChangeset([Changeset(data: items([1, 3]), elementDeleted: [path(1)])]))
    #expect(try staged.apply(to: items([1, 2, 3])) == items([1, 3]))
  }

  @Test("insert")
  func insert() throws {
    let staged = StagedChangeset(source: items([1, 3]), target: items([1, 2, 3]))
    #expect(staged == StagedChangeset([Changeset(data: items([1, 2, 3]), elementInserted: [path(1)])]))
  }

  @Test("move: the fewest moves, along the longest run that stays")
  func move() throws {
    let staged = StagedChangeset(source: items([1, 2, 3, 4, 5]), target: items([2, 3, 4, 5, 1]))
    #expect(
      staged
        == StagedChangeset([
          Changeset(data: items([2, 3, 4, 5, 1]), elementMoved: [Move(source: path(0), target: path(4))])
        ]))
    try BatchUpdateValidator.validate(staged, from: items([1, 2, 3, 4, 5]))
  }

  @Test("update")
  func update() throws {
    let source = [Item(1), Item(2, 0)]
    let target = [Item(1), Item(2, 1)]
    let staged = StagedChangeset(source: source, target: target)
    #expect(staged == StagedChangeset([Changeset(data: target, elementUpdated: [path(1)])]))
    #expect(try staged.apply(to: source) == target)
  }

  @Test("all kinds: deletes, then inserts and moves, then updates at target indices")
  func stageOrder() throws {
    let source = [Item(1), Item(2), Item(3), Item(4)]
    let target = [Item(4, 1), Item(2), Item(5), Item(1)]
    let staged = StagedChangeset(source: source, target: target)
    #expect(staged.count == 3)
    #expect(staged[0] == Changeset(data: [Item(1), Item(2), Item(4)], elementDeleted: [path(2)]))
    // Paired in target order: 4 (after deletes at 2), 2 (1), 1 (0). The run [2] stays; 4 and 1 move.
    #expect(staged[1].elementInserted == [path(2)])
    #expect(staged[1].data == [Item(4), Item(2), Item(5), Item(1)])  // 4 keeps its old content here
    #expect(staged[1].elementMoved.count == 2)
    #expect(staged[2] == Changeset(data: target, elementUpdated: [path(0)]))
    try BatchUpdateValidator.validate(staged, from: source)
    #expect(try staged.apply(to: source) == target)
  }

  @Test("duplicate identifiers pair occurrence by occurrence, in order")
  func duplicates() throws {
    let staged = StagedChangeset(source: items([1, 1, 2]), target: items([1, 2, 1]))
    #expect(
      staged
        == StagedChangeset([
          Changeset(data: items([1, 2, 1]), elementMoved: [Move(source: path(2), target: path(1))])
        ]))
    let shrunk = StagedChangeset(source: items([7, 1, 1, 1]), target: items([1, 7]))
    #expect(shrunk.reduce(0) { $0 + $1.elementDeleted.count } == 2)
    #expect(try shrunk.apply(to: items([7, 1, 1, 1])) == items([1, 7]))
    let grown = [Item(1, 1), Item(1, 2), Item(1, 3)]
    let staged2 = StagedChangeset(source: [Item(1, 3)], target: grown)
    #expect(try staged2.apply(to: [Item(1, 3)]) == grown)
    try BatchUpdateValidator.validate(staged2, from: [Item(1, 3)])
  }

  @Test("empty collections")
  func empty() throws {
    #expect(StagedChangeset(source: [Item](), target: []).isEmpty)
    let inserted = StagedChangeset(source: [], target: items([1, 2]))
    #expect(
      inserted == StagedChangeset([Changeset(data: items([1, 2]), elementInserted: [path(0), path(1)])]))
    let deleted = StagedChangeset(source: items([1, 2]), target: [])
    #expect(deleted == StagedChangeset([Changeset(data: [], elementDeleted: [path(0), path(1)])]))
  }

  @Test("a collection compared with itself has no stages")
  func identical() {
    let values = items([3, 1, 3, 2])
    let staged = StagedChangeset(source: values, target: values)
    #expect(staged.isEmpty)
    #expect(staged.changeCount == 0)
  }

  @Test("all inserted, all deleted: no identifier in common")
  func disjoint() throws {
    let staged = StagedChangeset(source: items([1, 2, 3]), target: items([4, 5]))
    #expect(staged.count == 2)
    #expect(staged[0].elementDeleted == [path(0), path(1), path(2)])
    #expect(staged[1].elementInserted == [path(0), path(1)])
    #expect(try staged.apply(to: items([1, 2, 3])) == items([4, 5]))
  }

  @Test("reversed: every element but one moves")
  func reversed() throws {
    let source = items(Array(0..<50))
    let staged = StagedChangeset(source: source, target: source.reversed())
    #expect(staged.count == 1)
    #expect(staged[0].elementMoved.count == 49)
    #expect(try staged.apply(to: source) == Array(source.reversed()))
  }

  @Test("Hashable and Equatable types get their identity and content for free")
  func defaults() throws {
    #expect("a".differenceIdentifier == "a")
    #expect("a".isContentEqual(to: "a"))
    let staged = StagedChangeset(source: ["a", "b", "c"], target: ["c", "a", "d"])
    #expect(try staged.apply(to: ["a", "b", "c"]) == ["c", "a", "d"])
    try BatchUpdateValidator.validate(staged, from: ["a", "b", "c"])
  }

  @Test("any RangeReplaceableCollection works, not just Array")
  func otherCollections() throws {
    let source = ContiguousArray([Item(1), Item(2), Item(3, 0)])
    let target = ContiguousArray([Item(3, 1), Item(4), Item(1)])
    let staged = StagedChangeset(source: source, target: target)
    try BatchUpdateValidator.validate(staged, from: source)
    #expect(try staged.apply(to: source) == target)
    #expect(staged.last?.data == target)
  }

  @Test("changesets are Sendable when elements are, and describe themselves")
  func sendable() {
    let staged: any Sendable = StagedChangeset(source: items([1]), target: items([2]))
    #expect(String(describing: staged).contains("elementDeleted: [[0, 0]]"))
  }
}
