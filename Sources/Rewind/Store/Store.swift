import Foundation
import Observation
import Synchronization

/// The runtime of an app's state: actions in, events recorded, state out.
///
/// - `send` is synchronous and may be called from any thread; sends are serialized, and when `send`
///   returns the state reflects the action. A send made while the store is dispatching on the same thread
///   (from an observer or a synchronous effect) is queued and processed, in order, before the outer `send`
///   returns. No observer, effect or diagnostics handler runs while the state lock is held.
/// - Every accepted action becomes an ``Event`` in the ``journal``, numbered 1, 2, 3, … without gaps.
/// - ``state`` is observable with the Observation framework, so SwiftUI views update;
///   ``states`` is an async sequence of the newest state for other subscribers.
///
/// ```swift
/// let store = Store(initialState: Counter.State(), reducer: Counter())
/// store.send(.increment)
/// print(store.state.count)  // 1
/// ```
public final class Store<State: Sendable, Action: Sendable>: Sendable {
  /// The events the store has accepted.
  public let journal: any Journal<Action>

  @usableFromInline let hub: StateHub<State>
  @usableFromInline let gate = DispatchGate<PendingEvent<State, Action>>()
  let effects = EffectRegistry()
  @usableFromInline let sharedDiffs = SharedDiffRegistry()
  /// States that queued restores bring back, by target sequence number: computed before the restore is
  /// dispatched, so that applying it cannot fail. Kept out of the queued sends to keep those small.
  @usableFromInline let restoreTargets = Locked<[UInt64: State]>([:])
  @usableFromInline let registrar = ObservationRegistrar()
  /// Set when `state` is read, cleared when observers are told of a change: no observation work is done
  /// for sends nobody is watching.
  @usableFromInline let isObserved = Atomic<Bool>(false)
  /// The first event the journal refused (see `Store+Durability.swift`).
  let journalFailure = Locked<RefusedEventError?>(nil)
  /// False once the journal refused an event: later events are not offered to it.
  @usableFromInline let journalHealthy = Atomic<Bool>(true)
  /// The journal, when it is the in-memory one: appended to through specialized code.
  @usableFromInline let inMemoryJournal: InMemoryJournal<Action>?

  @usableFromInline let reducer: @Sendable (inout State, Action) -> Effect<Action>
  /// How actions take part in undo; `nil` when undo is off, which keeps sends free of undo work.
  @usableFromInline let undoPolicy: (@Sendable (Action) -> UndoPolicy)?
  @usableFromInline let clock: any EventClock
  @usableFromInline let defaultActor: String?
  private let diagnosticsHandler: @Sendable (Diagnostic) -> Void
  /// Installed around each effect's work; reducers never see them.
  let dependencies: DependencyValues

  /// Creates a store that keeps its events in memory.
  ///
  /// - Parameters:
  ///   - initialState: the state before the first event.
  ///   - reducer: evolves the state; it must be pure (see ``Reducer``).
  ///   - clock: stamps events; inject a fixed clock for deterministic tests.
  ///   - actor: recorded as the actor of events whose send names none.
  ///   - history: the undo policy and limit, and the checkpoints that bound time travel. Undo is off by
  ///     default.
  ///   - diagnostics: told of ``Diagnostic``s, such as an action for a missing element. By default they
  ///     are printed to standard error.
  ///   - dependencies: overrides the live ``DependencyValues`` that effects see.
  public convenience init<R: Reducer & Sendable>(
    initialState: State,
    reducer: R,
    clock: some EventClock = .system,
    actor: String? = nil,
    history: HistoryConfiguration<Action> = .standard,
    diagnostics: @escaping @Sendable (Diagnostic) -> Void = Store.printDiagnostic,
    dependencies: (inout DependencyValues) -> Void = { _ in }
  ) where R.State == State, R.Action == Action {
    // An empty journal: recovery replays nothing and cannot fail.
    do {
      try self.init(
        origin: initialState, at: 0, reducer: reducer, journal: InMemoryJournal<Action>(), clock: clock,
        actor: actor, history: history, diagnostics: diagnostics, dependencies: dependencies)
    } catch {
      preconditionFailure("Store: recovering from an empty in-memory journal failed: \(error)")
    }
  }

