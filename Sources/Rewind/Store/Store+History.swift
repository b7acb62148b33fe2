import Foundation
import Observation
import Synchronization

// Undo, redo, transactions and time travel. Every operation here that changes state is an event in the
// log, dispatched through the same gate as actions, so history is complete and replay stays exact.

extension Store {
  // MARK: Undo and redo

  /// Takes back the newest undo step: the state becomes what it was before the step. Recorded as an event.
  ///
  /// Does nothing when there is nothing to undo or a transaction is open. Like `send`, it is queued when
  /// called during a send on the same thread.
  public func undo(from origin: Origin = .user) {
    dispatch(
      PendingEvent(
        payload: .command(.undo(to: 0)), actor: origin.actor, source: origin.source,
        correlationID: origin.correlationID))
  }

  /// Brings back the step the newest undo took back. Recorded as an event.
  ///
  /// Does nothing when there is nothing to redo. A new undoable action after an undo clears redo: it
  /// starts a new branch, and the old one stays in the log.
  public func redo(from origin: Origin = .user) {
    dispatch(
      PendingEvent(
        payload: .command(.redo(to: 0)), actor: origin.actor, source: origin.source,
        correlationID: origin.correlationID))
  }

  /// Whether ``undo(from:)`` would take back a step.
  public var canUndo: Bool { readHistory { $0.undo.canUndo } }

  /// Whether ``redo(from:)`` would bring back a step.
  public var canRedo: Bool { readHistory { $0.undo.canRedo } }

  /// The name of the step ``undo(from:)`` would take back, for a menu ("Undo Archive"); `nil` when unnamed
  /// or when there is none.
  public var undoStepName: String? { readHistory { $0.undo.canUndo ? $0.undo.undoSteps.last?.name : nil } }

  /// The name of the step ``redo(from:)`` would bring back.
  public var redoStepName: String? {
    readHistory { $0.undo.canRedo ? $0.undo.redoEntries.last?.step.name : nil }
  }

  /// The number of steps that can be undone.
  public var undoStepCount: Int { readHistory { $0.undo.canUndo ? $0.undo.undoSteps.count : 0 } }

  // MARK: Transactions

  /// Opens a transaction: the actions until ``endTransaction(from:)`` form one undo step named `name`
  /// (a gesture from began to ended, or several edits made as one). Transactions nest; the outermost names
  /// the step. Recorded as an event.
  public func beginTransaction(_ name: String, from origin: Origin = .user) {
    dispatch(
      PendingEvent(
        payload: .command(.beginTransaction(name: name)), actor: origin.actor, source: origin.source,
        correlationID: origin.correlationID))
  }

  /// Closes the innermost open transaction. Recorded as an event; reported as a diagnostic and not
  /// recorded when no transaction is open.
  public func endTransaction(from origin: Origin = .user) {
    dispatch(
      PendingEvent(
        payload: .command(.endTransaction), actor: origin.actor, source: origin.source,
        correlationID: origin.correlationID))
  }

  /// Runs `body`, whose sends form one undo step named `name`.
  public func transaction<Result>(_ name: String, from origin: Origin = .user, _ body: () throws -> Result)
    rethrows -> Result
  {
    beginTransaction(name, from: origin)
    defer { endTransaction(from: origin) }
    return try body()
  }

  // MARK: Time travel

  /// The state as of event `sequence`: after it was applied (0 is the initial state).
  ///
  /// Replays at most one checkpoint interval of events from the nearest kept state, reading them from the
  /// journal; the live store is not touched.
  /// - Throws: ``HistoryError`` for a sequence number after the newest event or before the store's history.
  public func state(at sequence: UInt64) throws -> State {
    let (replayer, newest) = makeReplayer()
    guard sequence <= newest else { throw HistoryError.afterNewest(requested: sequence, newest: newest) }
    return try replayer.state(at: sequence)
  }

  /// The events whose sequence numbers lie in `range`.
  public func events(in range: ClosedRange<UInt64>) throws -> [Event<Action>] {
    try journal.events(in: range)
  }

  /// What the state would be as of `sequence` (by default the newest) had the events in `skipped` not
  /// happened: Redux DevTools' toggle. The live store is not touched.
  public func whatIf(skipping skipped: Set<UInt64>, through sequence: UInt64? = nil) throws -> State {
    let (replayer, newest) = makeReplayer()
    let target = sequence ?? newest
    guard target <= newest else { throw HistoryError.afterNewest(requested: target, newest: newest) }
    return try replayer.state(at: target, skipping: skipped)
  }

  /// The states as of two sequence numbers and the events between them (those after `from`, up to `to`).
  public func difference(from: UInt64, to: UInt64) throws -> StateDifference<State, Action> {
    let lower = min(from, to)
    let upper = max(from, to)
    return StateDifference(
      from: from, to: to, old: try state(at: from), new: try state(at: to),
      events: upper > lower ? try journal.events(in: (lower + 1)...upper) : [])
  }

  /// The runs of events between jumps: the current branch last.
  public var branches: [HistoryBranch] {
    hub.core.withLock { core in
      var branches = core.history.branches
      branches[branches.count - 1].last = core.sequence
      return branches
    }
  }

  /// Makes the state as of `sequence` the live state, as a recorded event that can itself be undone.
  ///
  /// - Throws: ``HistoryError`` when that state cannot be rebuilt; nothing is recorded then.
  public func restore(to sequence: UInt64, from origin: Origin = .user) throws {
    let target = try state(at: sequence)
    restoreTargets.withLock { $0[sequence] = target }
    dispatch(
      PendingEvent(
        payload: .command(.restore(to: sequence)), actor: origin.actor, source: origin.source,
        correlationID: origin.correlationID))
  }

  // MARK: Internals

  private func readHistory<T>(_ body: (StoreHistory<State>) -> T) -> T {
    registrar.access(self, keyPath: \.state)
    isObserved.store(true, ordering: .relaxed)
    let history = hub.core.withLock { $0.history }
    return body(history)
  }

  private func makeReplayer() -> (Replayer<State, Action>, newest: UInt64) {
    let (checkpoints, newest) = hub.core.withLock { ($0.history.checkpoints, $0.sequence) }
    return (Replayer(reduce: reducer, journal: journal, checkpoints: checkpoints), newest)
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
  func processCommand(_ pending: PendingEvent<State, Action>) {
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
      return
    }
    let changesState = planned.command.target != nil
    let notifiesObservers = changesState && isObserved.exchange(false, ordering: .acquiringAndReleasing)
    if notifiesObservers { registrar.willSet(self, keyPath: \.state) }

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
    if notifiesObservers { registrar.didSet(self, keyPath: \.state) }
    if let outcome { finish(outcome) }
  }
}

/// Two states of a store's history and the events that lead from one to the other.
public struct StateDifference<State, Action> {
  /// The earlier sequence number asked for.
  public var from: UInt64
  /// The later sequence number asked for.
  public var to: UInt64
  /// The state as of `from`.
  public var old: State
  /// The state as of `to`.
  public var new: State
  /// The events after the lower and up to the higher sequence number.
  public var events: [Event<Action>]
}

extension StateDifference: Sendable where State: Sendable, Action: Sendable {}
