import Rewind
import Synchronization
import Testing

/// A store for tests that makes the test account for everything: every state change, every action an
/// effect sends, every effect still running, and every diagnostic.
///
/// ```swift
/// @Test func counting() async {
///   let store = TestStore(initialState: Counter.State(), reducer: Counter())
///   store.send(.increment) { $0.count = 1 }
///   await store.receive(.reachedOne) { $0.message = "one" }
///   await store.finish()
/// }
/// ```
///
/// A mismatch is recorded as a Swift Testing issue with a diff of the expected and actual state
/// (`−` expected, `+` actual).
public final class TestStore<State: Equatable & Sendable, Action: Sendable> {
  /// The clock that stamps events and that effects in the reducer may sleep on.
  public let clock: ManualClock
  /// The store under test.
  public let store: Store<State, Action>
  /// How long ``receive(_:timeout:sourceLocation:assert:)`` and ``finish(timeout:sourceLocation:)`` wait
  /// for effects. A guard against a test that would hang, not a speed requirement.
  public var timeout: Duration = .seconds(2)

  /// The state as the test has asserted it so far.
  public private(set) var state: State

  private let journal: InMemoryJournal<Action>
  private let recorder: StateRecorder<State>
  private let diagnostics = DiagnosticInbox()
  private var eventsTaken: UInt64 = 0
  private var statesTaken = 0
  private var received: [Record] = []
  private var isFinished = false
  private let creationLocation: SourceLocation

  private struct Record {
    var event: Event<Action>
    var state: State
  }

  /// Creates a test store.
  ///
  /// - Parameters:
  ///   - initialState: the state before the first action.
  ///   - reducer: the reducer under test.
  ///   - clock: stamps events; advance it to wake effects that sleep on it.
  ///   - actor: recorded as the actor of the events.
  ///   - history: the undo policy, for tests of ``undo(sourceLocation:assert:)`` and ``redo(sourceLocation:assert:)``.
  ///   - sourceLocation: where a store released without `finish()` reports what it left unchecked (the
  ///     caller, by default).
  ///   - dependencies: overrides the test values that effects see. The store starts from each key's
  ///     `testValue`, with `DependencyValues.clock` set to `clock`, `DependencyValues.date` reading
  ///     `clock`, and `DependencyValues.uuid` counting up from zero. An effect that calls an unimplemented
  ///     dependency fails the test, naming it.
  public init<R: Reducer & Sendable>(
    initialState: State,
    reducer: R,
    clock: ManualClock = ManualClock(),
    actor: String? = nil,
    history: HistoryConfiguration<Action> = .standard,
    sourceLocation: SourceLocation = #_sourceLocation,
    dependencies: (inout DependencyValues) -> Void = { _ in }
  ) where R.State == State, R.Action == Action {
    let journal = InMemoryJournal<Action>()
    let recorder = StateRecorder<State>()
    let diagnostics = self.diagnostics
    self.clock = clock
    self.journal = journal
    self.recorder = recorder
    self.state = initialState
    self.creationLocation = sourceLocation
    // A fresh in-memory journal is empty, so the replay in this initializer cannot fail.
    do {
      self.store = try Store(
        initialState: initialState, reducer: RecordingReducer(base: reducer, recorder: recorder),
        journal: journal, clock: clock, actor: actor, history: history,
        diagnostics: { diagnostic in
          // Fails the test now, from the effect that called it, rather than at the next assertion.
          if diagnostic.kind == .dependencyUnimplemented {
            Issue.record(Comment(rawValue: diagnostic.message), sourceLocation: sourceLocation)
          } else {
            diagnostics.append(diagnostic)
          }
        },
        dependencies: { values in
          values.context = .test
          values.clock = clock
          values.date = DateGenerator { clock.timestamp() }
          values.uuid = .incrementing
          dependencies(&values)
        })
    } catch {
      preconditionFailure("TestStore: an empty in-memory journal failed to replay: \(error)")
    }
  }

