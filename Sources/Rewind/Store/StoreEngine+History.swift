import Foundation

// Recovery, undo, redo and time travel inside the engine. Every operation that changes state is an event in
// the log, dispatched through the same gate as actions, so history is complete and replay stays exact.

extension StoreEngine {
  // MARK: Recovery

  /// Applies every event in `journal` after `sequence` to `state` and `history`, checking that numbers
  /// have no gaps. The reducer's draws come from each event's recorded ones (`draws` replays them);
  /// those an event lacks go to `unrecorded`.
  /// - Returns: the sequence number of the last event applied.
  @inlinable
  static func recover(
    from sequence: UInt64, into state: inout State, history: inout StoreHistory<State>,
    journal: some Journal<Action>, reducer: @escaping @Sendable (inout State, Action) -> Effect<Action>,
    undoPolicy: (@Sendable (Action) -> UndoPolicy)?, draws: DrawSession, unrecorded: UnrecordedDrawReporter
  ) throws -> UInt64 {
    var last = sequence
    try journal.forEachEvent(from: sequence + 1) { event in
      guard event.sequence == last + 1 else {
        throw JournalError.sequenceGap(expected: last + 1, received: event.sequence)
      }
      switch event.payload {
      case .action(let action):
        draws.beginReplaying(event)
        draws.run {
          if let undoPolicy {
            _ = Self.applyUndoable(
              action, policy: undoPolicy(action), sequence: event.sequence, timestamp: event.timestamp,
              state: &state, history: &history, reducer: reducer)
          } else {
            _ = reducer(&state, action)
          }
        }
        if let lacking = draws.takeUnrecorded() { unrecorded.report(lacking) }
      case .command(let command):
        try Self.recoverCommand(
          command, sequence: event.sequence, timestamp: event.timestamp, state: &state, history: &history,
          journal: journal, reducer: reducer, dependencies: draws.base, unrecorded: unrecorded)
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
    reducer: @escaping @Sendable (inout State, Action) -> Effect<Action>, dependencies: DependencyValues,
    unrecorded: UnrecordedDrawReporter
  ) throws {
    let replayer = Replayer(
      reduce: reducer, journal: journal, checkpoints: history.checkpoints, dependencies: dependencies,
      unrecorded: unrecorded)
    try Self.apply(
      command, sequence: sequence, timestamp: timestamp, state: &state, history: &history,
      resolve: { try replayer.state(at: $0) })
  }

  // MARK: History

  /// Reads the undo history, registering the read: its observers are notified after every event.
  func readHistory<T>(_ body: (StoreHistory<State>) -> T) -> T {
    let (path, _) = observation.read(
      .history, alias: nil, in: observation.root,
      make: { owner in TypedPathObservation<State>(owner: owner) { _, _ in true } }, resolve: { $0 },
      value: { _ in () })
    path.access()
    let history = hub.core.withLock { $0.history }
    return body(history)
  }

  /// A replayer over the journal from the kept checkpoints, and the newest sequence number.
  func makeReplayer() -> (Replayer<State, Action>, newest: UInt64) {
    let (checkpoints, newest) = hub.core.withLock { ($0.history.checkpoints, $0.sequence) }
    let replayer = Replayer(
      reduce: reducer, journal: journal, checkpoints: checkpoints, dependencies: dependencies,
      unrecorded: unrecordedDraws)
    return (replayer, newest)
  }

  /// Reduces `action` and records it in the undo history.
  @inlinable
  static func applyUndoable(
    _ action: Action, policy: UndoPolicy, sequence: UInt64, timestamp: Date, state: inout State,
    history: inout StoreHistory<State>, reducer: (inout State, Action) -> Effect<Action>
  ) -> Effect<Action> {
    let before: State? = history.undo.needsStateBefore(policy, at: timestamp) ? state : nil
    let effect = reducer(&state, action)
    history.undo.recordAction(
      policy: policy, sequence: sequence, timestamp: timestamp, stateBefore: before, stateAfter: { state })
    return effect
  }

  /// Applies a recorded history command. `resolve` rebuilds the state as of a sequence number, for a jump
  /// whose target the undo stacks do not hold (a log written under another undo configuration).
  @inlinable
  static func apply(
    _ command: HistoryCommand, sequence: UInt64, timestamp: Date, state: inout State,
    history: inout StoreHistory<State>, resolve: (UInt64) throws -> State
  ) throws {
    switch command {
    case .undo(let target):
      if let step = history.undo.undo(current: state, sequence: sequence), step.before == target {
        state = step.stateBefore
      } else {
        state = try resolve(target)
      }
    case .redo(let target):
      if let entry = history.undo.redo(), entry.after == target {
        state = entry.stateAfter
      } else {
        state = try resolve(target)
      }
    case .restore(let target):
      let restored = try resolve(target)
      history.undo.recordRestore(current: state, sequence: sequence, timestamp: timestamp, target: target)
      state = restored
    case .beginTransaction(let name):
      history.undo.beginTransaction(name: name, current: state, sequence: sequence)
    case .endTransaction:
      history.undo.endTransaction(timestamp: timestamp)
    }
    if let target = command.target {
      history.branches[history.branches.count - 1].last = sequence - 1
      history.startBranch(at: sequence, from: target)
    }
  }

  /// The command to record for `pending`, with the state a jump brings back; `nil` when it does nothing.
  @inlinable
  static func plan(
    _ pending: PendingEvent<State, Action>, restored: State?, core: borrowing StateHub<State>.Core
  ) -> (command: HistoryCommand, state: State?)? {
    guard case .command(let command) = pending.payload else { return nil }
    let undo = core.history.undo
    switch command {
    case .undo:
      guard undo.canUndo, let step = undo.undoSteps.last else { return nil }
      return (.undo(to: step.before), step.stateBefore)
    case .redo:
      guard undo.canRedo, let entry = undo.redoEntries.last else { return nil }
      return (.redo(to: entry.after), entry.stateAfter)
    case .restore(let target):
      guard let restored else { return nil }
      return (.restore(to: target), restored)
    case .beginTransaction:
      return (command, nil)
    case .endTransaction:
      return undo.transaction == nil ? nil : (command, nil)
    }
  }

  // Specialized for the app's types, but kept out of `process`: inlined there it slowed every send.
  @inlinable @inline(never)
  func processCommand(_ pending: PendingEvent<State, Action>) -> Outcome? {
    var restored: State?
    if case .command(.restore(let target)) = pending.payload {
      restored = restoreTargets.withLock { $0.removeValue(forKey: target) }
    }
    let restoredState = restored
    guard let planned = hub.core.withLock({ Self.plan(pending, restored: restoredState, core: $0) }) else {
      if case .command(.endTransaction) = pending.payload {
        reportDiagnostic(
          Diagnostic(kind: .historyCommandIgnored, message: "endTransaction() without an open transaction"))
      }
      return nil
    }
    var recorded = pending
    recorded.payload = .command(planned.command)
    let outcome = hub.core.withLock { core -> Outcome? in
      let sequence = core.sequence + 1
      let (timestamp, journalError) = record(recorded, sequence: sequence)
      // The plan already holds any state a jump brings back, so resolving cannot fail here.
      let resolved = planned.state ?? core.state
      try? Self.apply(
        planned.command, sequence: sequence, timestamp: timestamp, state: &core.state,
        history: &core.history, resolve: { _ in resolved })
      if sequence == core.nextCheckpoint { Self.offerCheckpoint(&core, at: sequence) }
      return publish(&core, sequence: sequence, pending: recorded, effect: .none, journalError: journalError)
    }
    return outcome
  }
}
