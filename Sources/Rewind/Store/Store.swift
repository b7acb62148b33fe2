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
  @usableFromInline let gate = DispatchGate<PendingAction<Action>>()
  let effects = EffectRegistry()
  @usableFromInline let registrar = ObservationRegistrar()
  /// Set when `state` is read, cleared when observers are told of a change: no observation work is done
  /// for sends nobody is watching.
  @usableFromInline let isObserved = Atomic<Bool>(false)
  let journalFailure = Mutex<(any Error)?>(nil)
  /// False once the journal refused an event: later events are not offered to it.
  @usableFromInline let journalHealthy = Atomic<Bool>(true)
  /// The journal, when it is the in-memory one: appended to through specialized code.
  @usableFromInline let inMemoryJournal: InMemoryJournal<Action>?

  @usableFromInline let reducer: @Sendable (inout State, Action) -> Effect<Action>
  @usableFromInline let clock: any EventClock
  @usableFromInline let defaultActor: String?
  private let diagnosticsHandler: @Sendable (Diagnostic) -> Void

  /// Creates a store that keeps its events in memory.
  ///
  /// - Parameters:
  ///   - initialState: the state before the first event.
  ///   - reducer: evolves the state; it must be pure (see ``Reducer``).
  ///   - clock: stamps events; inject a fixed clock for deterministic tests.
  ///   - actor: recorded as the actor of events whose send names none.
  ///   - diagnostics: told of ``Diagnostic``s, such as an action for a missing element. By default they
  ///     are printed to standard error.
  public convenience init<R: Reducer & Sendable>(
    initialState: State,
    reducer: R,
    clock: some EventClock = .system,
    actor: String? = nil,
    diagnostics: @escaping @Sendable (Diagnostic) -> Void = Store.printDiagnostic
  ) where R.State == State, R.Action == Action {
    self.init(
      state: initialState, sequence: 0, reducer: reducer, journal: InMemoryJournal<Action>(),
      clock: clock, actor: actor, diagnostics: diagnostics)
  }

  /// Creates a store on `journal`, recovering its state by replaying the events already in it.
  ///
  /// Effects are not run during replay: the actions they sent are events of their own in the journal.
  ///
  /// - Throws: ``JournalError`` when the journal cannot be read or its events are not numbered 1, 2, 3, …
  /// - Complexity: O(events in the journal).
  public convenience init<R: Reducer & Sendable>(
    initialState: State,
    reducer: R,
    journal: some Journal<Action>,
    clock: some EventClock = .system,
    actor: String? = nil,
    diagnostics: @escaping @Sendable (Diagnostic) -> Void = Store.printDiagnostic
  ) throws where R.State == State, R.Action == Action {
    var state = initialState
    let sequence = try Self.replay(journal, from: 1, into: &state, reducer: reducer)
    self.init(
      state: state, sequence: sequence, reducer: reducer, journal: journal, clock: clock, actor: actor,
      diagnostics: diagnostics)
  }

  init<R: Reducer & Sendable>(
    state: State, sequence: UInt64, reducer: R, journal: any Journal<Action>, clock: some EventClock,
    actor: String?, diagnostics: @escaping @Sendable (Diagnostic) -> Void
  ) where R.State == State, R.Action == Action {
    self.hub = StateHub(state: state, sequence: sequence)
    self.reducer = { reducer.reduce(into: &$0, action: $1) }
    self.journal = journal
    self.inMemoryJournal = journal as? InMemoryJournal<Action>
    self.clock = clock
    self.defaultActor = actor
    self.diagnosticsHandler = diagnostics
  }

  deinit {
    effects.cancelAll()
    hub.finish()
  }

  /// Applies every event in `journal` from `sequence` on to `state`, checking that numbers have no gaps.
  /// - Returns: the sequence number of the last event applied.
  static func replay<R: Reducer>(
    _ journal: some Journal<Action>, from sequence: UInt64, into state: inout State, reducer: R
  ) throws -> UInt64 where R.State == State, R.Action == Action {
    var last = sequence - 1
    try journal.forEachEvent(from: sequence) { event in
      guard event.sequence == last + 1 else {
        throw JournalError.sequenceGap(expected: last + 1, received: event.sequence)
      }
      _ = reducer.reduce(into: &state, action: event.action)
      last = event.sequence
    }
    return last
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
    (journalFailure.withLock { $0 } ?? journal.failure).map(JournalStatus.failed) ?? .healthy
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
      PendingAction(
        action: action, actor: origin.actor, source: origin.isSystem ? .system : .user,
        correlationID: origin.correlationID))
  }

  /// Sends an action on behalf of an effect caused by event `cause`.
  func sendFromEffect(_ action: Action, cause: UInt64, metadata: EventMetadata) {
    dispatch(
      PendingAction(
        action: action, actor: metadata.actor, source: .effect(cause: cause),
        correlationID: metadata.correlationID))
  }

  @inlinable
  func dispatch(_ pending: PendingAction<Action>) {
    if gate.isHeldByCurrentThread {
      gate.enqueue(pending)
      return
    }
    gate.enter()
    process(pending)
    while let next = gate.dequeue() { process(next) }
    gate.leave()
  }

  @usableFromInline
  struct Outcome: Sendable {
    @usableFromInline var effect: Effect<Action>
    @usableFromInline var metadata: EventMetadata
    @usableFromInline var sequence: UInt64
    @usableFromInline var woken: [StateHub<State>.Waiter]
    @usableFromInline var snapshot: StateHub<State>.Snapshot?
    @usableFromInline var journalError: (any Error)?

    @inlinable
    init(
      effect: Effect<Action>, metadata: EventMetadata, sequence: UInt64, woken: [StateHub<State>.Waiter],
      snapshot: StateHub<State>.Snapshot?, journalError: (any Error)?
    ) {
      (self.effect, self.metadata, self.sequence) = (effect, metadata, sequence)
      (self.woken, self.snapshot, self.journalError) = (woken, snapshot, journalError)
    }
  }

  @inlinable
  func process(_ pending: PendingAction<Action>) {
    let notifiesObservers = isObserved.load(ordering: .relaxed) && isObserved.exchange(false, ordering: .acquiringAndReleasing)
    if notifiesObservers { registrar.willSet(self, keyPath: \.state) }

    let (reducer, journal, clock, defaultActor, hub) = (self.reducer, self.journal, self.clock, self.defaultActor, self.hub)
    let inMemoryJournal = self.inMemoryJournal
    let journalHealthy = self.journalHealthy.load(ordering: .relaxed)
    let outcome = hub.core.withLock { core -> Outcome in
      let sequence = core.sequence + 1
      let metadata = EventMetadata(
        actor: pending.actor ?? defaultActor, source: pending.source,
        correlationID: pending.correlationID ?? CorrelationID(rawValue: sequence))
      var journalError: (any Error)?
      if journalHealthy {
        do {
          let event = Event(
            sequence: sequence, timestamp: clock.timestamp(), metadata: metadata, action: pending.action)
          if let inMemoryJournal { try inMemoryJournal.append(event) } else { try journal.append(event) }
        } catch {
          journalError = error
        }
      }
      let effect = reducer(&core.state, pending.action)
      core.sequence = sequence
      hub.published.store(sequence, ordering: .releasing)
      var woken: [StateHub<State>.Waiter] = []
      if !core.waiters.isEmpty { swap(&woken, &core.waiters) }
      return Outcome(
        effect: effect, metadata: metadata, sequence: sequence, woken: woken,
        snapshot: woken.isEmpty ? nil : StateHub.Snapshot(state: core.state, sequence: sequence),
        journalError: journalError)
    }

    if notifiesObservers { registrar.didSet(self, keyPath: \.state) }
    if !outcome.woken.isEmpty { StateHub.wake(outcome.woken, with: outcome.snapshot) }
    if let error = outcome.journalError { recordJournalFailure(error, sequence: outcome.sequence) }
    if !outcome.effect.isNone { start(outcome.effect, cause: outcome.sequence, metadata: outcome.metadata) }
  }

  @usableFromInline
  func recordJournalFailure(_ error: any Error, sequence: UInt64) {
    journalHealthy.store(false, ordering: .relaxed)
    journalFailure.withLock { $0 = $0 ?? error }
    diagnosticsHandler(
      Diagnostic(
        kind: .journalFailed,
        message: "event \(sequence) was not journaled (\(error)); the store goes on in memory"))
  }

  /// Starts `effect`'s work. Runs on the thread that holds the gate.
  @usableFromInline
  func start(_ effect: Effect<Action>, cause: UInt64, metadata: EventMetadata) {
    for item in effect.items {
      switch item {
      case .send(let action):
        gate.enqueue(
          PendingAction(
            action: action, actor: metadata.actor, source: .effect(cause: cause),
            correlationID: metadata.correlationID))
      case .run(let run):
        let send = Send<Action> { [weak self] action in
          self?.sendFromEffect(action, cause: cause, metadata: metadata)
        }
        let report = diagnosticsHandler
        effects.start(priority: run.priority, ids: run.cancellationIDs, cancelInFlight: run.cancelInFlight) {
          do {
            try await run.operation(send)
          } catch is CancellationError {
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

/// An action waiting for its turn, with the metadata it will be recorded with.
@usableFromInline
struct PendingAction<Action: Sendable>: Sendable {
  @usableFromInline var action: Action
  @usableFromInline var actor: String?
  @usableFromInline var source: EventSource
  @usableFromInline var correlationID: CorrelationID?

  @inlinable
  init(action: Action, actor: String?, source: EventSource, correlationID: CorrelationID?) {
    (self.action, self.actor, self.source, self.correlationID) = (action, actor, source, correlationID)
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