  /// Creates a store on `journal`, recovering its state, undo history and checkpoints by replaying the
  /// events already in it.
  ///
  /// Effects are not run during replay: the actions they sent are events of their own in the journal.
  ///
  /// - Throws: ``JournalError`` when the journal cannot be read or its events are not numbered 1, 2, 3, …;
  ///   ``HistoryError`` when a recorded jump names a state that cannot be rebuilt.
  /// - Complexity: O(events in the journal).
  @inlinable
  public convenience init<R: Reducer & Sendable>(
    initialState: State,
    reducer: R,
    journal: some Journal<Action>,
    clock: some EventClock = .system,
    actor: String? = nil,
    history: HistoryConfiguration<Action> = .standard,
    diagnostics: @escaping @Sendable (Diagnostic) -> Void = Store.printDiagnostic,
    dependencies: (inout DependencyValues) -> Void = { _ in }
  ) throws where R.State == State, R.Action == Action {
    try self.init(
      origin: initialState, at: 0, reducer: reducer, journal: journal, clock: clock, actor: actor,
      history: history, diagnostics: diagnostics, dependencies: dependencies)
  }

  /// Creates a store whose history starts from `origin`, the state as of event `sequence` (0 for the
  /// initial state, or a snapshot's sequence number), and replays the journal's later events.
  ///
  /// - Throws: ``JournalError`` or ``HistoryError`` as the public initializers do.
  ///
  /// Inlinable, with the replay loop, so that replay is specialized for the app's types where the store is
  /// opened: unspecialized, generic metadata lookups were a large part of each replayed event.
  @inlinable
  public convenience init<R: Reducer & Sendable>(
    origin: State, at sequence: UInt64, reducer: R, journal: some Journal<Action>, clock: some EventClock,
    actor: String?, history: HistoryConfiguration<Action>,
    diagnostics: @escaping @Sendable (Diagnostic) -> Void,
    dependencies: (inout DependencyValues) -> Void = { _ in }
  ) throws where R.State == State, R.Action == Action {
    let reduce: @Sendable (inout State, Action) -> Effect<Action> = { reducer.reduce(into: &$0, action: $1) }
    var recovered = StoreHistory(
      origin: origin, sequence: sequence, undoLimit: history.undoPolicy == nil ? 0 : history.undoLimit,
      checkpointInterval: history.checkpointInterval, checkpointLimit: history.checkpointLimit)
    var state = origin
    let last = try Self.recover(
      from: sequence, into: &state, history: &recovered, journal: journal, reducer: reduce,
      undoPolicy: history.undoPolicy)
    var values = DependencyValues()
    dependencies(&values)
    self.init(
      recovered: state, sequence: last, history: recovered, reducer: reduce, journal: journal, clock: clock,
      actor: actor, undoPolicy: history.undoPolicy, diagnostics: diagnostics, dependencies: values)
  }

  /// Creates a store from a recovered state and history.
  @usableFromInline
  init(
    recovered state: State, sequence: UInt64, history: StoreHistory<State>,
    reducer: @escaping @Sendable (inout State, Action) -> Effect<Action>, journal: any Journal<Action>,
    clock: any EventClock, actor: String?, undoPolicy: (@Sendable (Action) -> UndoPolicy)?,
    diagnostics: @escaping @Sendable (Diagnostic) -> Void, dependencies: DependencyValues
  ) {
    self.hub = StateHub(state: state, sequence: sequence, history: history)
    self.reducer = reducer
    self.journal = journal
    self.inMemoryJournal = journal as? InMemoryJournal<Action>
    self.clock = clock
    self.defaultActor = actor
    self.diagnosticsHandler = diagnostics
    self.undoPolicy = undoPolicy
    var dependencies = dependencies
    dependencies.services = StoreServices(report: diagnostics, journal: journal)
    self.dependencies = dependencies
  }

  deinit {
    effects.cancelAll()
    hub.finish()
  }

