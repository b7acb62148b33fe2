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
  let root: ScopeNode
  /// Whether some path is observed; read by every send without the lock.
  @usableFromInline let isActive = Atomic<Bool>(false)
  /// Whether a flush is waiting on the main queue; sends in a burst find it set and do nothing more.
  let isFlushScheduled = Atomic<Bool>(false)
  /// When the last flush ended (``StateHub/now()``), and how long until the next may start.
  let lastFlushEnd = Atomic<UInt64>(0)
  let flushGap = Atomic<UInt64>(ObservationCenter.minimumFlushGap)

  /// The shortest time between the end of a flush and the start of the next one, in nanoseconds.
  ///
  /// Under a sustained burst of sends, a flush right after each other one (an idle main thread runs them
  /// back to back) made every send pay: each flush keeps the state it compared, so the next send copies
  /// what it changes, and a list of 1,000 rows fell from about 5 M to 1.5 M sends/s with a view per row.
  /// Paced, the copies happen at most a thousand times a second, and a view is told at most a millisecond
  /// after the send that changed it (no later than the next frame at 120 Hz). A send after a quiet moment
  /// is not delayed: it is flushed at the next turn of the main run loop.
  static var minimumFlushGap: UInt64 { 1_000_000 }
  let machine: Locked<Machine>

  init(hub: StateHub<Root>) {
    self.hub = hub
    let root = ScopeNode()
    self.root = root
    machine = Locked(Machine(root: root))
  }

  /// A state and its sequence number.
  typealias Snapshot = StateHub<Root>.Snapshot

  /// What the center knows, behind its lock. Its transitions return what to do after unlocking.
  struct Machine: @unchecked Sendable {
    // @unchecked: the node tree is reference-typed and only touched under the lock that owns this value.
    let root: ScopeNode
    /// The state observers were last told of; `nil` while nothing is observed.
    var baseline: Snapshot?
    /// Paths read, since the last flush, at a state where their value already differed from the
    /// baseline's: the next flush tells them whatever it finds (the value may have changed back).
    var forced: [ObjectIdentifier: PathObservation] = [:]
    /// The newest transaction sent since the last flush, and the first sequence number it applies to.
    var transaction: (value: ViewTransaction, from: UInt64)?
    /// The state views are shown instead of the live one, while an inspector looks at the past
    /// (``ObservationCenter/show(_:)``); `nil`: the live state.
    var shown: Snapshot?
    /// Whether what views are shown was switched since the last flush: the next flush compares even when
    /// the sequence numbers agree (a state recomputed without skipped events has the same number).
    var shownChanged = false

    /// Whether anything needs comparing at the next flush.
    var isObserving: Bool { root.isInteresting || !forced.isEmpty }

    /// Notes `transaction` for the sends from sequence number `from` on.
    mutating func note(_ transaction: ViewTransaction, from: UInt64) {
      self.transaction = (transaction, from)
    }

    /// Makes the next flush tell `path`'s observers.
    mutating func force(_ path: PathObservation) {
      forced[ObjectIdentifier(path)] = path
    }

    /// Compares the baseline with `now`, makes `now` the baseline, and returns the paths to notify.
    mutating func flush(now: Snapshot) -> Delivery {
      guard let baseline else { return Delivery(paths: [], transaction: nil) }
      var notify: [PathObservation] = []
      if now.sequence != baseline.sequence || shownChanged {
        root.collectChanges(from: baseline.state, to: now.state, into: &notify)
      }
      shownChanged = false
      for path in forced.values where !path.isQueued {
        path.isQueued = true
        notify.append(path)
      }
      forced = [:]
      for path in notify {
        path.isQueued = false
        // A path whose store went away since it was forced has no node left to update.
        path.owner?.clearInterest(in: path)
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

  /// Registers a read of the path `key` of `node` (made by `make` on first use; found fast by `alias`, the
  /// key path object read through) and returns the path and `value` of the store's current state.
  ///
  /// `resolve` (the store's state in the root's) and `value` run under the state lock, as a reducer does:
  /// only what `value` returns is copied out. Copying the whole state out instead made the sender's next
  /// mutation copy whatever it changed (a list of 1,000 rows) whenever a view read at the same moment.
  func read<State, Value>(
    _ key: PathKey, alias: AnyKeyPath?, in node: ScopeNode, make: (ScopeNode) -> TypedPathObservation<State>,
    resolve: (Root) -> State, value: (State) -> Value
  ) -> (PathObservation, Value) {
    machine.withLock { machine in
      let path = node.path(for: key, alias: alias, make: make)
      node.markInteresting(path)
      // Set before the state is read: a send that changes the state after this read finds it set (the state
      // lock orders the two), and schedules the flush that tells this reader.
      isActive.store(true, ordering: .relaxed)
      let result = Self.withState(shown: machine.shown, of: hub) { root, sequence in
        let state = resolve(root)
        if let baseline = machine.baseline {
          // A read between a send and the flush that follows it, of a value that already differs from the
          // baseline's: the flush must tell this reader even if the value changes back meanwhile.
          if sequence != baseline.sequence || machine.shownChanged, !path.isQueued,
            unsafe unsafeDowncast(path, to: TypedPathObservation<State>.self).changed(
              resolve(baseline.state), state)
          {
            machine.force(path)
          }
        } else {
          machine.baseline = Snapshot(state: root, sequence: sequence)
        }
        return value(state)
      }
      machine.checkInvariantsIfEnabled()
      return (path, result)
    }
  }

  /// Runs `body` under the lock with the current root state, for scoping (finding or making child stores).
  /// `body` runs under the state lock too, so that it reads the state in place (see ``read``).
  func withCurrentState<Result>(_ body: (Root) -> Result) -> Result {
    machine.withLock { machine in
      let result = Self.withState(shown: machine.shown, of: hub) { state, _ in body(state) }
      machine.checkInvariantsIfEnabled()
      return result
    }
  }

  /// Runs `body` under the lock, for changes to the node tree.
  func withTreeLock<Result>(_ body: () -> Result) -> Result {
    machine.withLock { machine in
      let result = body()
      machine.checkInvariantsIfEnabled()
      return result
    }
  }

  // MARK: Sending

  /// Makes sure a flush is scheduled. Called by a send after it changed the state, when ``isActive``.
  @usableFromInline
  func stateDidChange() {
    guard !isFlushScheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
    let due = lastFlushEnd.load(ordering: .relaxed) &+ flushGap.load(ordering: .relaxed)
    if StateHub<Root>.now() >= due {
      DispatchQueue.main.async { [self] in
        MainActor.assumeIsolated { flush() }
      }
    } else {
      DispatchQueue.main.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: due)) { [self] in
        MainActor.assumeIsolated { flush() }
      }
    }
  }

  /// Notes that the sends from sequence number `from` on carry `transaction`.
  func note(_ transaction: ViewTransaction, from sequence: UInt64) {
    machine.withLock { machine in
      machine.note(transaction, from: sequence)
      machine.checkInvariantsIfEnabled()
    }
  }

  /// Compares, commits and notifies. Runs on the main actor, scheduled by ``stateDidChange()``.
  @MainActor
  func flush() {
    let start = StateHub<Root>.now()
    defer {
      let end = StateHub<Root>.now()
      lastFlushEnd.store(end, ordering: .relaxed)
      // A flush that takes long is followed by a longer gap: the main thread spends at most a fifth of its
      // time telling views.
      flushGap.store(max(Self.minimumFlushGap, (end &- start) &* 4), ordering: .relaxed)
    }
    // Cleared before the state is read: a send after this read schedules the next flush.
    isFlushScheduled.store(false, ordering: .sequentiallyConsistent)
    let delivery = machine.withLock { machine in
      let now = machine.shown ?? hub.core.withLock { Snapshot(state: $0.state, sequence: $0.sequence) }
      let delivery = machine.flush(now: now)
      if machine.baseline == nil { isActive.store(false, ordering: .relaxed) }
      machine.checkInvariantsIfEnabled()
      return delivery
    }
    delivery.deliver()
  }
}
