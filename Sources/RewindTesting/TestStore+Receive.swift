import Rewind

extension TestStore {
  /// Waits for the next action an effect sent, asserts it is `expected`, and asserts the state change.
  ///
  /// When not exhaustive, actions received before the first one equal to `expected` are skipped.
  ///
  /// The wait ends when the action is recorded, and fails at once when no effect is running that could
  /// send it; `timeout` (by default ``timeout``) bounds the real time spent waiting for an effect that
  /// runs but does not send.
  public func receive(
    _ expected: Action,
    timeout: Duration? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column,
    assert update: ((inout State) throws -> Void)? = nil
  ) async where Action: Equatable {
    await receive(
      description: "\(expected)", matching: { $0 == expected }, timeout: timeout,
      location: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column),
      assert: update)
  }

  /// Waits for the next action an effect sent, asserts it satisfies `matches`, and asserts the state change.
  public func receive(
    where matches: (Action) -> Bool,
    timeout: Duration? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column,
    assert update: ((inout State) throws -> Void)? = nil
  ) async {
    await receive(
      description: "an action matching the predicate", matching: matches, timeout: timeout,
      location: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column),
      assert: update)
  }

  /// Waits for the next action an effect sent, asserts it carries the child action `expected` at `path`,
  /// and asserts the state change.
  ///
  /// ```swift
  /// await store.receive(AppAction.rowsPath.appending(.element(id: 7)), .tick) {
  ///   $0.rows[id: 7]?.ticks = 1
  /// }
  /// ```
  public func receive<Child: Equatable>(
    _ path: ActionPath<Action, Child>,
    _ expected: Child,
    timeout: Duration? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column,
    assert update: ((inout State) throws -> Void)? = nil
  ) async {
    await receive(
      description: "\(expected) (through its action path)", matching: { path.extract($0) == expected },
      timeout: timeout,
      location: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column),
      assert: update)
  }

  /// Waits for the next action an effect sent, asserts it carries a child action at `path`, and asserts
  /// the state change.
  public func receive<Child>(
    _ path: ActionPath<Action, Child>,
    timeout: Duration? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column,
    assert update: ((inout State) throws -> Void)? = nil
  ) async {
    await receive(
      description: "an action of type \(Child.self) (through its action path)",
      matching: { path.extract($0) != nil }, timeout: timeout,
      location: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column),
      assert: update)
  }

  private func receive(
    description: String, matching matches: (Action) -> Bool, timeout: Duration?,
    location: TestLocation, assert update: ((inout State) throws -> Void)?
  ) async {
    reportUnexpectedDiagnostics(location)
    let deadline = ContinuousClock.now.advanced(by: timeout ?? self.timeout)
    var timedOut = false
    while true {
      // Read before looking at the records: an effect records its actions before it is gone, so when
      // none runs, every action that will ever arrive is already among them.
      let running = store.runningEffectCount
      let seen = recorder.count
      takeNewRecords()
      if let record = nextCandidate(matching: matches, location) {
        let payload = record.event.action.map { "\($0)" } ?? "\(record.event.payload)"
        if record.event.action.map(matches) != true {
          fail(
            "Received an unexpected action:\n\(stateDiff(expected: description, actual: payload))", location)
        }
        check(update, from: state, against: record.state, what: "after receiving \(payload)", location)
        state = record.state
        lastDraws = record.event.draws
        return
      }
      if running == 0 {
        fail("Expected to receive \(description), but no effect is running that could send it", location)
        return
      }
      if timedOut {
        let sleeping = clock.sleeperCount
        fail(
          "Expected to receive \(description), but none arrived within \(timeout ?? self.timeout) while "
            + "\(running) effect(s) ran"
            + (sleeping > 0 ? "; \(sleeping) task(s) sleep on the ManualClock: advance it first" : ""),
          location)
        return
      }
      let remaining = ContinuousClock.now.duration(to: deadline)
      // After the time is up, one more look at the records, then the failure above.
      timedOut = remaining <= .zero
      if !timedOut { timedOut = await waitForRecord(after: seen, timeout: remaining) == .timedOut }
    }
  }

  /// The record to check next: the oldest when exhaustive; when not, the oldest that `matches`, the
  /// ones before it skipped (and all of them skipped when none matches).
  private func nextCandidate(matching matches: (Action) -> Bool, _ location: TestLocation) -> Record? {
    if exhaustivity.isOn { return received.isEmpty ? nil : received.removeFirst() }
    guard let index = received.firstIndex(where: { $0.event.action.map(matches) == true }) else {
      skip(received, location)
      return nil
    }
    skip(Array(received[..<index]), location)
    return received.removeFirst()
  }

  /// Waits until a state past the first `seen` is recorded, no effect runs, or `timeout` passes.
  private func waitForRecord(after seen: Int, timeout: Duration) async -> Wake.Reason {
    let wake = Wake()
    let token = recorder.wake(wake, afterCount: seen)
    let reason = await wait(on: wake, timeout: timeout)
    recorder.cancelWake(token)
    return reason
  }

  /// Waits until no effect runs or `timeout` passes.
  func waitForIdle(timeout: Duration) async {
    guard store.runningEffectCount > 0 else { return }
    _ = await wait(on: Wake(), timeout: timeout)
  }

  /// Waits until `wake` fires: by its other sources, once no effect runs, or once `timeout` passes.
  private func wait(on wake: Wake, timeout: Duration) async -> Wake.Reason {
    let store = self.store
    let idle = Task {
      await store.waitForEffects()
      wake.fire(.idle)
    }
    let timer = Task {
      try? await Task.sleep(for: timeout)
      wake.fire(.timedOut)
    }
    let reason = await wake.wait()
    idle.cancel()
    timer.cancel()
    return reason
  }
}
