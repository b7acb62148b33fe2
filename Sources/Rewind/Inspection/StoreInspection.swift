/// What an inspector needs from a store, and nothing network-facing: reading the past from the log,
/// following new events, showing views another state, and holding the app's sends back while it does.
///
/// A value over the store's engine; ``Store/inspection`` makes one. None of it costs a send anything while
/// unused, beyond one relaxed load of the hold flag.
package struct StoreInspection<State: Sendable, Action: Sendable>: Sendable {
  let engine: StoreEngine<State, Action>

  // MARK: Reading

  /// The sequence number of the newest event.
  package var newest: UInt64 { engine.hub.published.load(ordering: .acquiring) }

  /// The journal's events in `range`.
  package func events(in range: ClosedRange<UInt64>) throws -> [Event<Action>] {
    try engine.journal.events(in: range)
  }

  /// The first sequence number whose state can be rebuilt: 0, or the snapshot the store was opened on
  /// when the log's older events are out of reach.
  package var firstReachable: UInt64 {
    engine.hub.core.withLock { core in
      core.history.checkpoints.genesis == nil ? core.history.checkpoints.origin.sequence : 0
    }
  }

  /// The state as of event `sequence` had the events in `skipping` not happened.
  /// - Throws: ``HistoryError`` when it cannot be rebuilt.
  package func state(at sequence: UInt64, skipping: Set<UInt64> = []) throws -> State {
    let (replayer, newest) = engine.makeReplayer()
    guard sequence <= newest else { throw HistoryError.afterNewest(requested: sequence, newest: newest) }
    return try replayer.state(at: sequence, skipping: skipping)
  }

  /// Applies `event` to `state` as replay does: an action through the reducer (its effect is dropped), a
  /// jump by rebuilding its target's state (without the events in `skipping`).
  /// - Throws: ``HistoryError`` when a jump's target cannot be rebuilt.
  package func apply(_ event: Event<Action>, to state: inout State, skipping: Set<UInt64> = []) throws {
    switch event.payload {
    case .action(let action):
      _ = engine.reducer(&state, action)
    case .command(let command):
      if let target = command.target { state = try self.state(at: target, skipping: skipping) }
    }
  }

  // MARK: Showing

  /// Shows views `state` as of event `sequence` instead of the live state; they are told of the paths
  /// that differ, as after a send.
  package func show(_ state: State, at sequence: UInt64) {
    engine.observation.show(StateHub.Snapshot(state: state, sequence: sequence))
  }

  /// Shows views the live state again.
  package func showLive() { engine.observation.show(nil) }

  /// The sequence number of the state views are shown, when it is not the live one.
  package var shownSequence: UInt64? { engine.observation.shownSnapshot?.sequence }

  // MARK: Holding sends

  /// Starts holding the app's sends (see ``HeldSends``).
  /// - Returns: the sequence number of the last event applied before the hold.
  @discardableResult
  package func holdSends() -> UInt64 { engine.holdSends() }

  /// Shows the live state and applies the held sends in order. Returns how many there were.
  @discardableResult
  package func releaseHeldSends() -> Int { engine.releaseHeldSends() }

  /// Whether sends are held.
  package var isHoldingSends: Bool { engine.isHoldingSends.load(ordering: .relaxed) }

  /// The held sends.
  package var held: HeldSends<State, Action> { engine.heldSends }
}

extension Store {
  /// The hooks an inspector uses (module `RewindInspector`).
  package var inspection: StoreInspection<State, Action> { StoreInspection(engine: engine) }
}
