extension UndoHistory: InvariantChecking {
  /// Checks the stacks' order and bounds, trapping with a message naming what is wrong: at most `limit`
  /// steps (none when undo is off); undo steps in the order they happened; redo entries in the order they
  /// were undone (each undone later than the step it holds began), all newer than the undo steps; an open
  /// transaction at least one deep. O(limit).
  @usableFromInline
  package func _checkInvariants() {
    precondition(limit >= 0, "UndoHistory: negative limit \(limit)")
    precondition(
      undoSteps.count <= limit, "UndoHistory: \(undoSteps.count) undo steps over the limit \(limit)")
    if limit == 0 { precondition(redoEntries.isEmpty, "UndoHistory: redo entries with undo off") }
    let steps = undoSteps.entries
    for (earlier, later) in zip(steps, steps.dropFirst()) {
      precondition(
        earlier.before < later.before,
        "UndoHistory: undo steps out of order (\(earlier.before), \(later.before))")
    }
    for (earlier, later) in zip(redoEntries, redoEntries.dropFirst()) {
      precondition(
        earlier.after < later.after && earlier.step.before > later.step.before,
        "UndoHistory: redo entries out of order (\(earlier.after), \(later.after))")
    }
    for entry in redoEntries {
      precondition(entry.step.before < entry.after, "UndoHistory: a redo entry undone before its step began")
    }
    if let newestStep = undoSteps.last, let nextRedo = redoEntries.last {
      precondition(
        newestStep.before < nextRedo.step.before, "UndoHistory: a redo step older than an undo step")
    }
    if let transaction {
      precondition(transaction.depth >= 1, "UndoHistory: open transaction of depth \(transaction.depth)")
    }
  }
}
