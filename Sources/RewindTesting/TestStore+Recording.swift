import Rewind

/// Diagnostics reported by the store, waiting to be claimed or flagged.
final class DiagnosticInbox: Sendable {
  private let pending = Locked<[Diagnostic]>([])

  func append(_ diagnostic: Diagnostic) { pending.withLock { $0.append(diagnostic) } }

  func takeFirst() -> Diagnostic? { pending.withLock { $0.isEmpty ? nil : $0.removeFirst() } }

  func takeAll() -> [Diagnostic] {
    pending.withLock { pending in
      defer { pending.removeAll() }
      return pending
    }
  }
}

/// Keeps a copy of the state after every reduce, in order, and wakes whoever waits for the next one.
final class StateRecorder<State: Sendable>: Sendable {
  private struct Recorded {
    var states: [State] = []
    var waiters: [UInt64: Wake] = [:]
    var nextWaiter: UInt64 = 0
  }

  private let recorded = Locked(Recorded())

  /// Records `state`, waking the waiters. Called by the reducer, under the store's state lock; waking
  /// only resumes a continuation.
  func append(_ state: State) {
    let woken = recorded.withLock { recorded in
      recorded.states.append(state)
      defer { recorded.waiters.removeAll() }
      return Array(recorded.waiters.values)
    }
    for wake in woken { wake.fire(.recorded) }
  }

  /// The number of states recorded so far.
  var count: Int { recorded.withLock { $0.states.count } }

  func states(from index: Int) -> [State] {
    recorded.withLock { Array($0.states.dropFirst(index)) }
  }

  /// Fires `wake` when a state past the first `seen` is recorded, at once if one already is.
  /// - Returns: a token for ``cancelWake(_:)``.
  func wake(_ wake: Wake, afterCount seen: Int) -> UInt64 {
    let (token, alreadyRecorded) = recorded.withLock { recorded in
      let token = recorded.nextWaiter
      recorded.nextWaiter += 1
      if recorded.states.count > seen { return (token, true) }
      recorded.waiters[token] = wake
      return (token, false)
    }
    if alreadyRecorded { wake.fire(.recorded) }
    return token
  }

  func cancelWake(_ token: UInt64) {
    _ = recorded.withLock { $0.waiters.removeValue(forKey: token) }
  }
}

/// A one-shot wake-up that the first of several signals fires.
final class Wake: Sendable {
  enum Reason: Sendable { case recorded, idle, timedOut }

  private struct Waiting {
    var reason: Reason?
    var continuation: CheckedContinuation<Reason, Never>?
  }

  private let waiting = Locked(Waiting())

  /// Fires with `reason`, unless it fired already.
  func fire(_ reason: Reason) {
    let continuation: CheckedContinuation<Reason, Never>? = waiting.withLock { waiting in
      guard waiting.reason == nil else { return nil }
      waiting.reason = reason
      defer { waiting.continuation = nil }
      return waiting.continuation
    }
    continuation?.resume(returning: reason)
  }

  /// Suspends until the first signal; returns its reason.
  func wait() async -> Reason {
    await withCheckedContinuation { continuation in
      let fired: Reason? = waiting.withLock { waiting in
        if let reason = waiting.reason { return reason }
        waiting.continuation = continuation
        return nil
      }
      if let fired { continuation.resume(returning: fired) }
    }
  }
}

/// Runs a reducer and records the state after each action the store applies live; the replays behind
/// time travel (`state(at:)`, rebuilding an undo target) are not recorded.
struct RecordingReducer<Base: Reducer>: Reducer where Base.State: Sendable {
  let base: Base
  let recorder: StateRecorder<Base.State>

  func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let effect = base.reduce(into: &state, action: action)
    if DrawSession.current?.isReplaying != true { recorder.append(state) }
    return effect
  }
}
