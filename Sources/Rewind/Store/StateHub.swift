import Dispatch
import Synchronization

/// The store's state, its sequence number, and the subscribers waiting for a newer one.
///
/// Subscribers pull: each remembers the sequence number it last saw, and `next` hands it the newest state
/// at once if there is one, or parks it until a send wakes it. A slow subscriber therefore skips straight
/// to the newest state (coalescing), and `send` does no work per subscriber beyond waking those parked.
@usableFromInline
final class StateHub<State: Sendable>: Sendable {
  /// A state and the sequence number of the last event applied to it.
  @usableFromInline
  struct Snapshot: Sendable {
    @usableFromInline var state: State
    @usableFromInline var sequence: UInt64

    @inlinable
    init(state: State, sequence: UInt64) {
      self.state = state
      self.sequence = sequence
    }
  }

  /// What a parked subscriber is woken with.
  @usableFromInline
  enum Delivery: Sendable {
    case snapshot(Snapshot)
    case finished
    /// Ask again: the hub finished, and this subscriber may still be owed the newest state.
    case retry
  }

  @safe
  @usableFromInline
  struct Waiter: Sendable {
    @usableFromInline var id: UInt64
    /// The sequence number of the last state this subscriber was given.
    @usableFromInline var after: UInt64?
    @usableFromInline var continuation: UnsafeContinuation<Delivery, Never>

    @inlinable
    init(id: UInt64, after: UInt64?, continuation: UnsafeContinuation<Delivery, Never>) {
      unsafe (self.id, self.after, self.continuation) = (id, after, continuation)
    }
  }

  /// What a subscriber may have now.
  @usableFromInline
  enum Offer {
    case snapshot(Snapshot)
    case finished
    case nothingNewer
    /// Something newer exists; a fresh snapshot may be handed out at this monotonic time (nanoseconds).
    case notBefore(UInt64)
  }

  /// The shortest time between two fresh snapshots handed to subscribers, in nanoseconds.
  ///
  /// Subscribers that are behind the last snapshot handed out take that one instead, and a fresh one is
  /// made at most this often; so under a burst subscribers are woken at most 4,000 times a second,
  /// whatever the number of sends, and a subscriber sees the newest state at most about this much later.
  /// Sparse sends are not delayed: a send after a quiet moment is handed out at once.
  ///
  /// It was introduced because a snapshot shares the state's storage, so the store's next mutation
  /// copies what it changes: a whole `[Element]` list, which made one fast changeset subscriber of a
  /// 1,000-row list cut sends from about 5 M/s to 0.1–0.4 M/s. With an `IdentifiedArray` that copy is
  /// now one path of the tree, and pacing was measured again without it (interval 0): it still pays, for
  /// the wake-ups rather than the copies. Unpaced, 10 and 100 subscribers on two shared cores fell to
  /// 0.4–0.9 M sends/s in a third of the runs (paced: 1.5–4.5 M), p99 latency unchanged; and a state
  /// holding a plain array still copies it whole after each snapshot. Docs/Performance.md has the runs.
  @usableFromInline
  static var handOutInterval: UInt64 { 250_000 }

  /// How much longer the hand-out interval gets for each subscriber woken at the last hand-out, in
  /// nanoseconds: a wake-up of many subscribers is work on the shared cores (resuming each, its diff,
  /// its loop), so that a burst of sends keeps most of a core whatever the number of subscribers.
  @usableFromInline
  static var handOutIntervalPerSubscriber: UInt64 { 2_000 }

  /// Monotonic time in nanoseconds.
  @inlinable
  static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

  @usableFromInline
  struct Core {
    @usableFromInline var state: State
    @usableFromInline var sequence: UInt64
    @usableFromInline var waiters: [Waiter] = []
    @usableFromInline var history: StoreHistory<State>
    /// The sequence number at which the next checkpoint is due: a comparison per send, not a division.
    @usableFromInline var nextCheckpoint: UInt64
    @usableFromInline var isFinished = false
    /// The snapshot last handed to a subscriber, and when (``StateHub/now()``).
    @usableFromInline var handedOut: Snapshot?
    @usableFromInline var handedOutAt: UInt64 = 0
    /// Whether a task will wake the parked subscribers once the hand-out interval is over.
    @usableFromInline var isPacedWakeScheduled = false
    /// The current hand-out interval: ``StateHub/handOutInterval``, longer while many subscribers wait.
    @usableFromInline var interval: UInt64 = StateHub.handOutInterval

