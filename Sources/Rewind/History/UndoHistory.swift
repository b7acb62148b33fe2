import Foundation

/// The undo and redo stacks and the open transaction: a pure function of the events applied, so replaying
/// a log rebuilds exactly the same history.
///
/// A step keeps the state before it (copy-on-write: shared until the store mutates it). Undo brings that
/// state back; redo brings back the state the undo replaced.
@usableFromInline
struct UndoHistory<State> {
  @usableFromInline
  struct Step {
    @usableFromInline
    var name: String?
    /// The state as of `before`, the event before the step's first.
    @usableFromInline
    var stateBefore: State
    @usableFromInline
    var before: UInt64
    @usableFromInline
    var coalesceKey: String?
    @usableFromInline
    var lastTimestamp: Date

    @inlinable
    init(name: String?, stateBefore: State, before: UInt64, coalesceKey: String?, lastTimestamp: Date) {
      (self.name, self.stateBefore, self.before) = (name, stateBefore, before)
      (self.coalesceKey, self.lastTimestamp) = (coalesceKey, lastTimestamp)
    }
  }

  @usableFromInline
  struct RedoEntry {
    @usableFromInline
    var step: Step
    /// The state as of `after`: what the undo replaced.
    @usableFromInline
    var stateAfter: State
    @usableFromInline
    var after: UInt64

    @inlinable
    init(step: Step, stateAfter: State, after: UInt64) {
      (self.step, self.stateAfter, self.after) = (step, stateAfter, after)
    }
  }

  @usableFromInline
  struct Transaction {
    @usableFromInline
    var name: String
    @usableFromInline
    var depth: Int
    @usableFromInline
    var stateBefore: State
    @usableFromInline
    var before: UInt64
    @usableFromInline
    var hasUndoableAction: Bool

    @inlinable
    init(name: String, depth: Int, stateBefore: State, before: UInt64, hasUndoableAction: Bool) {
      (self.name, self.depth, self.stateBefore) = (name, depth, stateBefore)
      (self.before, self.hasUndoableAction) = (before, hasUndoableAction)
    }
  }

  @usableFromInline
  var undoSteps = UndoStack<Step>()
  @usableFromInline
  var redoEntries: [RedoEntry] = []
  @usableFromInline
  var transaction: Transaction?
  @usableFromInline
  let limit: Int

  @inlinable
  init(limit: Int) { self.limit = limit }

  @usableFromInline
  var canUndo: Bool { transaction == nil && !undoSteps.isEmpty }
  @usableFromInline
  var canRedo: Bool { transaction == nil && !redoEntries.isEmpty }

  /// Whether recording an action with `policy` will need the state before it.
  @inlinable
  func needsStateBefore(_ policy: UndoPolicy, at timestamp: Date) -> Bool {
    // In a transaction the state before was kept when it began.
    if limit == 0 || transaction != nil { return false }
    switch policy {
    case .ignore, .barrier: return false
    case .step: return true
    case .coalesce(let key, let window, _): return !canCoalesce(key: key, window: window, at: timestamp)
    }
  }

  @inlinable
  func canCoalesce(key: String, window: Duration, at timestamp: Date) -> Bool {
    guard redoEntries.isEmpty, let last = undoSteps.last, last.coalesceKey == key else { return false }
    let elapsed = timestamp.timeIntervalSince(last.lastTimestamp)
    let components = window.components
    return elapsed >= 0 && elapsed <= Double(components.seconds) + Double(components.attoseconds) / 1e18
  }

