import Foundation
import Rewind
import Testing

/// The UIKit/AppKit helper: `observe { }` runs again after each change of what it read, until cancelled.
@Suite(.timeLimit(.minutes(2))) @MainActor struct ObserveTests {
  @Test func itRunsAgainAfterEachChangeOfWhatItReadAndStopsWhenCancelled() async {
    let store = Store(initialState: Outbox.State(), reducer: Outbox())
    let seen = Seen()
    let token = observe { seen.values.append(store.query) }
    #expect(seen.values == [""])

    store.send(.queryChanged("a"))
    store.send(.queryChanged("ab"))
    await settleViews(store)
    #expect(seen.values == ["", "ab"], "two sends in one turn: one run, on the newest state")

    store.send(.mail(IdentifiedAction(id: 1, action: .toggleFlag)))  // a path it did not read
    await settleViews(store)
    #expect(seen.values == ["", "ab"])

    token.cancel()
    store.send(.queryChanged("abc"))
    await settleViews(store)
    #expect(seen.values == ["", "ab"], "cancelled")
  }

  @Test func releasingTheTokenEndsTheObservation() async {
    let store = Store(initialState: Outbox.State(), reducer: Outbox())
    let seen = Seen()
    var token: ObservationToken? = observe { seen.values.append(store.query) }
    store.send(.queryChanged("a"))
    await settleViews(store)
    #expect(seen.values == ["", "a"])
    #expect(token?.isCancelled == false)
    token = nil
    store.send(.queryChanged("b"))
    await settleViews(store)
    #expect(seen.values == ["", "a"])
  }
}

/// What an observation saw, on the main actor.
@MainActor final class Seen {
  var values: [String] = []
}
