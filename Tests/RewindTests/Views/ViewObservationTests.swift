import Foundation
import Observation
import Rewind
import Testing

/// Per-path observation: a send notifies exactly the observers whose paths changed, on the main actor.
@Suite(.timeLimit(.minutes(2))) struct ViewObservationTests {
  typealias MailStore = Store<Mailbox.State, Mailbox.Action>

  static func makeStore(rows: Int = 3) -> MailStore {
    let mails = IdentifiedArray(uniqueElements: (1...rows).map { Mail(id: $0, subject: "mail \($0)") })
    return Store(initialState: Mailbox.State(mails: mails), reducer: Mailbox())
  }

  static func toggle(_ id: Int) -> Mailbox.Action { .mail(IdentifiedAction(id: id, action: .toggleFlag)) }
  static func rename(_ id: Int, _ subject: String) -> Mailbox.Action {
    .mail(IdentifiedAction(id: id, action: .rename(subject)))
  }

  @Test func anObserverOfRowAIsNotToldOfRowBNorOfASendThatChangesNothing() async {
    let store = Self.makeStore()
    let rows = store.scope(state: \.mails, action: Mailbox.mailPath)
    let rowA = rows[0]
    let a = InvalidationProbe { rowA.isFlagged }
    // A key path into the row, read on the root store: tracked as that path alone.
    let aThroughRoot = InvalidationProbe { store[dynamicMember: \.mails[id: 1]?.subject] }
    // Reading the whole collection tracks all of it.
    let wholeList = InvalidationProbe { store.mails }
    let list = InvalidationProbe { store.scope(state: \.mails, action: Mailbox.mailPath).map(\.id) }

    store.send(Self.toggle(2))
    store.send(Self.rename(3, "renamed"))
    await settleViews(store)
    #expect(a.invalidations == 0, "row B changed, not row A")
    #expect(aThroughRoot.invalidations == 0)
    #expect(list.invalidations == 0, "the ids did not change")
    #expect(wholeList.invalidations == 1, "the collection itself changed")

    store.send(Self.rename(1, "mail 1"))  // the same subject: nothing changes
    store.send(.counter(.add(0)))
    await settleViews(store)
    #expect(a.invalidations == 0, "a send that changes nothing notifies nobody")
    #expect(aThroughRoot.invalidations == 0)

    store.send(Self.toggle(1))
    await settleViews(store)
    #expect(a.invalidations == 1)
    #expect(aThroughRoot.invalidations == 0, "row A's subject did not change, its flag did")
    #expect(a.notifiedOnMainActor)
    a.reRenderIfNeeded()
    #expect(a.lastValue == true)
  }

  @Test func aFieldObserverIsToldExactlyOncePerChangeOfTheField() async {
    let store = Self.makeStore()
    let count = InvalidationProbe { store.counter.count }
    for step in 1...20 {
      store.send(.counter(.increment))
      store.send(Self.toggle(1))  // other paths change too
      await settleViews(store)
      #expect(count.invalidations == step)
      #expect(count.notifiedOnMainActor)
      count.reRenderIfNeeded()
      #expect(count.lastValue == step)
    }
    store.send(.counter(.add(0)))
    await settleViews(store)
    #expect(count.invalidations == 20, "no change, no notification")
  }

  @Test func aBurstOfSendsIsOneNotification() async {
    let store = Self.makeStore()
    let count = InvalidationProbe { store.counter.count }
    for _ in 0..<1_000 { store.send(.counter(.increment)) }
    await settleViews(store)
    #expect(count.invalidations == 1)
    count.reRenderIfNeeded()
    #expect(count.lastValue == 1_000)
  }

  @Test func aValueThatChangesAndChangesBackBetweenTwoReadsStillNotifies() async {
    // The observer reads between a send and the flush that follows it, then the value changes back: the
    // flush's baseline equals the current state, but the observer saw something else.
    let store = Self.makeStore()
    let observedBefore = InvalidationProbe { store.counter.count }
    store.send(.counter(.increment))
    let reader = InvalidationProbe { store.counter.count }  // reads 1, before the flush
    store.send(.counter(.decrement))
    await settleViews(store)
    #expect(reader.invalidations == 1, "it saw 1; the state is 0")
    // Notifications are per path, so the other observer of the same path is told too, though it saw 0.
    #expect(observedBefore.invalidations == 1)
    reader.reRenderIfNeeded()
    #expect(reader.lastValue == 0)
  }

  @Test func theWholeStateIsObservedToo() async {
    let store = Self.makeStore()
    let whole = InvalidationProbe { store.state }
    store.send(.counter(.add(0)))
    await settleViews(store)
    #expect(whole.invalidations == 0, "an equal state")
    store.send(.counter(.increment))
    await settleViews(store)
    #expect(whole.invalidations == 1)
  }

  @Test func aRowStoreIsToldOnlyWhenItsRowChanges() async {
    let store = Self.makeStore(rows: 100)
    let rows = store.scope(state: \.mails, action: Mailbox.mailPath)
    let probes = rows.map { row in InvalidationProbe { row.subject } }
    for (step, id) in [5, 17, 99, 5].enumerated() {
      store.send(Self.rename(id, "new subject \(step)"))
      store.send(Self.toggle(id))
      await settleViews(store)
      for (index, probe) in probes.enumerated() {
        let expected = index == id - 1 ? 1 : 0
        if probe.invalidations != expected {
          Issue.record("row \(index + 1) was told \(probe.invalidations) times after an edit of row \(id)")
        }
        probe.reRenderIfNeeded()
        probe.resetCount()
      }
    }
  }

  @Test func undoRedoAndHistoryReadsAreObserved() async throws {
    let store = Store(initialState: Counter.State(), reducer: Counter(), history: .undoEveryAction)
    let canUndo = InvalidationProbe { store.canUndo }
    let count = InvalidationProbe { store.count }
    store.send(.increment)
    await settleViews(store)
    #expect(canUndo.invalidations == 1)
    #expect(count.invalidations == 1)
    count.reRenderIfNeeded()
    store.undo()
    await settleViews(store)
    #expect(count.invalidations == 2)
    count.reRenderIfNeeded()
    #expect(count.lastValue == 0)
  }
}
