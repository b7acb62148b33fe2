import Foundation
import InboxCore
import Rewind
import RewindComponents
import RewindLog
import RewindTestSupport
import Testing

/// The inbox driven in-process through ``InboxSession``, on a file journal in a temporary directory.
@Suite struct InboxSessionTests {
  func withSession(_ body: (InboxSession, String) async throws -> Void) async throws {
    let directory = TemporaryDirectory("session", create: false)
    let session = try InboxSession.open(directory: directory.path)
    try await body(session, directory.path)
    try session.close()
    #expect(session.takeDiagnostics().isEmpty)
  }

  @Test func aFullSwipeArchivesAndUndoBringsTheRowBackClosed() async throws {
    try await withSession { session, _ in
      session.fullSwipe(3)
      try await session.settle()
      #expect(session.state.list.rows.ids == [1, 2, 4])
      #expect(session.state.archived.ids == [3])
      #expect(session.store.undoStepName == "Archive")
      session.undo()
      #expect(session.state.list.rows.ids == [1, 2, 3, 4])
      #expect(session.state.archived.isEmpty)
      #expect(session.state.list.rows[id: 3]?.swipe.isOverlayShown == false)
      session.redo()
      #expect(session.state.archived.ids == [3])
    }
  }

  @Test func theArchiveIsCausedByTheSwipeThatTriggeredIt() async throws {
    try await withSession { session, _ in
      session.fullSwipe(3)
      try await session.settle()
      let events = try session.journal.events(in: 1...session.store.sequence)
      func event(_ sequence: UInt64) -> Event<InboxAction>? { events.first { $0.sequence == sequence } }
      let archive = try #require(events.last { $0.action == .archive(id: 3) })
      guard case .effect(let finishedAt) = archive.metadata.source else {
        Issue.record("the archive was not sent by an effect: \(archive.metadata)")
        return
      }
      let finished = try #require(event(finishedAt))
      guard case .list(.swipe(let finish)) = finished.action, finish.id == 3,
        case .animationFinished = finish.action, case .effect(let releasedAt) = finished.metadata.source
      else {
        Issue.record("the archive's cause is not the end of row #3's animation: \(finished)")
        return
      }
      let released = try #require(event(releasedAt))
      guard case .list(.swipe(let release)) = released.action, release.id == 3,
        case .panEnded = release.action
      else {
        Issue.record("the animation's cause is not the release of the swipe: \(released)")
        return
      }
      #expect(released.metadata.source == .user)
      // The whole chain is the person's: same actor, same correlation as the release.
      for link in [finished, archive] {
        #expect(link.metadata.actor == "you")
        #expect(link.metadata.correlationID == released.metadata.correlationID)
      }
      // Nothing but the gesture, the animation's end and the decision (the inbox has no frame actions).
      #expect(events.map(\.sequence) == Array(1...UInt64(events.count)))
    }
  }

  @Test func aDeletedRowsRunningAnimationSendsNothingLater() async throws {
    try await withSession { session, _ in
      session.tap(.delete, on: 4)
      // The tap closes the cell (a hide animation starts) and deletes the row at once.
      #expect(session.state.list.rows.ids == [1, 2, 3])
      let sequence = session.store.sequence
      try await session.settle()
      try await session.wait(seconds: 5)
      #expect(session.store.sequence == sequence, "the removed row's timer was cancelled")
      #expect(session.store.runningEffectCount == 0)
    }
  }

  @Test func theScreenSamplesARunningAnimationWithoutSendingAnything() async throws {
    try await withSession { session, _ in
      session.swipe(2, .left)
      let sequence = session.store.sequence
      let start = session.now
      let screen = InboxScreen(styled: false)
      // Where the row's subject is drawn, frame by frame: the content slides left as the buttons open.
      var columns: [Int] = []
      for frame in 0...18 {
        let line = screen.lines(for: session.state, header: "", at: start + Double(frame) / 60)[3]
        let subject = try #require(line.range(of: "+1 file"), "\(line)")
        columns.append(line.distance(from: line.startIndex, to: subject.lowerBound))
      }
      #expect(session.store.sequence == sequence, "drawing sends nothing")
      #expect(columns == columns.sorted(by: >), "the content slides further at each frame: \(columns)")
      #expect(columns.first! > columns.last!, "\(columns)")
      try await session.settle()
      #expect(session.store.sequence == sequence + 1, "the animation ended with one event")
    }
  }

  @Test func onlyOneCellIsOpenAtATime() async throws {
    try await withSession { session, _ in
      session.swipe(1, .right)
      try await session.settle()
      #expect(session.state.list.table.openRowIDs == [1])
      #expect(session.state.list.rows[id: 1]?.swipe.offset == 80)
      session.swipe(2, .left)
      try await session.settle()
      #expect(session.state.list.table.openRowIDs == [2])
      #expect(session.state.list.rows[id: 1]?.swipe.offset == 0)
      #expect(session.state.list.rows[id: 2]?.swipe.offset == -160)
    }
  }

