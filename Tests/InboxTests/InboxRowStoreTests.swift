import Foundation
import InboxCore
import Rewind
import RewindComponents
import RewindTestSupport
import Testing

/// The Inbox's row stores and its subject field binding.
@Suite(.timeLimit(.minutes(2))) struct InboxRowStoreTests {
  @Test func everyRowActionRoundTripsThroughTheRowPath() {
    let actions: [InboxRowAction] = [
      .swipe(.hide(animated: false, at: 1)), .edit(.setText("x")), .select(at: 2), .toggleFlag, .archive,
      .delete,
    ]
    for action in actions {
      let embedded = InboxFeature.rowPath.embed(IdentifiedAction(id: 7, action: action))
      #expect(InboxFeature.rowPath.extract(embedded) == IdentifiedAction(id: 7, action: action))
    }
    #expect(InboxFeature.rowPath.extract(.resetToSample) == nil)
    #expect(InboxFeature.rowPath.extract(.list(.closeAll(animated: false, at: 0))) == nil)
  }

  @Test func aRowStoresSendsAreTheInboxsActionsAndTheSubjectFieldReplays() async throws {
    let directory = TemporaryDirectory("rows", create: false)
    let session = try InboxSession.open(directory: directory.path)
    let first = session.store.sequence + 1
    let row = try #require(session.row(2))
    row.send(.toggleFlag)
    #expect(session.state.list.rows[id: 2]?.item.isFlagged == true)
    #expect(try session.journal.events(in: first...first).first?.action == .toggleFlag(id: 2))

    session.beginEdit()
    let field = try #require(session.subjectField)
    field.send("Lunch on Saturday?")
    #expect(field.value == "Lunch on Saturday?")
    #expect(session.commitEdit())
    #expect(session.state.selectedMail?.subject == "Lunch on Saturday?")
    let events = try session.journal.events(in: first...session.store.sequence).compactMap(\.action)
    #expect(events.contains(.list(.edit(IdentifiedAction(id: 1, action: .setText("Lunch on Saturday?"))))))

    let closed = session.state
    try session.close()
    let reopened = try InboxSession.open(directory: directory.path)
    #expect(reopened.state == closed, "the binding's write replays like any action")
    try reopened.close()
  }

  @Test func theListsViewsAreToldOnlyOfTheirOwnRow() async throws {
    let directory = TemporaryDirectory("views", create: false)
    let session = try InboxSession.open(directory: directory.path)
    let views = await InboxListViews(store: session.store)
    session.row(4)?.send(.toggleFlag)
    #expect(await views.update() == "row #4")
    session.scrollCarousel(by: 1)
    try await session.settle()
    #expect(await views.update() == "none", "the carousel is not in the rows")
    session.row(2)?.send(.delete)
    #expect(await views.update() == "the list")
    try session.close()
  }
}
