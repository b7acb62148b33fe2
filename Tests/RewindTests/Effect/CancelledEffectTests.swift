import Rewind
import RewindTestSupport
import Synchronization
import Testing

/// A latch an effect waits on without regard to cancellation: the test decides when the effect returns.
private final class Latch: Sendable {
  // `Locked`, not `Mutex`: the ThreadSanitizer build swaps in a lock the sanitizer understands.
  private let state = Locked<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

  func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumeNow = state.withLock { state in
        if state.isOpen { return true }
        state.waiters.append(continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  func open() {
    let waiters = state.withLock { state in
      state.isOpen = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}

/// Effects that outlive their cancellation: one that ignores it, and a timer whose own action cancels it.
private struct Stubborn: Reducer {
  struct State: Equatable, Sendable {
    var finished = 0
    var followedUp = 0
  }

  enum Action: Equatable, Sendable {
    case start
    case stop
    case done
    case fire
    case finish
    case followUp
  }

  let latch: Latch

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [latch] send in
        await latch.wait()
        send(.done)
      }
      .cancellable(id: "stubborn")
    case .stop: return .cancel(id: "stubborn")
    case .done:
      state.finished += 1
      return .none
    case .fire:
      return .run { send in send(.finish) }.cancellable(id: "timer")
    case .finish:
      // As a finished animation does: cancel the timer that sent this, and act on the result.
      return Effect<Action>.cancel(id: "timer").merge(with: .send(.followUp))
    case .followUp:
      state.followedUp += 1
      return .none
    }
  }
}

@Suite(.timeLimit(.minutes(1))) struct CancelledEffectTests {
  @Test func aCancelledTaskIsCountedUntilItReturnsAndCannotSend() async {
    let latch = Latch()
    let store = Store(initialState: Stubborn.State(), reducer: Stubborn(latch: latch))
    store.send(.start)
    #expect(store.runningEffectCount == 1)
    #expect(store.cancelledEffectsStillRunning == 0)
    store.send(.stop)
    #expect(store.runningEffectCount == 0, "a cancelled task leaves the running count at once")
    #expect(store.cancelledEffectsStillRunning == 1, "but it has not returned: it ignores cancellation")
    latch.open()
    #expect(await eventually { store.cancelledEffectsStillRunning == 0 })
    #expect(store.state.finished == 0, "its send came after its cancellation")
  }

  @Test func cancellingEveryEffectCountsEachUntilItReturns() async {
    let latch = Latch()
    let store = Store(initialState: Stubborn.State(), reducer: Stubborn(latch: latch))
    store.send(.start)
    store.send(.start)
    store.cancelAllEffects()
    #expect(store.runningEffectCount == 0)
    #expect(store.cancelledEffectsStillRunning == 2)
    latch.open()
    #expect(await eventually { store.cancelledEffectsStillRunning == 0 })
    #expect(store.runningEffectCount == 0)
  }

  /// A timer whose action cancels it leaves the running count while it still processes what its send
  /// queued: a harness that waits for both counts to reach 0 finds that work done.
  @Test(arguments: 0..<50)
  func aTimerCancelledByItsOwnActionIsWaitedForUntilItsSendIsDone(round: Int) async {
    let store = Store(initialState: Stubborn.State(), reducer: Stubborn(latch: Latch()))
    store.send(.fire)
    #expect(await eventually { store.runningEffectCount == 0 && store.cancelledEffectsStillRunning == 0 })
    #expect(store.state.followedUp == 1)
  }
}
