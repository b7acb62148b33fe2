import Dispatch
import Synchronization

/// Per-path observation of a root store and its scopes, delivered on the main actor.
///
/// A read registers the path it reads (``PathObservation``). A send does not notify anyone itself: it only
/// makes sure a flush is scheduled on the main queue (one atomic load when nobody observes; one exchange
/// more when somebody does). The flush compares the state observers were last told of (the baseline) with
/// the current one, path by path, and notifies exactly the paths whose values differ, then makes the
/// current state the baseline. So a burst of sends costs observers one comparison and at most one
/// notification per path per turn of the main run loop, and a send that changes nothing notifies nobody.
///
/// No update is lost: notifications go out after the state changed, never before; a read is ordered with
/// the flush by the center's lock; and a read of a state newer than the baseline (between a send and its
/// flush) is remembered, so the flush also compares what that reader saw with the current state.
///
/// Lock order: the center's lock, then the state lock inside it (to read the current state). Sends take the
/// state lock alone and never the center's, so they are never held up by readers or flushes.
@usableFromInline
final class ObservationCenter<Root: Sendable>: Sendable {
  let hub: StateHub<Root>
  /// The root store's node; its tree is guarded by `machine`'s lock.
  let root: ScopeNode<Root>
  /// Whether some path is observed; read by every send without the lock.
  @usableFromInline let isActive = Atomic<Bool>(false)
  /// Whether a flush is waiting on the main queue; sends in a burst find it set and do nothing more.
  let isFlushScheduled = Atomic<Bool>(false)
  let machine: Locked<Machine>

  init(hub: StateHub<Root>) {
    self.hub = hub
    let root = ScopeNode<Root>()
    self.root = root
    machine = Locked(Machine(root: root))
  }

  /// A state and its sequence number.
  typealias Snapshot = StateHub<Root>.Snapshot

  /// What the center knows, behind its lock. Its transitions return what to do after unlocking.
  struct Machine: @unchecked Sendable {
    // @unchecked: the node tree is reference-typed and only touched under the lock that owns this value.
    let root: ScopeNode<Root>
    /// The state observers were last told of; `nil` while nothing is observed.
    var baseline: Snapshot?
    /// Paths read at a state other than the baseline, with how to compare what the reader saw.
    var readsAhead: [ObjectIdentifier: ReadAhead] = [:]
    /// The states those reads saw, by sequence number.
    var readStates: [UInt64: Root] = [:]
    /// The newest transaction sent since the last flush, and the first sequence number it applies to.
    var transaction: (value: ViewTransaction, from: UInt64)?

    /// A read made between a send and the flush that follows it.
    struct ReadAhead {
      var path: PathObservation
      var sequence: UInt64
      /// Whether the path's value differs between the state read and the current one.
      var changed: (Root, Root) -> Bool
    }

    /// Whether anything needs comparing at the next flush.
    var isObserving: Bool { root.isInteresting || !readsAhead.isEmpty }

    /// Records a read of `path` at `now`. `changed` compares the path between two root states.
    mutating func didRead(_ path: PathObservation, at now: Snapshot, changed: @escaping (Root, Root) -> Bool) {
      guard let baseline else {
        baseline = now
        return
      }
      guard now.sequence != baseline.sequence else { return }
      // The reader saw a state the next flush does not compare from: remember it, so the flush compares
      // this path from what the reader saw too (a value that changed and changed back must still notify).
      readsAhead[ObjectIdentifier(path)] = ReadAhead(path: path, sequence: now.sequence, changed: changed)
      if readStates[now.sequence] == nil { readStates[now.sequence] = now.state }
    }

    /// Notes `transaction` for the sends from sequence number `from` on.
    mutating func note(_ transaction: ViewTransaction, from: UInt64) {
      self.transaction = (transaction, from)
    }