  deinit {
    guard !isFinished else { return }
    takeNewRecords()
    var problems: [String] = []
    if !received.isEmpty { problems.append(unhandledReceivedMessage()) }
    if store.runningEffectCount > 0 { problems.append("\(store.runningEffectCount) effect(s) still running") }
    if !problems.isEmpty {
      Issue.record(
        Comment(rawValue: "TestStore released without finish(): " + problems.joined(separator: "; ")),
        sourceLocation: creationLocation)
    }
    store.cancelAllEffects()
  }

  /// Sends `action` and asserts the state change: `assert` turns the state before into the expected state
  /// after; omit it when the action must change nothing.
  ///
  /// Actions that effects sent earlier must have been received first.
  public func send(
    _ action: Action,
    from origin: Origin = .user,
    sourceLocation: SourceLocation = #_sourceLocation,
    assert update: ((inout State) throws -> Void)? = nil
  ) {
    prepareForOwnEvent(what: "sending \(action)", sourceLocation)
    store.send(action, from: origin)
    assertOwnEvent(what: "sending \(action)", sourceLocation, update)
  }

  /// Undoes the newest step through the store and asserts the state change.
  public func undo(
    sourceLocation: SourceLocation = #_sourceLocation, assert update: ((inout State) throws -> Void)? = nil
  ) {
    prepareForOwnEvent(what: "undo", sourceLocation)
    store.undo()
    assertOwnEvent(what: "undo", sourceLocation, update)
  }

  /// Redoes the newest undone step through the store and asserts the state change.
  public func redo(
    sourceLocation: SourceLocation = #_sourceLocation, assert update: ((inout State) throws -> Void)? = nil
  ) {
    prepareForOwnEvent(what: "redo", sourceLocation)
    store.redo()
    assertOwnEvent(what: "redo", sourceLocation, update)
  }

  private func prepareForOwnEvent(what: String, _ sourceLocation: SourceLocation) {
    reportUnexpectedDiagnostics(sourceLocation)
    takeNewRecords()
    if !received.isEmpty {
      fail("Must handle received actions before \(what): \(unhandledReceivedMessage())", sourceLocation)
      state = received.last?.state ?? state
      received.removeAll()
    }
  }

  private func assertOwnEvent(
    what: String, _ sourceLocation: SourceLocation, _ update: ((inout State) throws -> Void)?
  ) {
    takeNewRecords()
    guard let ownIndex = received.firstIndex(where: { !$0.event.metadata.source.isEffect }) else {
      fail("The store recorded no event for \(what)", sourceLocation)
      return
    }
    let before = ownIndex == 0 ? state : received[ownIndex - 1].state
    let own = received.remove(at: ownIndex)
    check(update, from: before, against: own.state, what: "after \(what)", sourceLocation)
    state = own.state
  }

  /// Waits for the next action an effect sent, asserts it is `expected`, and asserts the state change.
  public func receive(
    _ expected: Action,
    timeout: Duration? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    assert update: ((inout State) throws -> Void)? = nil
  ) async where Action: Equatable {
    await receive(
      description: "\(expected)", matching: { $0 == expected }, timeout: timeout,
      sourceLocation: sourceLocation, assert: update)
  }

  /// Waits for the next action an effect sent, asserts it satisfies `matches`, and asserts the state change.
  public func receive(
    where matches: (Action) -> Bool,
    timeout: Duration? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    assert update: ((inout State) throws -> Void)? = nil
  ) async {
    await receive(
      description: "an action matching the predicate", matching: matches, timeout: timeout,
      sourceLocation: sourceLocation, assert: update)
  }

