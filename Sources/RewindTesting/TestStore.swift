import Rewind

/// A store for tests that makes the test account for what happens: state changes, actions that effects
/// send, effects still running, diagnostics.
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
/// By default it is exhaustive: every change must be asserted. Large features set ``exhaustivity`` to
/// ``Exhaustivity/off`` and assert only what each test names (see Docs/Testing.md).
///
/// Effects see test dependencies: each key's `testValue`, the store's ``clock`` as the clock, and the
/// overrides given to the initializer. Waiting for an action is driven by the store, not by polling the
/// wall clock: `receive` returns as soon as an effect's action is recorded, and fails at once when no
/// effect is left that could send one.
///
/// A failure is reported to the running test's framework: as a Swift Testing issue, or through
/// `XCTFail` in an XCTest test. State mismatches come with a diff (`−` expected, `+` actual).
public final class TestStore<State: Equatable & Sendable, Action: Sendable> {
  /// The clock that stamps events and that effects sleep on (it is their `DependencyValues.clock`).
  public let clock: ManualClock
  /// The store under test.
  public let store: Store<State, Action>
  /// How long `receive` and ``finish(timeout:fileID:filePath:line:column:)`` wait for effects in real
  /// time before failing: a guard for an effect that never sends, not a speed requirement. Waiting ends
  /// sooner when an action arrives, and at once when no effect is running.
  public var timeout: Duration = .seconds(10)
  /// How much the test must assert; exhaustive by default.
  public var exhaustivity: Exhaustivity = .on

  /// The state as the test has asserted it so far (when not exhaustive, the actual state after the last
  /// event the test handled or skipped).
  public internal(set) var state: State
  /// What a non-exhaustive test passed over, in order: state changes not asserted, received actions,
  /// effects cancelled. Kept only with ``Exhaustivity/off(showSkippedAssertions:)`` set to true.
  public internal(set) var skipped: [String] = []
  /// The values the reducer drew from recorded dependencies (UUIDs, dates, random numbers) while it
  /// applied the last action the test sent or received: what the event records, and every replay draws.
  ///
  /// ```swift
  /// store.send(.add("Milk")) { $0.todos = [Todo(id: UUID(0), title: "Milk", created: now)] }
  /// #expect(store.lastDraws == [.uuid(UUID(0)), .date(now)])
  /// ```
  public internal(set) var lastDraws: [RecordedDraw] = []

  let journal: InMemoryJournal<Action>
  let recorder: StateRecorder<State>
  let diagnostics = DiagnosticInbox()
  var eventsTaken: UInt64 = 0
  var statesTaken = 0
  var received: [Record] = []
  var isFinished = false
  let creationLocation: TestLocation

  struct Record {
    var event: Event<Action>
    var state: State
  }

  /// Creates a test store.
  ///
  /// - Parameters:
  ///   - initialState: the state before the first action.
  ///   - reducer: the reducer under test.
  ///   - clock: stamps events and is the effects' clock; advance it to wake effects that sleep on it.
  ///   - actor: recorded as the actor of the events.
  ///   - history: the undo policy, for tests of ``undo(fileID:filePath:line:column:assert:)`` and
  ///     ``redo(fileID:filePath:line:column:assert:)``.
  ///   - fileID: the file where a store released without `finish()` reports what it left unchecked, and
  ///     where a call to an unimplemented dependency is reported (the caller's, by default).
  ///   - filePath: the same file's path.
  ///   - line: the line of those reports.
  ///   - column: their column.
  ///   - dependencies: overrides the test values that effects see and that the reducer draws from. The
  ///     store starts from each key's `testValue`, with `DependencyValues.clock` set to `clock`,
  ///     `DependencyValues.date` reading `clock`, `DependencyValues.uuid` counting up from zero, and
  ///     `DependencyValues.random` drawing from `RandomGenerator.seeded(0)`. An effect that calls an
  ///     unimplemented dependency fails the test at once, naming it.
  public init(
    initialState: State,
    reducer: some Reducer<State, Action>,
    clock: ManualClock = ManualClock(),
    actor: String? = nil,
    history: HistoryConfiguration<Action> = .standard,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column,
    dependencies: (inout DependencyValues) -> Void = { _ in }
  ) {
    let journal = InMemoryJournal<Action>()
    let recorder = StateRecorder<State>()
    let diagnostics = self.diagnostics
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    self.clock = clock
    self.journal = journal
    self.recorder = recorder
    self.state = initialState
    self.creationLocation = location
    // A fresh in-memory journal is empty, so the replay in this initializer cannot fail.
    do {
      self.store = try Store(
        initialState: initialState, reducer: RecordingReducer(base: reducer, recorder: recorder),
        journal: journal, clock: clock, actor: actor, history: history,
        diagnostics: { diagnostic in
          // Fails the test now, from the effect that called it (whose task is the test's), rather than
          // at the next assertion.
          if diagnostic.kind == .dependencyUnimplemented {
            FailureReporter.fail(diagnostic.message, at: location)
          } else {
            diagnostics.append(diagnostic)
          }
        },
        dependencies: { values in
          values.context = .test
          values.clock = clock
          values.date = DateGenerator { clock.timestamp() }
          values.uuid = .incrementing
          values.random = .seeded(0)
          dependencies(&values)
        })
    } catch {
      preconditionFailure("TestStore: an empty in-memory journal failed to replay: \(error)")
    }
    let store = self.store
    // A task the store cancelled may still be finishing a send it made (a timer cancelled by its own
    // action): it is waited for too.
    clock.awaitTasks { [weak store] in
      guard let store else { return 0 }
      return store.runningEffectCount + store.cancelledEffectsStillRunning
    }
  }

