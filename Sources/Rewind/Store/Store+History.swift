import Foundation

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
  public var canUndo: Bool { engine.readHistory { $0.undo.canUndo } }

  /// Whether ``redo(from:)`` would bring back a step.
  public var canRedo: Bool { engine.readHistory { $0.undo.canRedo } }

  /// The name of the step ``undo(from:)`` would take back, for a menu ("Undo Archive"); `nil` when unnamed
  /// or when there is none.
  public var undoStepName: String? {
    engine.readHistory { $0.undo.canUndo ? $0.undo.undoSteps.last?.name : nil }
  }

  /// The name of the step ``redo(from:)`` would bring back.
  public var redoStepName: String? {
    engine.readHistory { $0.undo.canRedo ? $0.undo.redoEntries.last?.step.name : nil }
  }

  /// The number of steps that can be undone.
  public var undoStepCount: Int { engine.readHistory { $0.undo.canUndo ? $0.undo.undoSteps.count : 0 } }

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
  @discardableResult
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
    let (replayer, newest) = engine.makeReplayer()
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
    let (replayer, newest) = engine.makeReplayer()
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
    engine.restoreTargets.withLock { $0[sequence] = target }
    dispatch(
      PendingEvent(
        payload: .command(.restore(to: sequence)), actor: origin.actor, source: origin.source,
        correlationID: origin.correlationID))
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
