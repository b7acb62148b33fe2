import CRewind
import Foundation
import Synchronization

/// The machinery of a root store: the dispatch gate, the state hub with its history, the journal, the
/// effects and the observation of its state by views.
///
/// ``Store`` is a thin public face over one engine; scoped stores send through their root's engine. The
/// `@inlinable` send path (``dispatch(_:)``, ``process(_:)``, ``journal(_:sequence:timestamp:draws:)``,
/// ``publish(_:sequence:pending:effect:journalError:)``) lives here, next to the stored properties it
/// reads, so that it is specialized for the app's types where the app sends.
@usableFromInline
@safe
final class StoreEngine<State: Sendable, Action: Sendable>: Sendable {
  /// The events the store has accepted.
  @usableFromInline let journal: any Journal<Action>
  @usableFromInline let hub: StateHub<State>
  @usableFromInline let gate = DispatchGate<PendingEvent<State, Action>>()
  let effects = EffectRegistry()
  @usableFromInline let sharedDiffs = SharedDiffRegistry()
  /// States that queued restores bring back, by target sequence number: computed before the restore is
  /// dispatched, so that applying it cannot fail. Kept out of the queued sends to keep those small.
  @usableFromInline let restoreTargets = Locked<[UInt64: State]>([:])
  /// Who observes which paths of the state, for views; told of every send.
  @usableFromInline let observation: ObservationCenter<State>
  /// The first event the journal refused (see ``refuse(_:because:)``).
  let journalFailure = Locked<RefusedEventError?>(nil)
  /// False once the journal refused an event: later events are not offered to it.
  @usableFromInline let journalHealthy = Atomic<Bool>(true)
  /// The journal, when it is the in-memory one: appended to through specialized code.
  @usableFromInline let inMemoryJournal: InMemoryJournal<Action>?
  /// Whether an inspector holds the store's sends back (see ``HeldSends``); false unless one paused it,
  /// so a send pays one relaxed load for it.
  @usableFromInline let isHoldingSends = Atomic<Bool>(false)
  /// The sends held while ``isHoldingSends``.
  let heldSends = HeldSends<State, Action>()
  /// True once the store is closed (``close()``): later sends are dropped, each reported.
  @usableFromInline let isClosed = Atomic<Bool>(false)

  @usableFromInline let reducer: @Sendable (inout State, Action) -> Effect<Action>
  /// How actions take part in undo; `nil` when undo is off, which keeps sends free of undo work.
  @usableFromInline let undoPolicy: (@Sendable (Action) -> UndoPolicy)?
  @usableFromInline let clock: any EventClock
  @usableFromInline let defaultActor: String?
  @usableFromInline let diagnosticsHandler: @Sendable (Diagnostic) -> Void
  /// Installed around each effect's work, and read by reducers through ``drawSession``.
  let dependencies: DependencyValues
  /// Records what the reducer draws from recorded dependencies during a live send (under the state lock).
  let drawSession: DrawSession
  /// ``drawSession``'s address and state, which the send path uses without a call or a retain; only
  /// under the state lock (hence `nonisolated(unsafe)`).
  @usableFromInline nonisolated(unsafe) let drawSessionAddress: UnsafeMutableRawPointer
  @usableFromInline nonisolated(unsafe) let drawState: UnsafeMutablePointer<DrawSession.State>
  /// Reports, once each, the draws that replays for time travel found missing from their events.
  @usableFromInline let unrecordedDraws: UnrecordedDrawReporter
  /// Fingerprints the state after the events that are due one; `nil` when the store records none, which
  /// keeps sends to a pointer test.
  @usableFromInline let fingerprinter: Fingerprinter<State>?

