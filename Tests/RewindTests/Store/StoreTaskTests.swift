import Rewind
import RewindTesting
import Testing

/// A screen that loads once and ticks while it is shown, on the clock dependency.
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
        @Dependency(\.clock) var clock
        while true {
          try await clock.sleep(for: .seconds(1))
          send(.tick)
        }
      }
    case .tick:
      state.ticks += 1
      return .none
    case .load:
      return .run { send in
        @Dependency(\.clock) var clock
        try await clock.sleep(for: .seconds(1))
        send(.loaded)
      }
    case .loaded:
      state.isLoaded = true
      return .none
    case .loadThroughASend:
      return .send(.load)
    }
  }

  /// A store whose effects sleep on `clock`.
  static func store(clock: ManualClock) -> Store<State, Action> {
    Store(initialState: State(), reducer: Ticker(), clock: clock, dependencies: { $0.clock = clock })
  }
}

@Suite(.timeLimit(.minutes(2))) struct StoreTaskTests {
  @Test func aSendWithoutEffectsReturnsAnEmptyTask() async {
    let store = Ticker.store(clock: ManualClock())
    let task = store.send(.tick)
    #expect(task.isEmpty)
    await task.finish()
    #expect(store.ticks == 1)
  }

  @Test func finishWaitsForTheEffectsTheSendStarted() async {
    let clock = ManualClock()
    let store = Ticker.store(clock: clock)
    let task = store.send(.load)
    #expect(!task.isEmpty)
    let finished = Task {
      await task.finish()
      return store.isLoaded
    }
    #expect(await clock.waitForSleepers(1), "the load is under way")
    #expect(!store.isLoaded)
    await clock.advance(by: .seconds(1))
    #expect(await finished.value, "finish returned after the effect's send")
  }

  @Test func theTaskHoldsTheEffectsOfActionsSentSynchronouslyBecauseOfIt() async {
    let clock = ManualClock()
    let store = Ticker.store(clock: clock)
    let task = store.send(.loadThroughASend)
    #expect(!task.isEmpty, "the load that `.send(.load)` started")
    #expect(await clock.waitForSleepers(1))
    await clock.advance(by: .seconds(1))
    await task.finish()
    #expect(store.isLoaded)
  }

  @Test func cancellingTheWaitingTaskEndsTheEffects() async {
    // What `.task { await store.send(.appeared).finish() }` does when SwiftUI removes the view.
    let clock = ManualClock()
    let store = Ticker.store(clock: clock)
    let view = Task { await store.send(.appeared).finish() }
    for _ in 0..<3 {
      #expect(await clock.waitForSleepers(1))
      await clock.advance(by: .seconds(1))
    }
    // The effect sends each tick before it sleeps again.
    #expect(await clock.waitForSleepers(1))
    #expect(store.ticks == 3)
    view.cancel()
    await view.value
    #expect(store.runningEffectCount == 0, "finish returns once the effect has ended")
    #expect(clock.sleeperCount == 0, "the effect's sleep was cancelled")
    await clock.advance(by: .seconds(10))
    #expect(store.ticks == 3, "no tick after the view went away: nothing was left to send one")
  }

  @Test func cancelEndsTheEffectsOfThatSendOnly() async {
    let clock = ManualClock()
    let store = Ticker.store(clock: clock)
    let ticking = store.send(.appeared)
    let loading = store.send(.load)
    ticking.cancel()
    #expect(ticking.isCancelled)
    await ticking.finish()
    #expect(await clock.waitForSleepers(1), "the load sleeps, the ticker does not")
    await clock.advance(by: .seconds(1))
    await loading.finish()
    #expect(store.isLoaded, "the other send's effect ran to its end")
    #expect(!loading.isCancelled)
    #expect(store.ticks == 0)
  }
}