  @Test func buttonsFlagAndDelete() async throws {
    try await withSession { session, _ in
      session.tap(.flag, on: 2)
      try await session.settle()
      #expect(session.state.list.rows[id: 2]?.item.isFlagged == true)
      #expect(session.state.list.table.openRowIDs.isEmpty)
      session.tap(.delete, on: 4)
      try await session.settle()
      #expect(session.state.list.rows.ids == [1, 2, 3])
      #expect(session.state.archived.isEmpty)
      #expect(session.store.undoStepName == "Delete")
      session.undo()
      #expect(session.state.list.rows.ids == [1, 2, 3, 4])
      session.undo()
      #expect(session.state.list.rows[id: 2]?.item.isFlagged == false)
    }
  }

  @Test func subjectEditsAreValidatedLimitedAutoSavedAndOneUndoStep() async throws {
    try await withSession { session, _ in
      session.beginEdit()
      #expect(session.state.editingID == 1)
      session.clearText()
      #expect(session.commitEdit() == false)
      #expect(session.state.editingID == 1)
      #expect(session.state.notice == "Not saved: A subject cannot be empty")
      session.type("   ")
      #expect(session.commitEdit() == false)
      #expect(session.state.notice == "Not saved: A subject needs a visible character")
      session.clearText()
      session.type(String(repeating: "x", count: InboxFeature.maxSubjectLength + 1))
      #expect(session.state.list.rows[id: 1]?.edit.text == "", "input past the maximum length is refused")
      session.type("Dinner instead?")
      #expect(session.state.list.rows[id: 1]?.edit.characterCount?.text == "15/48 (33 remaining)")
      try await session.wait(seconds: InboxFeature.autoSaveInterval)
      #expect(session.state.selectedMail?.draft == "Dinner instead?")
      #expect(session.commitEdit())
      #expect(session.state.selectedMail?.subject == "Dinner instead?")
      #expect(session.state.selectedMail?.draft == nil)
      #expect(session.store.undoStepName == "Edit Subject")
      session.undo()
      #expect(session.state.selectedMail?.subject == "Lunch on Friday?")
      #expect(session.state.editingID == nil, "undoing the edit never lands inside the editing session")
      #expect(!session.store.canUndo)
    }
  }

  @Test func cancellingAnEditRestoresTheSubjectAndLeavesNoStep() async throws {
    try await withSession { session, _ in
      session.beginEdit()
      session.cancelEdit()
      #expect(session.state.editingID == nil)
      #expect(session.state.selectedMail?.subject == "Lunch on Friday?")
      #expect(!session.store.canUndo)
    }
  }

  @Test func theCarouselShowsTheSelectedMailsAttachments() async throws {
    try await withSession { session, _ in
      #expect(session.state.carousel.numberOfItems == 2)
      session.scrollCarousel(by: 1)
      #expect(session.state.isAnimating)
      try await session.settle()
      #expect(session.state.carousel.currentItemIndex == 1)
      session.moveSelection(by: 3)
      #expect(session.state.selectedID == 4)
      #expect(session.state.carousel.numberOfItems == 3)
      #expect(session.state.carousel.currentItemIndex == 0)
    }
  }

  @Test func reopeningReplaysTheSameStateAndUndoHistory() async throws {
    let directory = TemporaryDirectory("reopen", create: false)
    let session = try InboxSession.open(directory: directory.path)
    session.tap(.flag, on: 1)
    try await session.settle()
    session.fullSwipe(2)
    try await session.settle()
    session.scrollCarousel(by: 1)
    try await session.settle()
    session.undo()
    let state = session.state
    try session.close()

    let reopened = try InboxSession.open(directory: directory.path)
    #expect(reopened.state == state)
    #expect(reopened.store.undoStepName == "Flag")
    #expect(reopened.store.redoStepName == "Archive")
    try reopened.close()
    let report = try LogAudit.verify(directory: directory.path).requireIntact()
    #expect(report.lastSequence == reopened.store.sequence)
  }

  @Test func aSecondSessionOnTheSameDirectoryIsRefused() async throws {
    let directory = TemporaryDirectory("locked", create: false)
    let session = try InboxSession.open(directory: directory.path)
    #expect(throws: FileJournalError.self) { try InboxSession.open(directory: directory.path) }
    try session.close()
  }

  @Test func theScreenDrawsTheOpenButtonsOfOneRow() async throws {
    try await withSession { session, _ in
      let screen = InboxScreen(styled: false)
      // Lines: header, rule, then the rows in order.
      func row(_ index: Int) -> String {
        screen.lines(for: session.state, header: "", at: session.now)[2 + index]
      }
      session.swipe(2, .left)
      try await session.settle()
      #expect(row(1).hasSuffix("[Delete][Archive]"), "\(row(1))")
      #expect(!row(1).contains("Grace"), "the content slid left by half the row: \(row(1))")
      session.swipe(1, .right)
      try await session.settle()
      #expect(row(0).contains("[Flag]") && row(0).contains("Ada"), "\(row(0))")
      let grace = row(1)
      #expect(grace.contains("Grace") && !grace.contains("["), "opening row #1 closed row #2: \(grace)")
    }
  }
}
