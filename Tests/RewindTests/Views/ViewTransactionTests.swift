import Foundation
import Rewind
import Testing

@Suite(.timeLimit(.minutes(2))) struct ViewTransactionTests {
  @Test func observersAreToldInsideTheTransactionOfTheSend() async {
    let store = Store(initialState: Outbox.State(), reducer: Outbox())
    let log = TransactionLog()
    let probe = InvalidationProbe { store.query }
    log.watch(probe)
    store.send(.queryChanged("animated"), transaction: log.transaction(named: "spring"))
    await settleViews(store)
    #expect(probe.invalidations == 1)
    #expect(log.entries == ["spring begins", "notified inside spring", "spring ends"])

    probe.reRenderIfNeeded()
    store.send(.queryChanged("plain"))
    await settleViews(store)
    #expect(probe.invalidations == 2)
    #expect(log.entries.count == 3, "a send without a transaction applies none")
  }

  @Test func aBindingWriteCarriesItsTransaction() async {
    let store = Store(initialState: Outbox.State(), reducer: Outbox())
    let log = TransactionLog()
    let probe = InvalidationProbe { store.query }
    log.watch(probe)
    store.binding(\.query, send: Outbox.Action.queryChanged).send(
      "x", transaction: log.transaction(named: "fade"))
    await settleViews(store)
    #expect(log.entries == ["fade begins", "notified inside fade", "fade ends"])
  }
}

/// Records transactions applied and notifications made inside them.
final class TransactionLog: Sendable {
  private let state = NSLock()
  private nonisolated(unsafe) var items: [String] = []
  private nonisolated(unsafe) var open: String?

  var entries: [String] { state.withLock { items } }

  func transaction(named name: String) -> ViewTransaction {
    ViewTransaction { [self] updates in
      state.withLock {
        items.append("\(name) begins")
        open = name
      }
      updates()
      state.withLock {
        items.append("\(name) ends")
        open = nil
      }
    }
  }

  /// Logs, at each of `probe`'s notifications, the transaction it came inside.
  func watch<Value>(_ probe: InvalidationProbe<Value>) {
    probe.onInvalidate { [self] in
      state.withLock { if let open { items.append("notified inside \(open)") } }
    }
  }
}