  /// Creates an engine from a recovered state and history.
  @usableFromInline
  init(
    recovered state: State, sequence: UInt64, history: StoreHistory<State>,
    reducer: @escaping @Sendable (inout State, Action) -> Effect<Action>, journal: any Journal<Action>,
    clock: any EventClock, actor: String?, undoPolicy: (@Sendable (Action) -> UndoPolicy)?,
    diagnostics: @escaping @Sendable (Diagnostic) -> Void, dependencies: DependencyValues,
    unrecordedDraws: UnrecordedDrawReporter, fingerprints: Fingerprinting<State> = .off
  ) {
    let hub = StateHub(state: state, sequence: sequence, history: history)
    self.hub = hub
    self.observation = ObservationCenter(hub: hub)
    self.reducer = reducer
    self.journal = journal
    self.inMemoryJournal = journal as? InMemoryJournal<Action>
    self.clock = clock
    self.defaultActor = actor
    self.diagnosticsHandler = diagnostics
    self.undoPolicy = undoPolicy
    var dependencies = dependencies
    dependencies.services = StoreServices(report: diagnostics, journal: journal, effects: effects)
    self.dependencies = dependencies
    drawSession = DrawSession(replaying: false, dependencies: dependencies)
    unsafe drawSessionAddress = drawSession.address
    unsafe drawState = drawSession.state
    self.unrecordedDraws = unrecordedDraws
    fingerprinter = fingerprints.isOn ? Fingerprinter(fingerprints, after: sequence) : nil
  }

  deinit {
    effects.cancelAll()
    hub.finish()
  }

  // MARK: Dispatch

  /// Serializes `pending` with every other send: processes it now, with whatever it queues, or queues it
  /// when this thread is already dispatching.
  /// - Returns: the effect tasks its processing started (and those of the actions it caused
  ///   synchronously); empty when it was queued behind an outer send.
  @inlinable
  func dispatch(_ pending: PendingEvent<State, Action>) -> StoreTask {
    if gate.isHeldByCurrentThread {
      gate.enqueue(pending)
      return StoreTask(effects: nil)
    }
    gate.enter()
    return dispatchHoldingGate(pending)
  }

  /// Dispatches `pending`, whose view updates are to be applied inside `transaction`.
  @usableFromInline
  func dispatch(_ pending: PendingEvent<State, Action>, transaction: ViewTransaction) -> StoreTask {
    let isNested = gate.isHeldByCurrentThread
    if !isNested { gate.enter() }
    // Holding the gate, no other thread can record an event before this one: it will be the next.
    observation.note(transaction, from: hub.published.load(ordering: .acquiring) + 1)
    if isNested {
      gate.enqueue(pending)
      return StoreTask(effects: nil)
    }
    return dispatchHoldingGate(pending)
  }

  /// Processes `pending` and what it queues, then releases the gate.
  @inlinable
  func dispatchHoldingGate(_ pending: PendingEvent<State, Action>) -> StoreTask {
    // The common send leaves nothing to do and queues nothing: it returns a constant empty task, which the
    // caller then destroys for free (an unknown `Optional` reference cost a `swift_release` call per send).
    if let outcome = process(pending) { return drain(after: outcome, queued: nil) }
    if let next = gate.dequeue() { return drain(after: nil, queued: next) }
    gate.leave()
    // After the state changed, never before: a view that reads meanwhile reads the new state.
    if observation.isActive.load(ordering: .relaxed) { observation.stateDidChange() }
    return StoreTask(effects: nil)
  }

  /// Finishes `outcome`, then processes the queued sends, then releases the gate.
  @inlinable @inline(never)
  func drain(after outcome: Outcome?, queued: PendingEvent<State, Action>?) -> StoreTask {
    var started: StoreTask.Effects?
    if let outcome { finish(outcome, started: &started) }
    var next = queued ?? gate.dequeue()
    while let pending = next {
      if let outcome = process(pending) { finish(outcome, started: &started) }
      next = gate.dequeue()
    }
    gate.leave()
    if observation.isActive.load(ordering: .relaxed) { observation.stateDidChange() }
    return StoreTask(effects: started)
  }

  /// Sends an action on behalf of an effect caused by event `cause`, unless the store cancelled that
  /// effect.
  ///
  /// Checked while holding the dispatch gate, under which sends cancel effects: an action cannot slip in
  /// after the send that removed its effect's child state, even if the task checked for cancellation
  /// just before.
  func sendFromEffect(_ action: Action, cause: UInt64, metadata: EventMetadata, liveness: EffectLiveness) {
    let pending = PendingEvent<State, Action>(
      payload: .action(action), actor: metadata.actor, source: .effect(cause: cause),
      correlationID: metadata.correlationID)
    if gate.isHeldByCurrentThread {
      gate.enqueue(pending)
      return
    }
    gate.enter()
    let outcome = liveness.isCancelled ? nil : process(pending)
    _ = drain(after: outcome, queued: nil)
  }