    /// Notes that `count` parked subscribers were just woken, which sets the interval until the next
    /// fresh snapshot (see ``StateHub/handOutIntervalPerSubscriber``).
    @inlinable
    mutating func didWake(_ count: Int) {
      interval = StateHub.handOutInterval &+ StateHub.handOutIntervalPerSubscriber &* UInt64(count)
    }

    /// Notes that parked subscribers are owed a state newer than the last one handed out.
    /// - Returns: when to wake them, if no wake-up was scheduled yet.
    @inlinable
    mutating func schedulePacedWake() -> UInt64? {
      guard !isPacedWakeScheduled else { return nil }
      isPacedWakeScheduled = true
      return handedOutAt &+ interval
    }

    /// A snapshot of the newest state, remembered as handed out at `now`.
    @inlinable
    mutating func handOutNewest(now: UInt64) -> Snapshot {
      let snapshot = Snapshot(state: state, sequence: sequence)
      handedOut = snapshot
      handedOutAt = now
      return snapshot
    }

    /// What a subscriber that last saw `sequence` (nil: nothing yet) may have at `now`.
    @inlinable
    mutating func offer(after sequence: UInt64?, now: UInt64) -> Offer {
      // A new subscriber starts from the current state.
      guard let sequence else { return .snapshot(handOutNewest(now: now)) }
      guard self.sequence > sequence else { return isFinished ? .finished : .nothingNewer }
      if let handedOut, handedOut.sequence == self.sequence { return .snapshot(handedOut) }
      if isFinished || now &- handedOutAt >= interval {
        return .snapshot(handOutNewest(now: now))
      }
      // Within the interval: the recent snapshot if it is newer than this subscriber's, else wait.
      if let handedOut, handedOut.sequence > sequence { return .snapshot(handedOut) }
      return .notBefore(handedOutAt &+ interval)
    }
  }

  @usableFromInline let core: Locked<Core>
  /// The newest sequence number, readable without the lock: subscribers looking for something newer poll
  /// this instead of contending with the sender for `core`.
  @usableFromInline let published: Atomic<UInt64>
  @usableFromInline let isFinishedFlag = Atomic<Bool>(false)
  /// Numbers waiters, so that a cancelled one can be found; atomic, to keep it off the state lock.
  @usableFromInline let nextWaiterID = Atomic<UInt64>(0)

  init(state: State, sequence: UInt64, history: StoreHistory<State>) {
    let interval = history.checkpoints.interval
    core = Locked(
      Core(
        state: state, sequence: sequence, history: history,
        nextCheckpoint: (sequence / interval + 1) * interval))
    published = Atomic(sequence)
  }

  var snapshot: Snapshot {
    core.withLock { Snapshot(state: $0.state, sequence: $0.sequence) }
  }

  /// Wakes `waiters` with `snapshot`; call outside the lock.
  @usableFromInline
  static func wake(_ waiters: [Waiter], with snapshot: Snapshot) {
    for waiter in waiters { unsafe waiter.continuation.resume(returning: .snapshot(snapshot)) }
  }

  /// Wakes `waiters` at a constant cost to the caller: one directly, several from one task, so that a
  /// send pays the same whether one subscriber or a thousand were waiting (Docs/Streams.md, "The contract").
  @usableFromInline
  static func wakeFromSend(_ waiters: [Waiter], with snapshot: Snapshot) {
    if waiters.count == 1 {
      unsafe waiters[0].continuation.resume(returning: .snapshot(snapshot))
    } else {
      Task { wake(waiters, with: snapshot) }
    }
  }

  /// The first snapshot newer than `sequence` (any snapshot when `sequence` is nil), waiting for one if
  /// needed; `nil` once the hub is finished and nothing newer is left, or the task is cancelled.
  ///
  /// Parks as soon as nothing newer is ready. Spinning first (yielding a few times) was measured and lost:
  /// with the lock-free `published` check, parked subscribers cost the sender less than spinning ones,
  /// which take CPU from it on a small machine.
  ///
  /// Inlinable, like the sequences that call it, so that it is specialized for the app's state where it
  /// subscribes: unspecialized, generic metadata lookups were a sixth of a delivery's instructions.
  @inlinable
  func next(after sequence: UInt64?, isolation: isolated (any Actor)? = #isolation) async -> Snapshot? {
    while true {
      // Fast path, without the lock while nothing is newer: something newer is ready, no suspension.
      let mayBeNewer =
        sequence.map { published.load(ordering: .acquiring) > $0 } ?? true
        || isFinishedFlag.load(ordering: .acquiring)
      if mayBeNewer {
        let now = Self.now()
        switch core.withLock({ $0.offer(after: sequence, now: now) }) {
        case .snapshot(let snapshot): return snapshot
        case .finished: return nil
        case .notBefore, .nothingNewer: break  // park; a send or the paced wake-up hands it over
        }
      }
      switch await park(after: sequence, isolation: isolation) {
      case .snapshot(let snapshot): return snapshot
      case .finished: return nil
      case .retry: continue
      }
    }
  }