  deinit {
    guard !isFinished else { return }
    takeNewRecords()
    if exhaustivity.isOn {
      var problems: [String] = []
      if !received.isEmpty { problems.append(unhandledReceivedMessage()) }
      let running = store.runningEffectCount
      if running > 0 { problems.append("\(running) effect(s) still running") }
      if !problems.isEmpty {
        fail("TestStore released without finish(): " + problems.joined(separator: "; "), creationLocation)
      }
    }
    store.cancelAllEffects()
  }

  /// Sends `action` and asserts the state change: `assert` turns the state before into the expected state
  /// after; omit it when the action must change nothing.
  ///
  /// When exhaustive, actions that effects sent earlier must have been received first. When not,
  /// they are skipped, and `assert` is checked against the actual state after the action: it need only
  /// set the fields the test cares about, to absolute values.
  public func send(
    _ action: Action,
    from origin: Origin = .user,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column,
    assert update: ((inout State) throws -> Void)? = nil
  ) {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    prepareForOwnEvent(what: "sending \(action)", location)
    store.send(action, from: origin)
    assertOwnEvent(what: "sending \(action)", location, update)
  }

  /// Undoes the newest step through the store and asserts the state change.
  public func undo(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column,
    assert update: ((inout State) throws -> Void)? = nil
  ) {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    prepareForOwnEvent(what: "undo", location)
    store.undo()
    assertOwnEvent(what: "undo", location, update)
  }

  /// Redoes the newest undone step through the store and asserts the state change.
  public func redo(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column,
    assert update: ((inout State) throws -> Void)? = nil
  ) {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    prepareForOwnEvent(what: "redo", location)
    store.redo()
    assertOwnEvent(what: "redo", location, update)
  }

  /// Asserts that the next unclaimed diagnostic is of `kind`, and claims it.
  public func expectDiagnostic(
    _ kind: Diagnostic.Kind,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let next = diagnostics.takeFirst() else {
      fail("Expected a \(kind.rawValue) diagnostic, but none was reported", location)
      return
    }
    if next.kind != kind { fail("Expected a \(kind.rawValue) diagnostic, got: \(next)", location) }
  }

  /// Accepts every action received so far without asserting it.
  public func skipReceivedActions() {
    takeNewRecords()
    state = received.last?.state ?? state
    received.removeAll()
  }

  /// Cancels the effects still running, so that ``finish(timeout:fileID:filePath:line:column:)`` does
  /// not wait for them or fail because of them: for a test that is done with a long-lived effect (a
  /// timer, a subscription) without stopping it through an action.
  public func skipInFlightEffects() {
    let running = store.runningEffectCount
    store.cancelAllEffects()
    if running > 0, exhaustivity.showsSkipped { skipped.append("\(running) effect(s) in flight cancelled") }
  }