  /// Records action event `sequence`, whose policy is `policy`. `stateBefore` is the state as of
  /// `sequence - 1`, kept by the caller when ``needsStateBefore(_:at:)`` said so (it must be taken before
  /// the reducer runs).
  @inlinable
  mutating func recordAction(
    policy: UndoPolicy, sequence: UInt64, timestamp: Date, stateBefore: consuming State?,
    stateAfter: () -> State
  ) {
    defer { checkInvariantsIfEnabled() }
    guard limit > 0 else { return }
    if transaction != nil {
      switch policy {
      case .ignore: break
      case .barrier:
        undoSteps.removeAll()
        redoEntries.removeAll()
        // The transaction starts over after the barrier: nothing before it can come back.
        transaction?.stateBefore = stateAfter()
        transaction?.before = sequence
        transaction?.hasUndoableAction = false
      case .step, .coalesce: transaction?.hasUndoableAction = true
      }
      return
    }
    switch policy {
    case .ignore:
      return
    case .barrier:
      undoSteps.removeAll()
      redoEntries.removeAll()
    case .step(let name):
      // Taken, not copied: the step owns the state before from here on.
      guard let before = stateBefore.take() else { return }
      push(
        Step(
          name: name, stateBefore: before, before: sequence - 1, coalesceKey: nil,
          lastTimestamp: timestamp))
    case .coalesce(let key, let window, let name):
      if canCoalesce(key: key, window: window, at: timestamp) {
        undoSteps.updateLast { $0.lastTimestamp = timestamp }
      } else if let before = stateBefore.take() {
        push(
          Step(
            name: name, stateBefore: before, before: sequence - 1, coalesceKey: key,
            lastTimestamp: timestamp))
      }
    }
  }

  @inlinable
  mutating func push(_ step: consuming Step) {
    defer { checkInvariantsIfEnabled() }
    undoSteps.append(step)
    if !redoEntries.isEmpty { redoEntries.removeAll() }
    undoSteps.dropOldest(keeping: limit)
  }

  /// The step an undo at `sequence` takes back, moved to the redo stack; `current` is the state it replaces.
  @inlinable
  mutating func undo(current: State, sequence: UInt64) -> Step? {
    defer { checkInvariantsIfEnabled() }
    guard canUndo, let step = undoSteps.popLast() else { return nil }
    redoEntries.append(RedoEntry(step: step, stateAfter: current, after: sequence - 1))
    return step
  }

  /// The entry a redo brings back, its step moved back to the undo stack.
  @inlinable
  mutating func redo() -> RedoEntry? {
    defer { checkInvariantsIfEnabled() }
    guard canRedo, let entry = redoEntries.popLast() else { return nil }
    undoSteps.append(entry.step)
    return entry
  }

  /// Records a restore at `sequence` as an undoable step that brings back `current`.
  @inlinable
  mutating func recordRestore(current: State, sequence: UInt64, timestamp: Date, target: UInt64) {
    defer { checkInvariantsIfEnabled() }
    guard limit > 0, transaction == nil else { return }
    push(
      Step(
        name: "Restore to #\(target)", stateBefore: current, before: sequence - 1, coalesceKey: nil,
        lastTimestamp: timestamp))
  }

  @inlinable
  mutating func beginTransaction(name: String, current: State, sequence: UInt64) {
    defer { checkInvariantsIfEnabled() }
    if transaction != nil {
      transaction?.depth += 1
    } else {
      transaction = Transaction(
        name: name, depth: 1, stateBefore: current, before: sequence - 1, hasUndoableAction: false)
    }
  }

  /// Closes the innermost transaction; the outermost becomes one step if it held an undoable action.
  /// - Returns: false when no transaction was open.
  @discardableResult
  @inlinable
  mutating func endTransaction(timestamp: Date) -> Bool {
    defer { checkInvariantsIfEnabled() }
    guard var open = transaction else { return false }
    open.depth -= 1
    if open.depth > 0 {
      transaction = open
      return true
    }
    transaction = nil
    if limit > 0, open.hasUndoableAction {
      push(
        Step(
          name: open.name, stateBefore: open.stateBefore, before: open.before, coalesceKey: nil,
          lastTimestamp: timestamp))
    }
    return true
  }
}

extension UndoHistory: Sendable where State: Sendable {}
extension UndoHistory.Step: Sendable where State: Sendable {}
extension UndoHistory.RedoEntry: Sendable where State: Sendable {}
extension UndoHistory.Transaction: Sendable where State: Sendable {}
