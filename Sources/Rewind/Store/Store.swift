import Foundation
import Observation
import Synchronization

/// The runtime of an app's state: actions in, events recorded, state out.
///
/// - `send` is synchronous and may be called from any thread; sends are serialized, and when `send`
///   returns the state reflects the action. A send made while the store is dispatching on the same thread
///   (from a synchronous effect or the diagnostics handler) is queued and processed, in order, before the
///   outer `send` returns. No effect or diagnostics handler runs while the state lock is held.
/// - Every accepted action becomes an ``Event`` in the ``journal``, numbered 1, 2, 3, … without gaps.
/// - Views read the state through key paths (``ScopedStore``), each tracked by itself with the Observation
///   framework and told on the main actor when it changes; ``states`` is an async sequence of the newest
///   state for other subscribers.
///
/// ```swift
/// let store = Store(initialState: Counter.State(), reducer: Counter())
/// store.send(.increment)
/// print(store.state.count)  // 1
/// ```
public final class Store<State: Sendable, Action: Sendable>: ScopedStore<State, Action>, @unchecked Sendable {
  // @unchecked: restates the base class's conformance; it adds no stored property.
  /// Everything the store runs on: its gate, state hub and history, journal and effects.
  ///
  /// Held once, as the store's ``ScopedStore/backing``: a `Store` is always made with `.root` (see
  /// ``init(engine:)``), so the other case cannot be met.
  @inlinable
  var engine: StoreEngine<State, Action> {
    switch backing {
    case .root(let engine): return engine
    case .scope: preconditionFailure("Store: a root store is backed by its engine")
    }
  }

  /// The events the store has accepted.
  public var journal: any Journal<Action> { engine.journal }

