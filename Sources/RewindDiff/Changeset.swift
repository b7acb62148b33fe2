/// One stage of changes: what a table view applies in one batch update, and the data after it.
///
/// Indices follow batch-update rules: deletes, updates and move sources address the collection
/// before the stage; inserts and move targets address `data`, the collection after it.
/// Each list is sorted, so equal stages compare equal.
public struct Changeset<Collection: Swift.Collection> {
  /// The collection as it stands after this stage.
  public var data: Collection
  /// Offsets of deleted sections, before the stage.
  public var sectionDeleted: [Int]
  /// Offsets of inserted sections, after the stage.
  public var sectionInserted: [Int]
  /// Offsets of sections whose model changed (reloads), before the stage.
  public var sectionUpdated: [Int]
  /// Moved sections, from before-offset to after-offset.
  public var sectionMoved: [Move<Int>]
  /// Paths of deleted elements, before the stage.
  public var elementDeleted: [ElementPath]
  /// Paths of inserted elements, after the stage.
  public var elementInserted: [ElementPath]
  /// Paths of elements whose content changed (reloads), before the stage.
  public var elementUpdated: [ElementPath]
  /// Moved elements, from before-path to after-path, possibly across sections.
  public var elementMoved: [Move<ElementPath>]

  /// A stage with the given data and changes.
  @inlinable
  public init(
    data: Collection,
    sectionDeleted: [Int] = [],
    sectionInserted: [Int] = [],
    sectionUpdated: [Int] = [],
    sectionMoved: [Move<Int>] = [],
    elementDeleted: [ElementPath] = [],
    elementInserted: [ElementPath] = [],
    elementUpdated: [ElementPath] = [],
    elementMoved: [Move<ElementPath>] = []
  ) {
    self.data = data
    self.sectionDeleted = sectionDeleted
    self.sectionInserted = sectionInserted
    self.sectionUpdated = sectionUpdated
    self.sectionMoved = sectionMoved
    self.elementDeleted = elementDeleted
    self.elementInserted = elementInserted
    self.elementUpdated = elementUpdated
    self.elementMoved = elementMoved
  }

  /// The number of changes in this stage.
  @inlinable
  public var changeCount: Int {
    sectionChangeCount + elementChangeCount
  }

  /// The number of section changes in this stage.
  @inlinable
  public var sectionChangeCount: Int {
    sectionDeleted.count + sectionInserted.count + sectionUpdated.count + sectionMoved.count
  }

  /// The number of element changes in this stage.
  @inlinable
  public var elementChangeCount: Int {
    elementDeleted.count + elementInserted.count + elementUpdated.count + elementMoved.count
  }

  /// Whether this stage changes anything.
  @inlinable
  public var hasChanges: Bool { changeCount > 0 }
}

extension Changeset: Equatable where Collection: Equatable {}
extension Changeset: Sendable where Collection: Sendable {}

extension Changeset: CustomStringConvertible {
  /// The non-empty change lists, then the data.
  public var description: String {
    var parts: [String] = []
    func add<T>(_ name: String, _ list: [T]) { if !list.isEmpty { parts.append("\(name): \(list)") } }
    add("sectionDeleted", sectionDeleted)
    add("sectionInserted", sectionInserted)
    add("sectionUpdated", sectionUpdated)
    add("sectionMoved", sectionMoved)
    add("elementDeleted", elementDeleted)
    add("elementInserted", elementInserted)
    add("elementUpdated", elementUpdated)
    add("elementMoved", elementMoved)
    parts.append("data: \(data)")
    return "Changeset(" + parts.joined(separator: ", ") + ")"
  }
}
