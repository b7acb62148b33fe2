/// Checks staged changesets against a model of `UITableView`/`UICollectionView` batch-update rules.
///
/// Each stage is replayed on the collection as the previous stage left it: deletes, reloads and
/// move sources must address that collection, inserts and move targets the stage's `data`; no
/// index may be touched twice on either side; element changes may not touch a section the same
/// stage deletes, inserts, reloads or moves; the counts must add up; and every row the table keeps
/// must have the identity and content that `data` gives it. See `BatchUpdateError.Rule`.
public enum BatchUpdateValidator {
  /// Checks every stage of a flat changeset, starting from `source`.
  /// - Throws: The first broken rule, naming the stage and the index.
  /// - Complexity: O(total size of all stages' data).
  public static func validate<Collection: Swift.Collection>(
    _ staged: StagedChangeset<Collection>, from source: Collection
  ) throws(BatchUpdateError) where Collection.Element: Differentiable {
    _ = try StageWalk.replay(staged, from: StageLayout(flat: source)) { StageLayout(flat: $0) }
  }

  /// Checks every stage of a sectioned changeset, starting from `source`.
  /// - Throws: The first broken rule, naming the stage and the section or element path.
  /// - Complexity: O(total size of all stages' data).
  public static func validate<Collection: Swift.Collection>(
    _ staged: StagedChangeset<Collection>, from source: Collection
  ) throws(BatchUpdateError) where Collection.Element: DifferentiableSection {
    _ = try StageWalk.replay(staged, from: StageLayout(sectioned: source)) { StageLayout(sectioned: $0) }
  }

  /// Checks every stage of a flat changeset and returns what the table shows after the last one:
  /// kept elements carried over from `source`, inserted and reloaded ones read from the stages' data.
  /// - Throws: The first broken rule, naming the stage and the index.
  public static func replay<Collection: RangeReplaceableCollection>(
    _ staged: StagedChangeset<Collection>, from source: Collection
  ) throws(BatchUpdateError) -> Collection where Collection.Element: Differentiable {
    let layout = try StageWalk.replay(staged, from: StageLayout(flat: source)) { StageLayout(flat: $0) }
    return Collection(layout.elements[0])
  }

  /// Checks every stage of a sectioned changeset and returns what the table shows after the last
  /// one: kept sections and elements carried over from `source`, inserted and reloaded ones read
  /// from the stages' data.
  /// - Throws: The first broken rule, naming the stage and the section or element path.
  public static func replay<Collection: RangeReplaceableCollection>(
    _ staged: StagedChangeset<Collection>, from source: Collection
  ) throws(BatchUpdateError) -> Collection where Collection.Element: DifferentiableSection {
    let layout = try StageWalk.replay(staged, from: StageLayout(sectioned: source)) {
      StageLayout(sectioned: $0)
    }
    var result = Collection()
    for (model, elements) in zip(layout.models, layout.elements) {
      result.append(Collection.Element(source: model, elements: elements))
    }
    return result
  }
}