  /// What a send has left to do outside the state lock. Made only when there is something (an effect,
  /// woken subscribers, a journal error), and a class so that the common `nil` is a pointer test: an
  /// optional struct of this shape was measured costing about a tenth of a send in value-witness calls.
  @usableFromInline
  final class Outcome: Sendable {
    @usableFromInline let effect: Effect<Action>
    @usableFromInline let metadata: EventMetadata
    @usableFromInline let sequence: UInt64
    @usableFromInline let woken: [StateHub<State>.Waiter]
    /// The state handed to `woken`; set exactly when `woken` is not empty.
    @usableFromInline let snapshot: StateHub<State>.Snapshot?
    /// When to wake the parked subscribers, if this send scheduled the paced wake-up.
    @usableFromInline let wakeAt: UInt64?
    @usableFromInline let journalError: (any Error)?

    @inlinable
    init(
      effect: Effect<Action>, metadata: EventMetadata, sequence: UInt64, woken: [StateHub<State>.Waiter],
      snapshot: StateHub<State>.Snapshot?, wakeAt: UInt64?, journalError: (any Error)?
    ) {
      (self.effect, self.metadata, self.sequence) = (effect, metadata, sequence)
      (self.woken, self.snapshot, self.wakeAt, self.journalError) = (woken, snapshot, wakeAt, journalError)
    }
  }

  /// Reduces and records `pending` under the state lock.
  ///
  /// The event is journaled after the reduce, which is when the values the reducer drew are known.
  /// - Returns: what is left to do outside the lock (see ``Outcome``).
  @inlinable
  func process(_ pending: PendingEvent<State, Action>) -> Outcome? {
    // Set while holding the gate, which this thread holds: no send slips in during the close.
    if isClosed.load(ordering: .relaxed) { return drop(pending) }
    if _slowPath(isHoldingSends.load(ordering: .relaxed)) { return holdOrRelease(pending) }
    guard case .action(let action) = pending.payload else { return processCommand(pending) }
    let outcome = hub.core.withLock { core -> Outcome? in
      let sequence = core.sequence + 1
      let timestamp = clock.timestamp()
      // The draw session is installed on this thread for the reduce (see DrawSession).
      unsafe drawState.pointee.timestamp = timestamp
      let outer = unsafe rewind_draw_session()
      unsafe rewind_set_draw_session(drawSessionAddress)
      let effect: Effect<Action>
      if let undoPolicy {
        effect = Self.applyUndoable(
          action, policy: undoPolicy(action), sequence: sequence, timestamp: timestamp, state: &core.state,
          history: &core.history, reducer: reducer)
      } else {
        effect = reducer(&core.state, action)
      }
      unsafe rewind_set_draw_session(outer)
      var fingerprint: RecordedFingerprint?
      if let fingerprinter, fingerprinter.isDue(sequence) {
        fingerprint = fingerprinter.record(core.state, at: sequence)
      }
      let journalError = unsafe journal(
        pending, sequence: sequence, timestamp: timestamp, draws: DrawSession.takeDraws(from: drawState),
        fingerprint: fingerprint)
      if sequence == core.nextCheckpoint { Self.offerCheckpoint(&core, at: sequence) }
      return publish(&core, sequence: sequence, pending: pending, effect: effect, journalError: journalError)
    }
    return outcome
  }

  /// The metadata event `sequence` is recorded with.
  @inlinable
  func metadata(of pending: PendingEvent<State, Action>, sequence: UInt64) -> EventMetadata {
    EventMetadata(
      actor: pending.actor ?? defaultActor, source: pending.source,
      correlationID: pending.correlationID ?? CorrelationID(rawValue: sequence))
  }

  /// Stamps and journals event `sequence`, a history command, with the state's `fingerprint` after it.
  /// Runs under the state lock.
  @inlinable
  func record(_ pending: PendingEvent<State, Action>, sequence: UInt64, fingerprint: RecordedFingerprint?)
    -> (timestamp: Date, journalError: (any Error)?)
  {
    let timestamp = clock.timestamp()
    return (
      timestamp,
      journal(pending, sequence: sequence, timestamp: timestamp, draws: nil, fingerprint: fingerprint)
    )
  }

