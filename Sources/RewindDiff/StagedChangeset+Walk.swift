extension StagedChangeset {
  /// Walks the stages in order, handing each stage and its offset to `applyBatch`; a batch-update
  /// consumer sets the stage's `data` as its data first, then applies the stage's changes.
  ///
  /// The validator, `apply(to:)` and the table and collection view `reload(using:)` helpers all walk
  /// the stages through this method. When `interrupt` returns true for a stage, the walk stops
  /// before that stage and returns false; the caller should then show the last stage's data in full.
  /// - Returns: Whether every stage was walked.
  @discardableResult
  public func walkStages<Failure: Error>(
    interrupt: ((Changeset<Collection>) -> Bool)? = nil,
    applyBatch: (_ stage: Int, _ changes: Changeset<Collection>) throws(Failure) -> Void
  ) throws(Failure) -> Bool {
    for (offset, changes) in stages.enumerated() {
      if let interrupt, interrupt(changes) { return false }
      try applyBatch(offset, changes)
    }
    return true
  }
}