  /// Applies every event in `journal` after `sequence` to `state` and `history`, checking that numbers
  /// have no gaps.
  /// - Returns: the sequence number of the last event applied.
  @inlinable
  static func recover(
    from sequence: UInt64, into state: inout State, history: inout StoreHistory<State>,
    journal: some Journal<Action>, reducer: @escaping @Sendable (inout State, Action) -> Effect<Action>,
    undoPolicy: (@Sendable (Action) -> UndoPolicy)?
  ) throws -> UInt64 {
    var last = sequence
    try journal.forEachEvent(from: sequence + 1) { event in
      guard event.sequence == last + 1 else {
        throw JournalError.sequenceGap(expected: last + 1, received: event.sequence)
      }
      switch event.payload {
      case .action(let action):
        if let undoPolicy {
          _ = Self.applyUndoable(
            action, policy: undoPolicy(action), sequence: event.sequence, timestamp: event.timestamp,
            state: &state, history: &history, reducer: reducer)
        } else {
          _ = reducer(&state, action)
        }
      case .command(let command):
        try Self.recoverCommand(
          command, sequence: event.sequence, timestamp: event.timestamp, state: &state, history: &history,
          journal: journal, reducer: reducer)
      }
      // Tested here first: unspecialized, calling `offer` for every event (it builds an autoclosure) cost
      // about a sixth of a replayed event's instructions.
      if event.sequence % history.checkpoints.interval == 0 {
        history.checkpoints.offer(state, at: event.sequence)
      }
      last = event.sequence
    }
    return last
  }

  /// Applies a recorded undo, redo or restore during recovery, resolving its target by replay.
  @usableFromInline
  static func recoverCommand(
    _ command: HistoryCommand, sequence: UInt64, timestamp: Date, state: inout State,
    history: inout StoreHistory<State>, journal: any Journal<Action>,
    reducer: @escaping @Sendable (inout State, Action) -> Effect<Action>
  ) throws {
    let replayer = Replayer(reduce: reducer, journal: journal, checkpoints: history.checkpoints)
    try Self.apply(
      command, sequence: sequence, timestamp: timestamp, state: &state, history: &history,
      resolve: { try replayer.state(at: $0) })
  }

  /// The default diagnostics handler: one line on standard error.
  public static func printDiagnostic(_ diagnostic: Diagnostic) {
    FileHandle.standardError.write(Data("[Rewind] \(diagnostic)\n".utf8))
  }

  // MARK: Reading

  /// The current state. Reading it inside `withObservationTracking` (or a SwiftUI body) tracks it.
  public var state: State {
    registrar.access(self, keyPath: \.state)
    isObserved.store(true, ordering: .relaxed)
    return hub.core.withLock { $0.state }
  }

  /// The sequence number of the last event applied to ``state``; 0 before the first.
  public var sequence: UInt64 {
    hub.core.withLock { $0.sequence }
  }

  /// Whether the journal refused an event. The store then keeps working in memory and stops appending.
  public var journalStatus: JournalStatus {
    ((journalFailure.withLock { $0 } as (any Error)?) ?? journal.failure).map(JournalStatus.failed) ?? .healthy
  }

  /// The number of effect tasks still running.
  public var runningEffectCount: Int { effects.count }

  /// Waits until no effect task is running, including those started meanwhile.
  public func waitForEffects() async { await effects.waitUntilIdle() }

  /// Cancels every running effect task.
  public func cancelAllEffects() { effects.cancelAll() }

  // MARK: Sending

  /// Dispatches `action`: records it as an event, reduces it, and starts its effects.
  ///
  /// Synchronous and callable from any thread. When it returns, ``state`` reflects `action` and every
  /// action sent synchronously because of it.
  ///
  /// - Parameters:
  ///   - action: what happened.
  ///   - origin: who sent it: a person (the default, optionally named) or the system.
  @inlinable
  public func send(_ action: Action, from origin: Origin = .user) {
    dispatch(
      PendingEvent(
        payload: .action(action), actor: origin.actor, source: origin.source,
        correlationID: origin.correlationID))
  }

  /// Sends an action on behalf of an effect caused by event `cause`.
  func sendFromEffect(_ action: Action, cause: UInt64, metadata: EventMetadata) {
    dispatch(
      PendingEvent(
        payload: .action(action), actor: metadata.actor, source: .effect(cause: cause),
        correlationID: metadata.correlationID))
  }

