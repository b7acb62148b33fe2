import Foundation
import InboxCore
import Rewind
import RewindComponents
import RewindLog
import Testing

/// The inbox driven in-process through ``InboxSession``, on a file journal in a temporary directory.
@Suite struct InboxSessionTests {
  func withSession(_ body: (InboxSession, String) throws -> Void) throws {
    let directory = TemporaryDirectory("session")
    let session = try InboxSession.open(directory: directory.path)
    try body(session, directory.path)
    try session.close()
    #expect(session.takeDiagnostics().isEmpty)
  }

  @Test func aFullSwipeArchivesAndUndoBringsTheRowBackClosed() throws {
    try withSession { session, _ in
      session.fullSwipe(3)
      session.settle()
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

  @Test func onlyOneCellIsOpenAtATime() throws {
    try withSession { session, _ in
      session.swipe(1, .right)
      session.settle()
      #expect(session.state.list.table.openRowIDs == [1])
      #expect(session.state.list.rows[id: 1]?.swipe.offset == 80)
      session.swipe(2, .left)
      session.settle()
      #expect(session.state.list.table.openRowIDs == [2])
      #expect(session.state.list.rows[id: 1]?.swipe.offset == 0)
      #expect(session.state.list.rows[id: 2]?.swipe.offset == -160)
    }
  }

  @Test func buttonsFlagAndDelete() throws {
    try withSession { session, _ in
      session.tap(.flag, on: 2)
      session.settle()
      #expect(session.state.list.rows[id: 2]?.item.isFlagged == true)
      #expect(session.state.list.table.openRowIDs.isEmpty)
      session.tap(.delete, on: 4)
      session.settle()
      #expect(session.state.list.rows.ids == [1, 2, 3])
      #expect(session.state.archived.isEmpty)
      #expect(session.store.undoStepName == "Delete")
      session.undo()
      #expect(session.state.list.rows.ids == [1, 2, 3, 4])
      session.undo()
      #expect(session.state.list.rows[id: 2]?.item.isFlagged == false)
    }
  }

  @Test func subjectEditsAreValidatedLimitedAutoSavedAndOneUndoStep() throws {
    try withSession { session, _ in
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
      session.wait(seconds: InboxFeature.autoSaveInterval)
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

  @Test func cancellingAnEditRestoresTheSubjectAndLeavesNoStep() throws {
    try withSession { session, _ in
      session.beginEdit()
      session.cancelEdit()
      #expect(session.state.editingID == nil)
      #expect(session.state.selectedMail?.subject == "Lunch on Friday?")
      #expect(!session.store.canUndo)
    }
  }

  @Test func theCarouselShowsTheSelectedMailsAttachments() throws {
    try withSession { session, _ in
      #expect(session.state.carousel.numberOfItems == 2)
      session.scrollCarousel(by: 1)
      #expect(session.state.isAnimating)
      session.settle()
      #expect(session.state.carousel.currentItemIndex == 1)
      session.moveSelection(by: 3)
      #expect(session.state.selectedID == 4)
      #expect(session.state.carousel.numberOfItems == 3)
      #expect(session.state.carousel.currentItemIndex == 0)
    }
  }

  @Test func reopeningReplaysTheSameStateAndUndoHistory() throws {
    let directory = TemporaryDirectory("reopen")
    let session = try InboxSession.open(directory: directory.path)
    session.tap(.flag, on: 1)
    session.settle()
    session.fullSwipe(2)
    session.settle()
    session.scrollCarousel(by: 1)
    session.settle()
    session.undo()
    let state = session.state
    try session.close()

    let reopened = try InboxSession.open(directory: directory.path)
    #expect(reopened.state == state)
    #expect(reopened.store.undoStepName == "Flag")
    #expect(reopened.store.redoStepName == "Archive")
    try reopened.close()
    let report = try FileJournal<InboxAction>.verify(directory: directory.path)
    #expect(report.lastSequence == reopened.store.sequence)
  }

  @Test func aSecondSessionOnTheSameDirectoryIsRefused() throws {
    let directory = TemporaryDirectory("locked")
    let session = try InboxSession.open(directory: directory.path)
    #expect(throws: FileJournalError.self) { try InboxSession.open(directory: directory.path) }
    try session.close()
  }

  @Test func theScreenDrawsTheOpenButtonsOfOneRow() throws {
    try withSession { session, _ in
      let screen = InboxScreen(styled: false)
      // Lines: header, rule, then the rows in order.
      func row(_ index: Int) -> String { screen.lines(for: session.state, header: "")[2 + index] }
      session.swipe(2, .left)
      session.settle()
      #expect(row(1).hasSuffix("[Delete][Archive]"), "\(row(1))")
      #expect(!row(1).contains("Grace"), "the content slid left by half the row: \(row(1))")
      session.swipe(1, .right)
      session.settle()
      #expect(row(0).contains("[Flag]") && row(0).contains("Ada"), "\(row(0))")
      let grace = row(1)
      #expect(grace.contains("Grace") && !grace.contains("["), "opening row #1 closed row #2: \(grace)")
    }
  }
}
