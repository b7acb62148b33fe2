import Foundation
import Rewind
import Testing

@Suite(.timeLimit(.minutes(2))) struct StoreBindingTests {
  @Test func bindingWritesAreActionsThatReplay() throws {
    let journal = InMemoryJournal<Outbox.Action>()
    let mails: IdentifiedArray<Mail> = [Mail(id: 1, subject: "a"), Mail(id: 2, subject: "b")]
    let store = try Store(initialState: Outbox.State(mails: mails), reducer: Outbox(), journal: journal)
    let query = store.binding(\.query, send: Outbox.Action.queryChanged)
    #expect(query.value == "")
    query.send("r")
    query.send("re")
    query.send("rewind")
    #expect(query.value == "rewind")
    #expect(store.query == "rewind")

    let row = store.scope(state: \.mails, action: Outbox.mailPath)[id: 2]
    let subject = try #require(row).binding(\.subject, send: MailRow.Action.rename)
    subject.send("renamed in a text field")
    #expect(store.mails[id: 2]?.subject == "renamed in a text field")

    let events = try journal.events(in: 1...4)
    #expect(
      events.map(\.action) == [
        .queryChanged("r"), .queryChanged("re"), .queryChanged("rewind"),
        .mail(IdentifiedAction(id: 2, action: .rename("renamed in a text field"))),
      ], "ordinary actions, the row's inside its parent's")

    let replayed = try Store(initialState: Outbox.State(mails: mails), reducer: Outbox(), journal: journal)
    #expect(replayed.state == store.state)
  }

  @Test func aBindingsReadIsObservedLikeTheValue() async {
    let store = Store(initialState: Outbox.State(mails: [Mail(id: 1, subject: "a")]), reducer: Outbox())
    let query = store.binding(\.query, send: Outbox.Action.queryChanged)
    let probe = InvalidationProbe { query.value }
    store.send(.mail(IdentifiedAction(id: 1, action: .toggleFlag)))
    await settleViews(store)
    #expect(probe.invalidations == 0)
    query.send("x")
    await settleViews(store)
    #expect(probe.invalidations == 1)
  }
}
