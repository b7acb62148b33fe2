import RewindDiff
import Synchronization
import Testing

@testable import Rewind

/// A row whose content comparisons are counted, to show how much of a list a diff or `==` looks at.
struct CountedRow: Identifiable, Differentiable, Equatable, Sendable {
  static let comparisons = Atomic<Int>(0)

  var id: Int
  var title: String

  var differenceIdentifier: Int { id }

  func isContentEqual(to source: CountedRow) -> Bool {
    Self.comparisons.add(1, ordering: .relaxed)
    return title == source.title
  }

  static func == (lhs: CountedRow, rhs: CountedRow) -> Bool {
    comparisons.add(1, ordering: .relaxed)
    return lhs.id == rhs.id && lhs.title == rhs.title
  }
}

/// A value whose identifier repeats within a list (a PersistentArray has no unique ids), and whose content
/// is one field.
struct Token: Differentiable, Equatable, Sendable {
  var key: Int
  var value: Int
  var differenceIdentifier: Int { key }
}

/// Checks that the changeset computed by stepping over shared storage is exactly the general diff's.
func expectSameAsGeneral<Element: Differentiable & Equatable>(
  _ fast: StagedChangeset<PersistentArray<Element>>, _ general: StagedChangeset<[Element]>,
  _ context: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation
) {
  guard fast.stages.count == general.stages.count else {
    Issue.record(
      "\(context()): \(fast.stages.count) stages, general \(general.stages.count)",
      sourceLocation: sourceLocation)
    return
  }
  for (index, (mine, theirs)) in zip(fast.stages, general.stages).enumerated() {
    let samePaths =
      mine.elementDeleted == theirs.elementDeleted && mine.elementInserted == theirs.elementInserted
      && mine.elementUpdated == theirs.elementUpdated && mine.elementMoved == theirs.elementMoved
    if !samePaths {
      let mineText =
        "\(mine.elementDeleted) \(mine.elementInserted) \(mine.elementUpdated) \(mine.elementMoved)"
      let theirText =
        "\(theirs.elementDeleted) \(theirs.elementInserted) \(theirs.elementUpdated) \(theirs.elementMoved)"
      Issue.record(
        "\(context()), stage \(index): deleted, inserted, updated, moved \(mineText) vs \(theirText)",
        sourceLocation: sourceLocation)
    }
    let data = Array(mine.data)
    if data != theirs.data {
      let first =
        (0..<Swift.min(data.count, theirs.data.count)).first { data[$0] != theirs.data[$0] }
        ?? Swift.min(data.count, theirs.data.count)
      Issue.record(
        "\(context()), stage \(index): data differs at \(first) (counts \(data.count), \(theirs.data.count))",
        sourceLocation: sourceLocation)
    }
  }
}

@Suite struct IdentifiedArrayDiffTests {
  /// Versions of one collection, a few random operations apart: the fast diff equals the general one,
  /// applies, and passes the batch-update rules.
  @Test(arguments: [5, 6, 7, 2026] as [UInt64])
  func versionsOfOneCollectionDiffLikeTheGeneralDiff(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    for trial in 0..<40 {
      let size = Int.random(in: 0...1_500, using: &random)
      let source = IdentifiedArray(uniqueElements: (0..<size).map { WideRow(id: $0) })
      var target = source
      var model = ReferenceModel(rows: Array(source))
      var nextID = size
      var operations: [String] = []
      for _ in 0..<Int.random(in: 0...4, using: &random) {
        operations.append(applyRandomOperation(to: &target, &model, nextID: &nextID, random: &random))
      }
      let context = "seed \(seed), trial \(trial), size \(size): \(operations)"
      let fast = IdentifiedArray.stagedChangeset(from: source, to: target)
      expectSameAsGeneral(fast, StagedChangeset(source: Array(source), target: Array(target)), context)
      #expect(try fast.apply(to: source.elements) == target.elements, "\(context)")
      #expect(throws: Never.self, "\(context)") {
        try BatchUpdateValidator.validate(fast, from: source.elements)
      }
    }
  }

  /// Identifiers that repeat, lists that share nothing, and identical lists.
  @Test(arguments: [8, 9, 2026] as [UInt64])
  func repeatedIdentifiersAndUnrelatedLists(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    func token() -> Token {
      Token(key: Int.random(in: 0..<12, using: &random), value: Int.random(in: 0..<3, using: &random))
    }
    for trial in 0..<200 {
      let source = PersistentArray((0..<Int.random(in: 0...400, using: &random)).map { _ in token() })
      var target =
        Int.random(in: 0..<5, using: &random) == 0
        ? PersistentArray((0..<Int.random(in: 0...50, using: &random)).map { _ in token() }) : source
      for _ in 0..<Int.random(in: 0...3, using: &random) {
        let count = target.count
        switch Int.random(in: 0..<4, using: &random) {
        case 0: target.insert(token(), at: Int.random(in: 0...count, using: &random))
        case 1 where count > 0: target.remove(at: Int.random(in: 0..<count, using: &random))
        case 2 where count > 0: target[Int.random(in: 0..<count, using: &random)] = token()
        case 3 where count > 0:
          target.insert(
            target.remove(at: Int.random(in: 0..<count, using: &random)),
            at: Int.random(in: 0..<count, using: &random))
        default: break
        }
      }
      let context = "seed \(seed), trial \(trial)"
      expectSameAsGeneral(
        PersistentArray.stagedChangeset(from: source, to: target),
        StagedChangeset(source: Array(source), target: Array(target)),
        context)
    }
  }

  /// A one-row edit in a list of 200,000 rows: the diff compares a few rows, not the list.
  @Test func aOneRowEditOfALargeListLooksAtFewRows() {
    let source = IdentifiedArray(uniqueElements: (0..<200_000).map { CountedRow(id: $0, title: "row \($0)") })
    for position in [0, 77_777, 199_999] {
      var target = source
      target.updateElement(at: position) { $0.title = "edited" }
      CountedRow.comparisons.store(0, ordering: .relaxed)
      let changeset = IdentifiedArray.stagedChangeset(from: source, to: target)
      let compared = CountedRow.comparisons.load(ordering: .relaxed)
      #expect(changeset.stages.count == 1)
      #expect(changeset.stages.first?.elementUpdated == [ElementPath(element: position, section: 0)])
      #expect(compared < 300, "row \(position): \(compared) rows compared")

      var inserted = source
      inserted.insert(CountedRow(id: -1, title: "new"), at: position)
      CountedRow.comparisons.store(0, ordering: .relaxed)
      let insertion = IdentifiedArray.stagedChangeset(from: source, to: inserted)
      #expect(insertion.stages.first?.elementInserted == [ElementPath(element: position, section: 0)])
      #expect(CountedRow.comparisons.load(ordering: .relaxed) < 300, "insertion at \(position)")
    }
  }

  /// `==` returns at once for shared storage and looks only at what differs between versions.
  @Test func equalityStepsOverSharedStorage() {
    let source = IdentifiedArray(uniqueElements: (0..<100_000).map { CountedRow(id: $0, title: "row \($0)") })
    let copy = source
    CountedRow.comparisons.store(0, ordering: .relaxed)
    #expect(copy == source)
    #expect(CountedRow.comparisons.load(ordering: .relaxed) == 0)
    var edited = source
    edited.updateElement(at: 54_321) { $0.title = "edited" }
    #expect(edited != source)
    edited.updateElement(at: 54_321) { $0.title = "row 54321" }
    CountedRow.comparisons.store(0, ordering: .relaxed)
    #expect(edited == source)
    #expect(CountedRow.comparisons.load(ordering: .relaxed) < 200)
  }
}