  /// Ends the test: waits for effects to finish, then fails for any still running, any received action
  /// not asserted, and any diagnostic not expected.
  ///
  /// When not exhaustive, received actions are skipped and effects still running are cancelled instead.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    isFinished = true
    if exhaustivity.isOn {
      await waitForIdle(timeout: timeout ?? self.timeout)
      let running = store.runningEffectCount
      if running > 0 {
        fail(
          "\(running) effect(s) still running at the end of the test; cancel them (or call "
            + "skipInFlightEffects()), or advance the clock so they complete", location)
        store.cancelAllEffects()
      }
      takeNewRecords()
      if !received.isEmpty { fail(unhandledReceivedMessage(), location) }
    } else {
      skipInFlightEffects()
      takeNewRecords()
      skip(received, location)
    }
    reportUnexpectedDiagnostics(location)
  }

  // MARK: Internals

  func prepareForOwnEvent(what: String, _ location: TestLocation) {
    reportUnexpectedDiagnostics(location)
    takeNewRecords()
    guard !received.isEmpty else { return }
    if exhaustivity.isOn {
      fail("Must handle received actions before \(what): \(unhandledReceivedMessage())", location)
      state = received.last?.state ?? state
      received.removeAll()
    } else {
      skip(received, location)
    }
  }

  func assertOwnEvent(
    what: String, _ location: TestLocation, _ update: ((inout State) throws -> Void)?
  ) {
    takeNewRecords()
    guard let ownIndex = received.firstIndex(where: { !$0.event.metadata.source.isEffect }) else {
      fail("The store recorded no event for \(what)", location)
      return
    }
    let before = ownIndex == 0 ? state : received[ownIndex - 1].state
    let own = received.remove(at: ownIndex)
    check(update, from: before, against: own.state, what: "after \(what)", location)
    state = own.state
    lastDraws = own.event.draws
  }

  /// Skips `records` (received actions a non-exhaustive test does not assert), moving the state on.
  func skip(_ records: [Record], _ location: TestLocation) {
    guard let last = records.last else { return }
    if exhaustivity.showsSkipped {
      let list = records.map { "#\($0.event.sequence) \($0.event.payload)" }.joined(separator: ", ")
      skipped.append("\(records.count) received action(s) skipped: \(list)")
      FailureReporter.note("Skipped receiving \(list)", at: location)
    }
    state = last.state
    received.removeAll { record in records.contains { $0.event.sequence == record.event.sequence } }
  }

  /// Pairs each new event with the state after it: the recorded state for an action, the rebuilt state
  /// for a history command (which does not run the reducer).
  func takeNewRecords() {
    // The store's sequence number is read under its state lock, so an event whose state was recorded
    // (which happens during the reduce, before the event is journaled) is in the journal by now.
    let newest = min(store.sequence, journal.lastSequence)
    guard newest > eventsTaken, let events = try? journal.events(in: (eventsTaken + 1)...newest) else {
      return
    }
    let states = recorder.states(from: statesTaken)
    var nextState = 0
    for event in events {
      let state: State
      if event.action != nil {
        // The reducer records its state just before the journal takes the event; stop at one not seen.
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

  /// Checks `update` against the state `actual` after an event.
  ///
  /// Exhaustive: `update` applied to the state `before` must give `actual`. Not exhaustive: `update`
  /// applied to `actual` must leave it unchanged, so only the fields it sets are checked.
  func check(
    _ update: ((inout State) throws -> Void)?, from before: State, against actual: State, what: String,
    _ location: TestLocation
  ) {
    var expected = exhaustivity.isOn ? before : actual
    do {
      try update?(&expected)
    } catch {
      fail("The assertion closure threw \(error)", location)
      return
    }
    if expected != actual {
      fail(
        "State \(what) differs from the expected state (− expected, + actual):\n"
          + stateDiff(expected: expected, actual: actual), location)
      return
    }
    guard exhaustivity.showsSkipped else { return }
    var exhaustive = before
    try? update?(&exhaustive)
    if exhaustive != actual {
      let diff = stateDiff(expected: exhaustive, actual: actual)
      skipped.append("State changes \(what) not asserted:\n\(diff)")
      FailureReporter.note(
        "State changes \(what) not asserted (− unasserted, + actual):\n\(diff)", at: location)
    }
  }

  func unhandledReceivedMessage() -> String {
    "\(received.count) received action(s) not asserted: "
      + received.map { "#\($0.event.sequence) \($0.event.payload)" }.joined(separator: ", ")
  }

  func reportUnexpectedDiagnostics(_ location: TestLocation) {
    for diagnostic in diagnostics.takeAll() {
      fail("Unexpected diagnostic: \(diagnostic). Claim it with expectDiagnostic(_:) if intended.", location)
    }
  }

  func fail(_ message: String, _ location: TestLocation) {
    FailureReporter.fail(message, at: location)
  }
}