  /// Waits until a send wakes this subscriber, unless something is ready by the time the lock is taken.
  @inlinable
  func park(after sequence: UInt64?, isolation: isolated (any Actor)?) async -> Delivery {
    let id = nextWaiterID.add(1, ordering: .relaxed).newValue
    return await withTaskCancellationHandler {
      unsafe await withUnsafeContinuation(isolation: isolation) { continuation in
        let now = Self.now()
        var wakeAt: UInt64?
        let immediate: Delivery? = core.withLock { core in
          switch core.offer(after: sequence, now: now) {
          case .snapshot(let snapshot): return .snapshot(snapshot)
          case .finished: return .finished
          case .notBefore:
            if Task.isCancelled { return .finished }
            unsafe core.waiters.append(Waiter(id: id, after: sequence, continuation: continuation))
            wakeAt = core.schedulePacedWake()
            return nil
          case .nothingNewer:
            // Checked under the lock: a cancellation after this finds the waiter registered and removes it.
            if Task.isCancelled { return .finished }
            unsafe core.waiters.append(Waiter(id: id, after: sequence, continuation: continuation))
            return nil
          }
        }
        if let immediate { unsafe continuation.resume(returning: immediate) }
        if let wakeAt { scheduleWake(at: wakeAt) }
      }
    } onCancel: {
      let waiter: Waiter? = core.withLock { core in
        guard let index = core.waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return core.waiters.remove(at: index)
      }
      unsafe waiter?.continuation.resume(returning: .finished)
    }
  }

  /// Wakes the parked subscribers at `time` (``now()``) with the newest state: the trailing edge of the
  /// hand-out pacing, so that the last state of a burst is always delivered.
  @usableFromInline
  func scheduleWake(at time: UInt64) {
    Task {
      let now = Self.now()
      if time > now { try? await Task.sleep(nanoseconds: time - now) }
      let (waiters, snapshot): ([Waiter], Snapshot?) = core.withLock { core in
        core.isPacedWakeScheduled = false
        guard !core.waiters.isEmpty else { return ([], nil) }
        // The newest state, handed out now unless it already was (by a subscriber, since the wake-up was
        // scheduled). Only the subscribers behind it are woken; the others wait for the next send.
        let newest =
          core.handedOut.flatMap { $0.sequence == core.sequence ? $0 : nil }
          ?? core.handOutNewest(now: Self.now())
        var woken: [Waiter] = []
        core.waiters.removeAll { waiter in
          guard waiter.after.map({ $0 < newest.sequence }) ?? true else { return false }
          woken.append(waiter)
          return true
        }
        core.didWake(woken.count)
        return (woken, newest)
      }
      if let snapshot, !waiters.isEmpty { Self.wake(waiters, with: snapshot) }
    }
  }

  /// Ends every subscription: each gets the newest state if it has not seen it, then `nil`.
  func finish() {
    let waiters: [Waiter] = core.withLock { core in
      core.isFinished = true
      isFinishedFlag.store(true, ordering: .releasing)
      var waiters: [Waiter] = []
      swap(&waiters, &core.waiters)
      return waiters
    }
    // Parked subscribers ask again: one held back by pacing is owed the newest state.
    for waiter in waiters { unsafe waiter.continuation.resume(returning: .retry) }
  }

  /// The number of parked subscribers, for tests.
  var subscriberCount: Int { core.withLock { $0.waiters.count } }

  /// For each parked subscriber, the sequence number it waits to pass (`nil`: any state): a test waits for
  /// `[n]` to know that its one subscriber has taken state `n` and waits for a newer one.
  var parkedAfter: [UInt64?] { core.withLock { $0.waiters.map(\.after) } }
}