  /// Journals event `sequence`, stamped `timestamp`, with the values its reducer drew and the state's
  /// fingerprint after it (when it is due one). Runs under the state lock.
  ///
  /// The metadata is moved into the event, not returned: it is rebuilt from `pending` in the rare case
  /// that an effect needs it, which keeps string copies off the common path.
  /// - Returns: the error the store reports when the journal refused the event.
  @inlinable
  func journal(
    _ pending: PendingEvent<State, Action>, sequence: UInt64, timestamp: Date,
    draws: consuming [RecordedDraw]?, fingerprint: RecordedFingerprint? = nil
  ) -> (any Error)? {
    guard journalHealthy.load(ordering: .relaxed) else { return nil }
    let metadata = metadata(of: pending, sequence: sequence)
    do {
      let event = Event(
        sequence: sequence, timestamp: timestamp, metadata: metadata, payload: pending.payload,
        recordedDraws: draws, fingerprint: fingerprint)
      if let inMemoryJournal {
        try inMemoryJournal.append(moving: consume event)
      } else {
        try journal.append(event)
      }
      return nil
    } catch {
      return refuse(sequence, because: error)
    }
  }

  /// Makes event `sequence` visible to subscribers. Runs under the state lock.
  /// - Returns: what is left to do outside the lock, or `nil` when nothing is (the common case: no effect,
  ///   nobody waiting, no journal error), which spares the send building and destroying an ``Outcome``.
  @inlinable
  func publish(
    _ core: inout StateHub<State>.Core, sequence: UInt64, pending: PendingEvent<State, Action>,
    effect: Effect<Action>, journalError: (any Error)?
  ) -> Outcome? {
    core.sequence = sequence
    hub.published.store(sequence, ordering: .releasing)
    if effect.isNone, core.waiters.isEmpty, journalError == nil { return nil }
    var woken: [StateHub<State>.Waiter] = []
    var snapshot: StateHub<State>.Snapshot?
    var wakeAt: UInt64?
    if !core.waiters.isEmpty {
      // Parked subscribers get this state now unless one was handed out very recently; then a paced
      // wake-up (StateHub.handOutInterval) hands them the newest, so a burst wakes them rarely.
      let now = StateHub<State>.now()
      if now &- core.handedOutAt >= core.interval {
        swap(&woken, &core.waiters)
        snapshot = core.handOutNewest(now: now)
        core.didWake(woken.count)
      } else {
        wakeAt = core.schedulePacedWake()
      }
    }
    if effect.isNone, woken.isEmpty, wakeAt == nil, journalError == nil { return nil }
    return Outcome(
      effect: effect, metadata: metadata(of: pending, sequence: sequence), sequence: sequence, woken: woken,
      snapshot: snapshot, wakeAt: wakeAt, journalError: journalError)
  }

  /// Wakes subscribers, reports a journal failure and starts effects. Runs outside the state lock.
  @inlinable
  func finish(_ outcome: Outcome, started: inout StoreTask.Effects?) {
    if let snapshot = outcome.snapshot { StateHub.wakeFromSend(outcome.woken, with: snapshot) }
    if let wakeAt = outcome.wakeAt { hub.scheduleWake(at: wakeAt) }
    if let error = outcome.journalError { recordJournalFailure(error, sequence: outcome.sequence) }
    if !outcome.effect.isNone {
      start(outcome.effect, cause: outcome.sequence, metadata: outcome.metadata, started: &started)
    }
  }

  @usableFromInline
  static func offerCheckpoint(_ core: inout StateHub<State>.Core, at sequence: UInt64) {
    core.history.checkpoints.offer(core.state, at: sequence)
    core.nextCheckpoint = sequence + core.history.checkpoints.interval
  }

  @usableFromInline
  func recordJournalFailure(_ error: any Error, sequence: UInt64) {
    diagnosticsHandler(
      Diagnostic(
        kind: .journalFailed,
        message: "event \(sequence) was not journaled (\(error)); the store goes on in memory"))
  }

