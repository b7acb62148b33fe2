#if canImport(UIKit) || canImport(AppKit)
  import Foundation

  /// One stage in the index types views take: `IndexSet` for sections, `IndexPath` for elements.
  struct ViewBatch: Sendable {
    var sectionDeleted: IndexSet
    var sectionInserted: IndexSet
    var sectionUpdated: IndexSet
    var sectionMoved: [Move<Int>]
    var elementDeleted: [IndexPath]
    var elementInserted: [IndexPath]
    var elementUpdated: [IndexPath]
    var elementMoved: [(source: IndexPath, target: IndexPath)]

    init<Collection>(_ changes: Changeset<Collection>) {
      func indexPath(_ path: ElementPath) -> IndexPath { IndexPath(indexes: [path.section, path.element]) }
      sectionDeleted = IndexSet(changes.sectionDeleted)
      sectionInserted = IndexSet(changes.sectionInserted)
      sectionUpdated = IndexSet(changes.sectionUpdated)
      sectionMoved = changes.sectionMoved
      elementDeleted = changes.elementDeleted.map(indexPath)
      elementInserted = changes.elementInserted.map(indexPath)
      elementUpdated = changes.elementUpdated.map(indexPath)
      elementMoved = changes.elementMoved.map { (indexPath($0.source), indexPath($0.target)) }
    }
  }
#endif