    /// Compares the baseline with `now`, makes `now` the baseline, and returns the paths to notify.
    mutating func flush(now: Snapshot) -> Delivery {
      guard let baseline else { return Delivery(paths: [], transaction: nil) }
      var notify: [PathObservation] = []
      if now.sequence != baseline.sequence {
        root.collectChanges(from: baseline.state, to: now.state, into: &notify)
      }
      for read in readsAhead.values where !read.path.isQueued {
        guard let seen = readStates[read.sequence], read.changed(seen, now.state) else { continue }
        read.path.isQueued = true
        notify.append(read.path)
      }
      readsAhead = [:]
      readStates = [:]
      for path in notify {
        path.isQueued = false
        path.clearInterest()
      }
      self.baseline = isObserving ? now : nil
      var applied: ViewTransaction?
      if let transaction, transaction.from <= now.sequence {
        applied = transaction.value
        self.transaction = nil
      }
      return Delivery(paths: notify, transaction: notify.isEmpty ? nil : applied)
    }
  }

  /// What a flush hands to the observers, outside the lock.
  struct Delivery {
    var paths: [PathObservation]
    var transaction: ViewTransaction?

    /// Notifies every path, inside the transaction when there is one.
    @MainActor
    func deliver() {
      guard !paths.isEmpty else { return }
      if let transaction {
        transaction.perform { for path in paths { path.notifyObservers() } }
      } else {
        for path in paths { path.notifyObservers() }
      }
    }
  }

  // MARK: Reading

  /// Registers a read of the path `key` of `node` and returns the current root state, under the lock.
  ///
  /// `resolve` takes the store's state from the root's, and runs under the lock (it records the last state
  /// of a child scope); `peek` does the same without recording, for a later comparison.
  func read<State, Result>(
    _ key: PathKey, in node: ScopeNode<State>, make: (ScopeNode<State>) -> TypedPathObservation<State>,
    resolve: (Root) -> State, peek: @escaping (Root) -> State, _ body: (PathObservation, State) -> Result
  ) -> Result {
    machine.withLock { machine in
      let path = node.path(for: key, make: make)
      node.markInteresting(path)
      // Set before the state is read: a send that changes the state after this read finds it set (the state
      // lock orders the two), and schedules the flush that tells this reader.
      isActive.store(true, ordering: .relaxed)
      let now = hub.core.withLock { Snapshot(state: $0.state, sequence: $0.sequence) }
      machine.didRead(path, at: now) { old, new in path.changed(peek(old), peek(new)) }
      let result = body(path, resolve(now.state))
      machine._checkInvariants()
      return result
    }
  }

  /// Runs `body` under the lock with the current root state, for scoping (finding or making child stores).
  func withCurrentState<Result>(_ body: (Root) -> Result) -> Result {
    machine.withLock { machine in
      let result = body(hub.core.withLock { $0.state })
      machine._checkInvariants()
      return result
    }
  }

  /// Runs `body` under the lock, for changes to the node tree.
  func withTreeLock<Result>(_ body: () -> Result) -> Result {
    machine.withLock { machine in
      let result = body()
      machine._checkInvariants()
      return result
    }
  }

  // MARK: Sending

  /// Makes sure a flush is scheduled. Called by a send after it changed the state, when ``isActive``.
  @usableFromInline
  func stateDidChange() {
    guard !isFlushScheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
    DispatchQueue.main.async { [self] in
      MainActor.assumeIsolated { flush() }
    }
  }

  /// Notes that the sends from sequence number `from` on carry `transaction`.
  func note(_ transaction: ViewTransaction, from sequence: UInt64) {
    machine.withLock { $0.note(transaction, from: sequence) }
  }

  /// Compares, commits and notifies. Runs on the main actor, scheduled by ``stateDidChange()``.
  @MainActor
  func flush() {
    // Cleared before the state is read: a send after this read schedules the next flush.
    isFlushScheduled.store(false, ordering: .sequentiallyConsistent)
    let delivery = machine.withLock { machine in
      let now = hub.core.withLock { Snapshot(state: $0.state, sequence: $0.sequence) }
      let delivery = machine.flush(now: now)
      if machine.baseline == nil { isActive.store(false, ordering: .relaxed) }
      machine._checkInvariants()
      return delivery
    }
    delivery.deliver()
  }
}
