import Foundation
import Rewind
import RewindTestSupport
import Testing

/// Holding sends for an inspector: queued in order while held, applied in order on release, bounded.
@Suite(.timeLimit(.minutes(1))) struct HeldSendsTests {
  @Test func heldSendsAreQueuedInOrderAndAppliedOnRelease() throws {
    let store = Store(initialState: Trace.State(), reducer: Trace(), clock: FixedClock())
    store.send(.tap("before"))
    let inspection = store.inspection
    #expect(inspection.holdSends() == 1)
    for word in ["a", "b", "c"] { store.send(.tap(word)) }
    store.undo()
    #expect(store.stateAndSequence.sequence == 1, "nothing is applied while held")
    #expect(store.stateAndSequence.state.log == ["before"])
    #expect(inspection.held.count == 4)
    #expect(inspection.releaseHeldSends() == 4)
    #expect(store.stateAndSequence.state.log == ["before", "a", "b", "c"])
    #expect(store.sequence == 4, "the undo did nothing: undo is off in this store, so it is not recorded")
    #expect(inspection.held.count == 0)
    store.send(.tap("after"))
    #expect(store.stateAndSequence.state.log.last == "after")
  }

  @Test func aFullQueueReturnsTheStoreToLiveByItselfInOrder() throws {
    let store = Store(initialState: Trace.State(), reducer: Trace(), clock: FixedClock())
    let inspection = store.inspection
    inspection.held.limit = 3
    let overflowed = Locked(0)
    inspection.held.onOverflow { overflowed.withLock { $0 += 1 } }
    inspection.holdSends()
    for index in 0..<4 { store.send(.tap("\(index)")) }
    #expect(overflowed.withLock { $0 } == 1)
    #expect(!inspection.isHoldingSends)
    #expect(
      store.stateAndSequence.state.log == ["0", "1", "2", "3"], "held first, then the one that overflowed")
    #expect(inspection.held.count == 0)
  }

  @Test func sendsFromOtherThreadsKeepTheirOrderAcrossAHold() async throws {
    let store = Store(initialState: Trace.State(), reducer: Trace(), clock: FixedClock())
    let inspection = store.inspection
    let finished = Locked(false)
    let sender = Task.detached {
      for index in 0..<2_000 { store.send(.tap("\(index)")) }
      finished.withLock { $0 = true }
    }
    for _ in 0..<20 {
      inspection.holdSends()
      // Released once a send is held (or the sender is done), so each hold cuts the sender's run somewhere.
      _ = await eventually { inspection.held.count > 0 || finished.withLock { $0 } }
      inspection.releaseHeldSends()
    }
    await sender.value
    inspection.releaseHeldSends()
    #expect(
      store.stateAndSequence.state.log == (0..<2_000).map(String.init), "one thread's sends stay in order")
  }

  @Test func closingTheStoreDropsTheHeldSendsAndReportsEach() throws {
    let diagnostics = DiagnosticLog()
    let store = Store(
      initialState: Trace.State(), reducer: Trace(), clock: FixedClock(), diagnostics: diagnostics.record)
    store.send(.tap("before"))
    let inspection = store.inspection
    inspection.holdSends()
    store.send(.tap("held 1"))
    store.send(.tap("held 2"))
    try store.close()
    #expect(inspection.held.count == 0, "nothing stays queued in a closed store")
    #expect(!inspection.isHoldingSends)
    #expect(store.stateAndSequence.state.log == ["before"], "a held send was never applied, nor is it now")
    #expect(store.sequence == 1)
    #expect(diagnostics.all.map(\.kind) == [.storeClosed, .storeClosed])
    #expect(diagnostics.all.first?.message.contains("held 1") == true)
  }

  @Test func effectSendsAreHeldToo() async throws {
    let store = Store(initialState: Echo.State(), reducer: Echo(), clock: FixedClock())
    let inspection = store.inspection
    store.send(.ping)
    // The effect's answer arrives while the store is held.
    inspection.holdSends()
    Echo.gate.withLock { $0 = true }
    #expect(await eventually { inspection.held.count == 1 })
    #expect(store.stateAndSequence.state.pongs == 0)
    inspection.releaseHeldSends()
    #expect(store.stateAndSequence.state.pongs == 1)
    #expect(try store.events(in: 1...2).map(\.metadata.source) == [.user, .effect(cause: 1)])
  }
}

/// Answers a ping from an effect, once `gate` opens.
struct Echo: Reducer {
  static let gate = Locked(false)
  struct State: Equatable, Sendable { var pongs = 0 }
  enum Action: Equatable, Sendable { case ping, pong }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .ping:
      return .run { send in
        while !Echo.gate.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(1)) }
        send(.pong)
      }
    case .pong:
      state.pongs += 1
      return .none
    }
  }
}
