#if canImport(UIKit) && !os(watchOS)
  import UIKit

  extension UICollectionView {
    /// Applies `staged` stage by stage, one `performBatchUpdates` per stage, handing each stage's
    /// data to `setData` first inside its batch.
    ///
    /// When the view is not in a window, or `interrupt` returns true for a stage, the last stage's
    /// data is set and the view reloaded in full instead.
    public func reload<Collection>(
      using staged: StagedChangeset<Collection>,
      interrupt: ((Changeset<Collection>) -> Bool)? = nil,
      setData: @escaping (Collection) -> Void
    ) {
      guard let last = staged.last else { return }
      guard window != nil else {
        setData(last.data)
        reloadData()
        return
      }
      let finished = staged.walkStages(interrupt: interrupt) { _, changes in
        let batch = ViewBatch(changes)
        // The updates block runs synchronously on the main thread, so these need no Sendable proof.
        nonisolated(unsafe) let data = changes.data
        nonisolated(unsafe) let setData = setData
        performBatchUpdates {
          MainActor.assumeIsolated {
            setData(data)  // inside the batch, as UIKit asks, so counts are read against it
            if !batch.sectionDeleted.isEmpty { self.deleteSections(batch.sectionDeleted) }
            if !batch.sectionInserted.isEmpty { self.insertSections(batch.sectionInserted) }
            if !batch.sectionUpdated.isEmpty { self.reloadSections(batch.sectionUpdated) }
            for move in batch.sectionMoved { self.moveSection(move.source, toSection: move.target) }
            if !batch.elementDeleted.isEmpty { self.deleteItems(at: batch.elementDeleted) }
            if !batch.elementInserted.isEmpty { self.insertItems(at: batch.elementInserted) }
            if !batch.elementUpdated.isEmpty { self.reloadItems(at: batch.elementUpdated) }
            for move in batch.elementMoved { self.moveItem(at: move.source, to: move.target) }
          }
        }
      }
      if !finished {
        setData(last.data)
        reloadData()
      }
    }
  }
#endif