  @inlinable
  func dispatch(_ pending: PendingEvent<State, Action>) {
    if gate.isHeldByCurrentThread {
      gate.enqueue(pending)
      return
    }
    gate.enter()
    process(pending)
    while let next = gate.dequeue() { process(next) }
    gate.leave()
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

  @inlinable
  func process(_ pending: PendingEvent<State, Action>) {
    guard case .action(let action) = pending.payload else {
      processCommand(pending)
      return
    }
    let notifiesObservers =
      isObserved.load(ordering: .relaxed) && isObserved.exchange(false, ordering: .acquiringAndReleasing)
    if notifiesObservers { registrar.willSet(self, keyPath: \.state) }

    let outcome = hub.core.withLock { core -> Outcome? in
      let sequence = core.sequence + 1
      let (timestamp, journalError) = record(pending, sequence: sequence)
      let effect: Effect<Action>
      if let undoPolicy {
        effect = Self.applyUndoable(
          action, policy: undoPolicy(action), sequence: sequence, timestamp: timestamp, state: &core.state,
          history: &core.history, reducer: reducer)
      } else {
        effect = reducer(&core.state, action)
      }
      if sequence == core.nextCheckpoint { Self.offerCheckpoint(&core, at: sequence) }
      return publish(&core, sequence: sequence, pending: pending, effect: effect, journalError: journalError)
    }

    if notifiesObservers { registrar.didSet(self, keyPath: \.state) }
    if let outcome { finish(outcome) }
  }

  /// The metadata event `sequence` is recorded with.
  @inlinable
  func metadata(of pending: PendingEvent<State, Action>, sequence: UInt64) -> EventMetadata {
    EventMetadata(
      actor: pending.actor ?? defaultActor, source: pending.source,
      correlationID: pending.correlationID ?? CorrelationID(rawValue: sequence))
  }

  /// Stamps and journals event `sequence`. Runs under the state lock.
  ///
  /// The metadata is moved into the event, not returned: it is rebuilt from `pending` in the rare case
  /// that an effect needs it, which keeps string copies off the common path.
  @inlinable
  func record(_ pending: PendingEvent<State, Action>, sequence: UInt64)
    -> (timestamp: Date, journalError: (any Error)?)
  {
    let metadata = metadata(of: pending, sequence: sequence)
    let timestamp = clock.timestamp()
    var journalError: (any Error)?
    if journalHealthy.load(ordering: .relaxed) {
      do {
        let event = Event(
          sequence: sequence, timestamp: timestamp, metadata: metadata, payload: pending.payload)
        if let inMemoryJournal {
          try inMemoryJournal.append(moving: consume event)
        } else {
          try journal.append(event)
        }
      } catch {
        journalError = refuse(sequence, because: error)
      }
    }
    return (timestamp, journalError)
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
      // wake-up (StateHub.handOutInterval) hands them the newest, so a burst copies the state rarely.
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
  func finish(_ outcome: Outcome) {
    if let snapshot = outcome.snapshot { StateHub.wakeFromSend(outcome.woken, with: snapshot) }
    if let wakeAt = outcome.wakeAt { hub.scheduleWake(at: wakeAt) }
    if let error = outcome.journalError { recordJournalFailure(error, sequence: outcome.sequence) }
    if !outcome.effect.isNone { start(outcome.effect, cause: outcome.sequence, metadata: outcome.metadata) }
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

  /// Starts `effect`'s work. Runs on the thread that holds the gate.
  @usableFromInline
  func start(_ effect: Effect<Action>, cause: UInt64, metadata: EventMetadata) {
    for item in effect.items {
      switch item {
      case .send(let action):
        gate.enqueue(
          PendingEvent(
            payload: .action(action), actor: metadata.actor, source: .effect(cause: cause),
            correlationID: metadata.correlationID))
      case .run(let run):
        let send = Send<Action> { [weak self] action in
          self?.sendFromEffect(action, cause: cause, metadata: metadata)
        }
        let report = diagnosticsHandler
        let dependencies = dependencies
        effects.start(priority: run.priority, ids: run.cancellationIDs, cancelInFlight: run.cancelInFlight) {
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
      case .cancel(let id):
        effects.cancel(id: id)
      case .diagnostic(let diagnostic):
        diagnosticsHandler(diagnostic)
      }
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
}

/// Whether a store's journal is still taking its events.
public enum JournalStatus: Sendable, CustomStringConvertible {
  /// Every event so far was journaled.
  case healthy
  /// The journal refused an event with this error; later events live in memory only.
  case failed(any Error)

  /// Whether the journal refused an event.
  public var isFailed: Bool {
    if case .failed = self { return true }
    return false
  }

  public var description: String {
    switch self {
    case .healthy: "healthy"
    case .failed(let error): "failed: \(error)"
    }
  }
}

extension Store: Observable {}
