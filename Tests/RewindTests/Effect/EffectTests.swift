import Foundation
import Rewind
import RewindTestSupport
import Testing

/// A reducer whose effects do async work, for effect and cancellation tests.
struct Loader: Reducer {
  struct State: Equatable, Sendable {
    var loaded: [Int] = []
    var started = 0
  }

  enum Action: Equatable, Sendable {
    case load(Int)
    case loadCancellingPrevious(Int)
    case hang
    case cancelHang
    case loaded(Int)
    case fail
  }

  struct Failure: Error {}

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .load(let value):
      state.started += 1
      return .run { send in
        await Task.yield()
        send(.loaded(value))
      }
    case .loadCancellingPrevious(let value):
      state.started += 1
      return .run { send in
        // The first load waits to be cancelled by the second, which finishes at once.
        if value == 1 { try await Task.sleep(for: .seconds(3_600)) }  // waits to be cancelled
        send(.loaded(value))
      }
      .cancellable(id: "load", cancelInFlight: true)
    case .hang:
      return .run { send in
        try await Task.sleep(for: .seconds(3_600))  // waits to be cancelled
        send(.loaded(-1))
      }
      .cancellable(id: "hang")
    case .cancelHang:
      return .cancel(id: "hang")
    case .loaded(let value):
      state.loaded.append(value)
      return .none
    case .fail:
      return .run { _ in throw Failure() }
    }
  }
}

@Suite(.timeLimit(.minutes(2))) struct EffectTests {
  @Test func actionsFromAsyncEffectsAreRecordedWithTheirCause() async throws {
    let store = Store(initialState: Loader.State(), reducer: Loader(), actor: "bob")
    store.send(.load(7))
    await store.waitForEffects()
    #expect(store.state.loaded == [7])
    let events = try store.journal.events(in: 1...2)
    #expect(events[1].action == .loaded(7))
    #expect(events[1].metadata.source == .effect(cause: 1))
    #expect(events[1].metadata.correlationID == events[0].metadata.correlationID)
    #expect(events[1].metadata.actor == "bob")
  }

  @Test func cancellingByIdStopsTheWorkAndItsActions() async {
    let store = Store(initialState: Loader.State(), reducer: Loader())
    store.send(.hang)
    #expect(store.runningEffectCount == 1)
    store.send(.cancelHang)
    #expect(await eventually { store.runningEffectCount == 0 })
    #expect(store.state.loaded.isEmpty)
  }

  @Test func cancelInFlightReplacesTheRunningEffect() async {
    let store = Store(initialState: Loader.State(), reducer: Loader())
    store.send(.loadCancellingPrevious(1))
    store.send(.loadCancellingPrevious(2))
    await store.waitForEffects()
    #expect(store.state.loaded == [2], "the first load was cancelled before it could send")
    #expect(store.state.started == 2)
  }

  @Test func anEffectErrorBecomesADiagnostic() async {
    let log = DiagnosticLog()
    let store = Store(initialState: Loader.State(), reducer: Loader(), diagnostics: log.record)
    store.send(.fail)
    await store.waitForEffects()
    #expect(log.all.map(\.kind) == [.effectFailed])
    #expect(log.all.first?.message.contains("event 1") == true)
  }

  @Test func releasingTheStoreCancelsItsEffects() async {
    let probe = CancellationProbe()
    do {
      let store = Store(
        initialState: 0,
        reducer: Reduce<Int, Bool> { _, _ in
          .run { _ in
            await withTaskCancellationHandler {
              try? await Task.sleep(for: .seconds(3_600))  // waits to be cancelled
            } onCancel: {
              probe.mark()
            }
          }
        })
      store.send(true)
    }
    #expect(await eventually { probe.count == 1 })
  }

  @Test func mergeAndMapCombineEffects() async {
    let effect = Effect<Int>.merge(.send(1), .none, .send(2)).map { "\($0)" }
    let store = Store(
      initialState: [String](),
      reducer: Reduce<[String], String> { log, action in
        log.append(action)
        return action == "start" ? effect : .none
      })
    store.send("start")
    #expect(store.state == ["start", "1", "2"])
  }
}

typealias CancellationProbe = ObservedOnce
