import RewindDiff
import Testing

private func path(_ element: Int, _ section: Int = 0) -> ElementPath {
  ElementPath(element: element, section: section)
}

/// The error `BatchUpdateValidator` reports for one hand-written flat stage, or nil when it passes.
private func flatError(_ source: [Int], _ stage: Changeset<[Item]>) -> BatchUpdateError? {
  do {
    try BatchUpdateValidator.validate(StagedChangeset([stage]), from: items(source))
    return nil
  } catch {
    return error
  }
}

/// The error for one hand-written sectioned stage, or nil.
private func sectionedError(_ source: [TestSection], _ stage: Changeset<[TestSection]>) -> BatchUpdateError? {
  do {
    try BatchUpdateValidator.validate(StagedChangeset([stage]), from: source)
    return nil
  } catch {
    return error
  }
}

@Suite("Batch-update validator")
struct BatchUpdateValidatorTests {
  @Test("accepts what a table view accepts: deletes and inserts in one batch")
  func acceptsCombinedBatch() {
    let stage = Changeset(data: items([1, 4, 3]), elementDeleted: [path(1)], elementInserted: [path(1)])
    #expect(flatError([1, 2, 3], stage) == nil)
  }

  @Test("rejects indices out of range")
  func outOfRange() {
    #expect(
      flatError([1, 2], Changeset(data: items([1]), elementDeleted: [path(5)]))?.rule == .elementOutOfRange)
    #expect(
      flatError([1], Changeset(data: items([1, 2]), elementInserted: [path(2)]))?.rule == .elementOutOfRange)
    #expect(
      sectionedError([section(0, [])], Changeset(data: [], sectionDeleted: [1]))?.rule == .sectionOutOfRange)
  }

  @Test("rejects an index touched twice")
  func touchedTwice() {
    let twice = flatError([1, 2], Changeset(data: items([1]), elementDeleted: [path(1), path(1)]))
    #expect(twice == BatchUpdateError(stage: 0, rule: .elementTouchedTwice, element: path(1)))
    let deleteAndReload = Changeset(data: items([1]), elementDeleted: [path(1)], elementUpdated: [path(1)])
    #expect(flatError([1, 2], deleteAndReload)?.rule == .elementTouchedTwice)
    let reloadAndMove = Changeset(
      data: items([2, 1]), elementUpdated: [path(0)], elementMoved: [Move(source: path(0), target: path(1))])
    #expect(flatError([1, 2], reloadAndMove)?.rule == .elementTouchedTwice)
    let insertOnMoveTarget = Changeset(
      data: items([2, 1]), elementInserted: [path(0)], elementMoved: [Move(source: path(1), target: path(0))])
    #expect(flatError([1, 2], insertOnMoveTarget)?.rule == .elementTouchedTwice)
    let sectionTwice = Changeset(
      data: [section(1, [])], sectionDeleted: [0], sectionMoved: [Move(source: 0, target: 0)])
    #expect(sectionedError([section(0, []), section(1, [])], sectionTwice)?.rule == .sectionTouchedTwice)
  }

  @Test("rejects counts that do not add up")
  func counts() {
    #expect(flatError([1, 2], Changeset(data: items([1, 2, 3])))?.rule == .elementCountMismatch)
    let sections = Changeset(data: [section(0, []), section(1, [])])
    #expect(sectionedError([section(0, [])], sections)?.rule == .sectionCountMismatch)
  }

  @Test("rejects rows that would show the wrong item or stale content")
  func identityAndContent() {
    #expect(flatError([1, 2], Changeset(data: items([2, 1])))?.rule == .identityMismatch)
    #expect(flatError([1], Changeset(data: [Item(1, 1)]))?.rule == .staleContent)
    #expect(flatError([1], Changeset(data: [Item(1, 1)], elementUpdated: [path(0)])) == nil)
    let header = Changeset(data: [section(0, [], title: 1)])
    #expect(sectionedError([section(0, [])], header)?.rule == .staleContent)
  }

  @Test("rejects element changes in a section the same stage changes")
  func elementInChangedSection() {
    let source = [section(0, [1]), section(1, [2])]
    let deleteInDeleted = Changeset(
      data: [section(1, [2])], sectionDeleted: [0], elementDeleted: [path(0, 0)])
    #expect(sectionedError(source, deleteInDeleted)?.rule == .elementInChangedSection)
    let insertInInserted = Changeset(
      data: [section(0, [1]), section(1, [2]), section(2, [3])], sectionInserted: [2],
      elementInserted: [path(0, 2)])
    #expect(sectionedError(source, insertInInserted)?.rule == .elementInChangedSection)
  }

  @Test("rejects stages applied in the wrong order, naming the stage")
  func wrongOrder() throws {
    let source = items([1, 2, 3])
    let staged = StagedChangeset(source: source, target: [Item(3), Item(4), Item(1, 1)])
    #expect(staged.count == 3)
    var reordered = staged
    reordered.stages.swapAt(0, 1)
    #expect(throws: BatchUpdateError.self) { try BatchUpdateValidator.validate(reordered, from: source) }
    #expect(throws: BatchUpdateError.self) { try reordered.apply(to: source) }
    do {
      try BatchUpdateValidator.validate(reordered, from: source)
    } catch {
      #expect(error.stage == 0)
      #expect(error.description.hasPrefix("stage 0: "))
    }
  }
}
