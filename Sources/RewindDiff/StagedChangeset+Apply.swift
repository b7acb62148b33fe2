extension StagedChangeset where Collection: RangeReplaceableCollection, Collection.Element: Differentiable {
  /// Applies the stages to the flat collection `source` the way a table view would, one batch at a time.
  ///
  /// Kept elements are carried over from `source`; inserted and reloaded ones are read from each
  /// stage's `data`. Applying `StagedChangeset(source: a, target: b)` to `a` gives `b`.
  /// - Throws: `BatchUpdateError` when a stage breaks a batch-update rule (see `BatchUpdateValidator`).
  public func apply(to source: Collection) throws(BatchUpdateError) -> Collection {
    let layout = try StageWalk.replay(self, from: StageLayout(flat: source)) { StageLayout(flat: $0) }
    return Collection(layout.elements[0])
  }
}

extension StagedChangeset where Collection: RangeReplaceableCollection, Collection.Element: DifferentiableSection {
  /// Applies the stages to the sectioned collection `source` the way a table view would, one batch at a time.
  ///
  /// Kept sections and elements are carried over from `source`; inserted and reloaded ones are read
  /// from each stage's `data`. Applying `StagedChangeset(source: a, target: b)` to `a` gives `b`.
  /// - Throws: `BatchUpdateError` when a stage breaks a batch-update rule (see `BatchUpdateValidator`).
  public func apply(to source: Collection) throws(BatchUpdateError) -> Collection {
    let layout = try StageWalk.replay(self, from: StageLayout(sectioned: source)) { StageLayout(sectioned: $0) }
    var result = Collection()
    for (model, elements) in zip(layout.models, layout.elements) {
      result.append(Collection.Element(source: model, elements: elements))
    }
    return result
  }
}
