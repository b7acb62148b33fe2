extension StagedChangeset {
  /// Walks the stages in order as every batch-update consumer must: for each stage, first
  /// `setData` with the collection after it, then `applyBatch` with its offset and changes.
  ///
  /// The validator, `apply(to:)` and the table and collection view `reload(using:)` helpers all walk
  /// the stages through this method. When `interrupt` returns true for a stage, the walk stops
  /// before that stage and returns false; the caller should then show the last stage's data in full.
  /// - Returns: Whether every stage was walked.
  @discardableResult
  public func walkStages<Failure: Error>(
    interrupt: ((Changeset<Collection>) -> Bool)? = nil,
    setData: (Collection) throws(Failure) -> Void,
    applyBatch: (_ stage: Int, _ changes: Changeset<Collection>) throws(Failure) -> Void
  ) throws(Failure) -> Bool {
    for (offset, changes) in stages.enumerated() {
      if let interrupt, interrupt(changes) { return false }
      try setData(changes.data)
      try applyBatch(offset, changes)
    }
    return true
  }
}