  /// Creates a store that keeps its events in memory.
  ///
  /// - Parameters:
  ///   - initialState: the state before the first event.
  ///   - reducer: evolves the state; it must be pure (see ``Reducer``).
  ///   - clock: stamps events; inject a fixed clock for deterministic tests.
  ///   - actor: recorded as the actor of events whose send names none.
  ///   - history: the undo policy and limit, and the checkpoints that bound time travel. Undo is off by
  ///     default.
  ///   - fingerprints: when the store records its state's fingerprint in the log (``Fingerprinting``;
  ///     off by default), for replays to compare with.
  ///   - diagnostics: told of ``Diagnostic``s, such as an action for a missing element. By default they
  ///     are printed to standard error.
  ///   - dependencies: overrides the live ``DependencyValues`` that effects see, and that the reducer
  ///     draws recorded values from (``DependencyValues/uuid``, ``DependencyValues/date``,
  ///     ``DependencyValues/random``).
  public convenience init(
    initialState: State,
    reducer: some Reducer<State, Action>,
    clock: some EventClock = .system,
    actor: String? = nil,
    history: HistoryConfiguration<Action> = .standard,
    fingerprints: Fingerprinting<State> = .off,
    diagnostics: @escaping @Sendable (Diagnostic) -> Void = Store.printDiagnostic,
    dependencies: (inout DependencyValues) -> Void = { _ in }
  ) {
    // An empty journal: recovery replays nothing and cannot fail.
    do {
      try self.init(
        origin: initialState, at: 0, reducer: reducer, journal: InMemoryJournal<Action>(), clock: clock,
        actor: actor, history: history, fingerprints: fingerprints, diagnostics: diagnostics,
        dependencies: dependencies)
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
  public convenience init(
    initialState: State,
    reducer: some Reducer<State, Action>,
    journal: some Journal<Action>,
    clock: some EventClock = .system,
    actor: String? = nil,
    history: HistoryConfiguration<Action> = .standard,
    fingerprints: Fingerprinting<State> = .off,
    diagnostics: @escaping @Sendable (Diagnostic) -> Void = Store.printDiagnostic,
    dependencies: (inout DependencyValues) -> Void = { _ in }
  ) throws {
    try self.init(
      origin: initialState, at: 0, reducer: reducer, journal: journal, clock: clock, actor: actor,
      history: history, fingerprints: fingerprints, diagnostics: diagnostics, dependencies: dependencies)
  }

  /// Creates a store whose history starts from `origin`, the state as of event `sequence` (0 for the
  /// initial state, or a snapshot's sequence number), and replays the journal's later events.
  ///
  /// With `genesis`, the state before the first event, ``state(at:)`` and ``restore(to:from:)`` still reach
  /// events before `sequence` by replaying the journal from it (when the journal still holds them).
  ///
  /// - Throws: ``JournalError`` or ``HistoryError`` as the public initializers do.
  ///
  /// Inlinable, with the replay loop, so that replay is specialized for the app's types where the store is
  /// opened: unspecialized, generic metadata lookups were a large part of each replayed event.
  @inlinable
  public convenience init(
    origin: State, at sequence: UInt64, reducer: some Reducer<State, Action>, journal: some Journal<Action>,
    clock: some EventClock,
    actor: String?, history: HistoryConfiguration<Action>, fingerprints: Fingerprinting<State> = .off,
    diagnostics: @escaping @Sendable (Diagnostic) -> Void,
    dependencies: (inout DependencyValues) -> Void = { _ in }, genesis: State? = nil
  ) throws {
    let reduce: @Sendable (inout State, Action) -> Effect<Action> = { reducer.reduce(into: &$0, action: $1) }
    var recovered = StoreHistory(
      origin: origin, sequence: sequence, genesis: genesis,
      undoLimit: history.undoPolicy == nil ? 0 : history.undoLimit,
      checkpointInterval: history.checkpointInterval, checkpointLimit: history.checkpointLimit)
    var state = origin
    var values = DependencyValues()
    dependencies(&values)
    // Replays draw what each event recorded; what an event lacks is reported once, here and later.
    let unrecorded = UnrecordedDrawReporter(diagnostics: diagnostics)
    let last = try StoreEngine.recover(
      from: sequence, into: &state, history: &recovered, journal: journal, reducer: reduce,
      undoPolicy: history.undoPolicy, draws: DrawSession(replaying: true, dependencies: values),
      unrecorded: unrecorded)
    self.init(
      engine: StoreEngine(
        recovered: state, sequence: last, history: recovered, reducer: reduce, journal: journal, clock: clock,
        actor: actor, undoPolicy: history.undoPolicy, diagnostics: diagnostics, dependencies: values,
        unrecordedDraws: unrecorded, fingerprints: fingerprints))
  }

  /// Creates a store over `engine`.
  @usableFromInline
  init(engine: StoreEngine<State, Action>) {
    let center = engine.observation
    super.init(
      backing: .root(engine),
      observation: RootedObservation(center: center, node: center.root, resolve: { $0 }, onDetach: nil))
  }

  /// The default diagnostics handler: one line on standard error.
  public static func printDiagnostic(_ diagnostic: Diagnostic) {
    FileHandle.standardError.write(Data("[Rewind] \(diagnostic)\n".utf8))
  }

  // MARK: Reading

  /// The sequence number of the last event applied to ``ScopedStore/state``; 0 before the first.
  public var sequence: UInt64 {
    engine.hub.core.withLock { $0.sequence }
  }

  /// Whether the journal refused an event. The store then keeps working in memory and stops appending.
  public var journalStatus: JournalStatus { engine.journalStatus }

  /// The number of effect tasks still running. A task the store cancelled leaves this count at once (see
  /// ``cancelledEffectsStillRunning``).
  public var runningEffectCount: Int { engine.effects.count }

  /// The number of effect tasks the store cancelled (by an ``Effect/cancel(id:)``, a `cancelInFlight`, the
  /// end of the child state they belonged to, or ``cancelAllEffects()``) that have not returned yet. They can
  /// no longer send, but one may still be finishing a send it made: a timer whose own action cancels it
  /// (an animation's finish cancelling its timer) is still processing what that send queued. A harness
  /// that waits for a store to settle (every effect asleep on its clock) waits for this to be 0 as well.
  public var cancelledEffectsStillRunning: Int { engine.effects.cancelledStillRunning }

  /// Waits until no effect task is running, including those started meanwhile.
  public func waitForEffects() async { await engine.effects.waitUntilIdle() }

  /// Cancels every running effect task.
  public func cancelAllEffects() { engine.effects.cancelAll() }

  // MARK: Engine parts used by the store's extensions

  /// The state, its sequence number and its subscribers.
  @usableFromInline var hub: StateHub<State> { engine.hub }

  /// Diffs shared by changeset subscribers of the same path.
  @usableFromInline var sharedDiffs: SharedDiffRegistry { engine.sharedDiffs }

  /// The running effect tasks.
  var effects: EffectRegistry { engine.effects }

  /// Queues `pending` behind the send in progress on this thread, or processes it now.
  @usableFromInline @discardableResult
  func dispatch(_ pending: PendingEvent<State, Action>) -> StoreTask { engine.dispatch(pending) }
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
