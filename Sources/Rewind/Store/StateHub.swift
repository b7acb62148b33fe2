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

  @usableFromInline
  struct Waiter: Sendable {
    @usableFromInline var id: UInt64
    @usableFromInline var continuation: UnsafeContinuation<Snapshot?, Never>

    @inlinable
    init(id: UInt64, continuation: UnsafeContinuation<Snapshot?, Never>) {
      (self.id, self.continuation) = (id, continuation)
    }
  }

  @usableFromInline
  struct Core {
    @usableFromInline var state: State
    @usableFromInline var sequence: UInt64
    @usableFromInline var waiters: [Waiter] = []
    @usableFromInline var history: StoreHistory<State>
    /// The sequence number at which the next checkpoint is due: a comparison per send, not a division.
    @usableFromInline var nextCheckpoint: UInt64
    @usableFromInline var isFinished = false
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
  static func wake(_ waiters: [Waiter], with snapshot: Snapshot?) {
    for waiter in waiters { waiter.continuation.resume(returning: snapshot) }
  }

  /// Wakes `waiters` at a constant cost to the caller: one directly, several from one task, so that a
  /// send pays the same whether one subscriber or a thousand were waiting (ARCHITECTURE.md, contract 5).
  @usableFromInline
  static func wakeFromSend(_ waiters: [Waiter], with snapshot: Snapshot?) {
    if waiters.count == 1 {
      waiters[0].continuation.resume(returning: snapshot)
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
    // Fast path: something newer is ready, no suspension.
    if let ready = readySnapshot(after: sequence) { return ready }

    let id = nextWaiterID.add(1, ordering: .relaxed).newValue
    return await withTaskCancellationHandler {
      await withUnsafeContinuation(isolation: isolation) { continuation in
        let immediate: Snapshot?? = core.withLock { core in
          if sequence.map({ core.sequence > $0 }) ?? true {
            return .some(Snapshot(state: core.state, sequence: core.sequence))
          }
          // Checked under the lock: a cancellation after this finds the waiter registered and removes it.
          if core.isFinished || Task.isCancelled { return .some(nil) }
          core.waiters.append(Waiter(id: id, continuation: continuation))
          return .none
        }
        if let immediate { continuation.resume(returning: immediate) }
      }
    } onCancel: {
      let waiter: Waiter? = core.withLock { core in
        guard let index = core.waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return core.waiters.remove(at: index)
      }
      waiter?.continuation.resume(returning: nil)
    }
  }

  /// `.some(snapshot)` when one newer than `sequence` is ready, `.some(nil)` when finished, else `nil`.
  @inlinable
  func readySnapshot(after sequence: UInt64?) -> Snapshot?? {
    if let sequence, published.load(ordering: .acquiring) <= sequence,
      !isFinishedFlag.load(ordering: .acquiring)
    {
      return .none
    }
    return core.withLock { core in
      if sequence.map({ core.sequence > $0 }) ?? true {
        return .some(Snapshot(state: core.state, sequence: core.sequence))
      }
      return core.isFinished ? .some(nil) : .none
    }
  }

  /// Ends every subscription: parked subscribers get `nil`; the others get the newest state, then `nil`.
  func finish() {
    let waiters: [Waiter] = core.withLock { core in
      core.isFinished = true
      isFinishedFlag.store(true, ordering: .releasing)
      var waiters: [Waiter] = []
      swap(&waiters, &core.waiters)
      return waiters
    }
    Self.wake(waiters, with: nil)
  }

  var subscriberCount: Int { core.withLock { $0.waiters.count } }
}
