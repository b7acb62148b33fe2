extension StagedChangeset where Collection: RangeReplaceableCollection, Collection.Element: Differentiable {
  /// Applies the stages to the flat collection `source` the way a table view would, one batch at a time.
  ///
  /// Kept elements are carried over from `source`; inserted and reloaded ones are read from each
  /// stage's `data`. Applying `StagedChangeset(source: a, target: b)` to `a` gives `b`.
  /// This is `BatchUpdateValidator.replay(_:from:)`: every stage is validated on the way.
  /// - Throws: `BatchUpdateError` when a stage breaks a batch-update rule.
  public func apply(to source: Collection) throws(BatchUpdateError) -> Collection {
    try BatchUpdateValidator.replay(self, from: source)
  }
}

extension StagedChangeset
where Collection: RangeReplaceableCollection, Collection.Element: DifferentiableSection {
  /// Applies the stages to the sectioned collection `source` the way a table view would, one batch at a time.
  ///
  /// Kept sections and elements are carried over from `source`; inserted and reloaded ones are read
  /// from each stage's `data`. Applying `StagedChangeset(source: a, target: b)` to `a` gives `b`.
  /// This is `BatchUpdateValidator.replay(_:from:)`: every stage is validated on the way.
  /// - Throws: `BatchUpdateError` when a stage breaks a batch-update rule.
  public func apply(to source: Collection) throws(BatchUpdateError) -> Collection {
    try BatchUpdateValidator.replay(self, from: source)
  }
}
