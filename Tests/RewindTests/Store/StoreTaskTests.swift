import Foundation
import Rewind
import Testing

/// A screen that loads once and ticks while it is shown.
struct Ticker: Reducer {
  struct State: Equatable, Sendable {
    var ticks = 0
    var isLoaded = false
  }

  enum Action: Equatable, Sendable {
    case appeared
    case tick
    case load
    case loaded
    case loadThroughASend
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .appeared:
      return .run { send in
        while true {
          try await Task.sleep(for: .milliseconds(1))
          send(.tick)
        }
      }
    case .tick:
      state.ticks += 1
      return .none
    case .load:
      return .run { send in
        try await Task.sleep(for: .milliseconds(20))
        send(.loaded)
      }
    case .loaded:
      state.isLoaded = true
      return .none
    case .loadThroughASend:
      return .send(.load)
    }
  }
}

@Suite(.timeLimit(.minutes(2))) struct StoreTaskTests {
  @Test func aSendWithoutEffectsReturnsAnEmptyTask() async {
    let store = Store(initialState: Ticker.State(), reducer: Ticker())
    let task = store.send(.tick)
    #expect(task.isEmpty)
    await task.finish()
    #expect(store.ticks == 1)
  }

  @Test func finishWaitsForTheEffectsTheSendStarted() async {
    let store = Store(initialState: Ticker.State(), reducer: Ticker())
    let task = store.send(.load)
    #expect(!task.isEmpty)
    #expect(!store.isLoaded)
    await task.finish()
    #expect(store.isLoaded)
  }

  @Test func theTaskHoldsTheEffectsOfActionsSentSynchronouslyBecauseOfIt() async {
    let store = Store(initialState: Ticker.State(), reducer: Ticker())
    await store.send(.loadThroughASend).finish()
    #expect(store.isLoaded)
  }

  @Test func cancellingTheWaitingTaskEndsTheEffects() async throws {
    // What `.task { await store.send(.appeared).finish() }` does when SwiftUI removes the view.
    let store = Store(initialState: Ticker.State(), reducer: Ticker())
    let view = Task { await store.send(.appeared).finish() }
    #expect(await eventually { store.ticks >= 3 })
    view.cancel()
    await view.value
    #expect(store.runningEffectCount == 0, "finish returns once the effect has ended")
    let ticks = store.ticks
    try await Task.sleep(for: .milliseconds(20))
    #expect(store.ticks == ticks, "no tick after the view went away")
  }

  @Test func cancelEndsTheEffectsOfThatSendOnly() async {
    let store = Store(initialState: Ticker.State(), reducer: Ticker())
    let ticking = store.send(.appeared)
    let loading = store.send(.load)
    ticking.cancel()
    #expect(ticking.isCancelled)
    await ticking.finish()
    await loading.finish()
    #expect(store.isLoaded, "the other send's effect ran to its end")
    #expect(!loading.isCancelled)
  }
}