  private func receive(
    description: String, matching matches: (Action) -> Bool, timeout: Duration?,
    sourceLocation: SourceLocation, assert update: ((inout State) throws -> Void)?
  ) async {
    reportUnexpectedDiagnostics(sourceLocation)
    let deadline = ContinuousClock.now.advanced(by: timeout ?? self.timeout)
    takeNewRecords()
    while received.isEmpty, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(1))
      takeNewRecords()
    }
    guard !received.isEmpty else {
      fail("Expected to receive \(description), but no action arrived", sourceLocation)
      return
    }
    let record = received.removeFirst()
    let payload = record.event.action.map { "\($0)" } ?? "\(record.event.payload)"
    if record.event.action.map(matches) != true {
      fail(
        "Received an unexpected action:\n\(stateDiff(expected: description, actual: payload))", sourceLocation
      )
    }
    check(update, from: state, against: record.state, what: "after receiving \(payload)", sourceLocation)
    state = record.state
  }

  /// Asserts that the next unclaimed diagnostic is of `kind`, and claims it.
  public func expectDiagnostic(_ kind: Diagnostic.Kind, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let next = diagnostics.takeFirst() else {
      fail("Expected a \(kind.rawValue) diagnostic, but none was reported", sourceLocation)
      return
    }
    if next.kind != kind { fail("Expected a \(kind.rawValue) diagnostic, got: \(next)", sourceLocation) }
  }

  /// Accepts every action received so far without asserting it.
  public func skipReceivedActions() {
    takeNewRecords()
    state = received.last?.state ?? state
    received.removeAll()
  }

  /// Ends the test: waits for effects to finish, then fails for any still running, any received action
  /// not asserted, and any diagnostic not expected.
  public func finish(timeout: Duration? = nil, sourceLocation: SourceLocation = #_sourceLocation) async {
    isFinished = true
    let deadline = ContinuousClock.now.advanced(by: timeout ?? self.timeout)
    while store.runningEffectCount > 0, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(1))
    }
    let running = store.runningEffectCount
    if running > 0 {
      fail(
        "\(running) effect(s) still running at the end of the test; cancel them, or advance the clock "
          + "so they complete", sourceLocation)
      store.cancelAllEffects()
    }
    takeNewRecords()
    if !received.isEmpty { fail(unhandledReceivedMessage(), sourceLocation) }
    reportUnexpectedDiagnostics(sourceLocation)
  }

  // MARK: Internals

  /// Pairs each new event with the state after it: the recorded state for an action, the rebuilt state
  /// for a history command (which does not run the reducer).
  private func takeNewRecords() {
    let newest = journal.lastSequence
    guard newest > eventsTaken, let events = try? journal.events(in: (eventsTaken + 1)...newest) else {
      return
    }
    let states = recorder.states(from: statesTaken)
    var nextState = 0
    for event in events {
      let state: State
      if event.action != nil {
        // The reducer records its state just after the journal takes the event; stop at one not yet seen.
        guard nextState < states.count else { break }
        state = states[nextState]
        nextState += 1
      } else {
        guard let rebuilt = try? store.state(at: event.sequence) else { break }
        state = rebuilt
      }
      received.append(Record(event: event, state: state))
      eventsTaken = event.sequence
    }
    statesTaken += nextState
  }

  private func check(
    _ update: ((inout State) throws -> Void)?, from before: State, against actual: State, what: String,
    _ sourceLocation: SourceLocation
  ) {
    var expected = before
    do {
      try update?(&expected)
    } catch {
      fail("The assertion closure threw \(error)", sourceLocation)
      return
    }
    if expected != actual {
      fail(
        "State \(what) differs from the expected state (− expected, + actual):\n"
          + stateDiff(expected: expected, actual: actual), sourceLocation)
    }
  }

  private func unhandledReceivedMessage() -> String {
    "\(received.count) received action(s) not asserted: "
      + received.map { "#\($0.event.sequence) \($0.event.payload)" }.joined(separator: ", ")
  }

  private func reportUnexpectedDiagnostics(_ sourceLocation: SourceLocation) {
    for diagnostic in diagnostics.takeAll() {
      fail(
        "Unexpected diagnostic: \(diagnostic). Claim it with expectDiagnostic(_:) if intended.",
        sourceLocation)
    }
  }

  private func fail(_ message: String, _ sourceLocation: SourceLocation) {
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
  }
}

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

/// Keeps a copy of the state after every reduce, in order.
final class StateRecorder<State: Sendable>: Sendable {
  private let recorded = Locked<[State]>([])

  func append(_ state: State) { recorded.withLock { $0.append(state) } }

  func states(from index: Int) -> [State] {
    recorded.withLock { Array($0.dropFirst(index)) }
  }
}

/// Runs a reducer and records the state after each action.
struct RecordingReducer<Base: Reducer & Sendable>: Reducer, Sendable where Base.State: Sendable {
  let base: Base
  let recorder: StateRecorder<Base.State>

  func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let effect = base.reduce(into: &state, action: action)
    recorder.append(state)
    return effect
  }
}