  /// Hands `diagnostic` to the diagnostics handler. Call outside the state lock.
  @usableFromInline
  func reportDiagnostic(_ diagnostic: Diagnostic) { diagnosticsHandler(diagnostic) }

  /// Starts `effect`'s work, adding the tasks it starts to `started`. Runs on the thread that holds the
  /// gate.
  @usableFromInline
  func start(
    _ effect: Effect<Action>, cause: UInt64, metadata: EventMetadata, started: inout StoreTask.Effects?
  ) {
    for item in effect.items {
      switch item {
      case .send(let action):
        gate.enqueue(
          PendingEvent(
            payload: .action(action), actor: metadata.actor, source: .effect(cause: cause),
            correlationID: metadata.correlationID))
      case .run(let run):
        let report = diagnosticsHandler
        let dependencies = dependencies
        let task = effects.startWithLiveness(
          priority: run.priority, ids: run.cancellationIDs, cancelInFlight: run.cancelInFlight,
          lifetime: run.lifetime
        ) { [weak self] liveness in
          let send = Send<Action> { [weak self] action in
            self?.sendFromEffect(action, cause: cause, metadata: metadata, liveness: liveness)
          }
          do {
            try await DependencyValues.$taskLocal.withValue(dependencies) { try await run.operation(send) }
          } catch is CancellationError {
          } catch is UnimplementedDependencyError {
            // Already reported, naming the dependency, when it was called.
          } catch {
            if !Task.isCancelled {
              report(Diagnostic(kind: .effectFailed, message: "effect of event \(cause) threw \(error)"))
            }
          }
        }
        StoreTask.Effects.add(task, to: &started)
      case .cancel(let id):
        effects.cancel(id: id)
      case .diagnostic(let diagnostic):
        diagnosticsHandler(diagnostic)
      case .endLifetimes(let end):
        effects.end(end)
      }
    }
  }

  // MARK: Reading

  /// The current state and the sequence number of the last event applied to it.
  @inlinable
  var stateAndSequence: (state: State, sequence: UInt64) { hub.core.withLock { ($0.state, $0.sequence) } }

  /// Whether the journal refused an event.
  var journalStatus: JournalStatus {
    ((journalFailure.withLock { $0 } as (any Error)?) ?? journal.failure).map(JournalStatus.failed)
      ?? .healthy
  }

  /// The first event the journal refused, if any.
  var journalRefusal: RefusedEventError? { journalFailure.withLock { $0 } }

  /// Records that the journal refused event `sequence`; called under the state lock, so that a waiter
  /// that sees the event's sequence number also sees the refusal. Later events are not offered.
  /// - Returns: the error the store reports.
  @usableFromInline
  func refuse(_ sequence: UInt64, because error: any Error) -> RefusedEventError {
    journalHealthy.store(false, ordering: .relaxed)
    return journalFailure.withLock { refusal in
      if refusal == nil { refusal = RefusedEventError(sequence: sequence, reason: error) }
      return refusal ?? RefusedEventError(sequence: sequence, reason: error)
    }
  }

}

/// An action or command waiting for its turn, with the metadata it will be recorded with.
@usableFromInline
struct PendingEvent<State: Sendable, Action: Sendable>: Sendable {
  @usableFromInline var payload: EventPayload<Action>
  @usableFromInline var actor: String?
  @usableFromInline var source: EventSource
  @usableFromInline var correlationID: CorrelationID?

  @inlinable
  init(
    payload: EventPayload<Action>, actor: String?, source: EventSource, correlationID: CorrelationID?
  ) {
    (self.payload, self.actor, self.source, self.correlationID) = (payload, actor, source, correlationID)
  }

  /// An action sent from `origin`.
  @inlinable
  init(action: Action, from origin: Origin) {
    self.init(
      payload: .action(action), actor: origin.actor, source: origin.source,
      correlationID: origin.correlationID)
  }

  /// A history command sent from `origin`.
  @inlinable
  init(command: HistoryCommand, from origin: Origin) {
    self.init(
      payload: .command(command), actor: origin.actor, source: origin.source,
      correlationID: origin.correlationID)
  }
}
