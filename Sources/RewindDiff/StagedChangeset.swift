/// The changes between two collections, split into stages a table view can apply one batch at a time.
///
/// Each stage is a `Changeset` whose indices are valid for the collection as the previous stage
/// left it (the source, for the first stage), and whose `data` is the collection after it; the last
/// stage's `data` is the target. Empty stages are omitted, so equal collections give no stages.
public struct StagedChangeset<Collection: Swift.Collection> {
  /// The stages, in the order they must be applied.
  public var stages: [Changeset<Collection>]

  /// Staged changes made of the given stages, as they are (no validation).
  @inlinable
  public init(_ stages: [Changeset<Collection>] = []) {
    self.stages = stages
  }

  /// The number of changes over all stages.
  @inlinable
  public var changeCount: Int { stages.reduce(0) { $0 + $1.changeCount } }
}

extension StagedChangeset: RandomAccessCollection, MutableCollection {
  /// The first stage's position.
  @inlinable public var startIndex: Int { stages.startIndex }
  /// One past the last stage's position.
  @inlinable public var endIndex: Int { stages.endIndex }

  /// The stage at `position`.
  @inlinable
  public subscript(position: Int) -> Changeset<Collection> {
    get { stages[position] }
    set { stages[position] = newValue }
  }
}

extension StagedChangeset: Equatable where Collection: Equatable {}
extension StagedChangeset: Sendable where Collection: Sendable {}

extension StagedChangeset: CustomStringConvertible {
  /// One line per stage.
  public var description: String {
    stages.isEmpty
      ? "StagedChangeset []"
      : "StagedChangeset [\n" + stages.map { "  \($0)" }.joined(separator: ",\n") + "\n]"
  }
}
