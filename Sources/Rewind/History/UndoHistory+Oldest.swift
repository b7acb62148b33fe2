extension UndoHistory {
  /// The oldest state any undo, redo or the open transaction can bring back, with the sequence number it is
  /// the state as of; `nil` when the history holds none.
  ///
  /// A store whose history starts there and replays the later events rebuilds these stacks: the snapshot
  /// a reopen needs to keep its undo history (see `Store.reopenPoint(maxDistance:)`).
  func oldestKept() -> (sequence: UInt64, state: State)? {
    var oldest: (sequence: UInt64, state: State)?
    func consider(_ sequence: UInt64, _ state: State) {
      if oldest.map({ sequence < $0.sequence }) ?? true { oldest = (sequence, state) }
    }
    // Steps are pushed in sequence order, so the bottom of the undo stack is its oldest.
    if let step = undoSteps.first { consider(step.before, step.stateBefore) }
    for entry in redoEntries { consider(entry.step.before, entry.step.stateBefore) }
    if let transaction { consider(transaction.before, transaction.stateBefore) }
    return oldest
  }
}
