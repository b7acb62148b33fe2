#if canImport(AppKit) && !targetEnvironment(macCatalyst)
  import AppKit

  extension NSCollectionView {
    /// Applies `staged` stage by stage, one `performBatchUpdates` per stage, handing each stage's
    /// data to `setData` first inside its batch.
    public func reload<Collection>(
      using staged: StagedChangeset<Collection>,
      interrupt: ((Changeset<Collection>) -> Bool)? = nil,
      setData: @escaping (Collection) -> Void
    ) {
      guard let last = staged.last else { return }
      let finished = staged.walkStages(interrupt: interrupt) { _, changes in
        let batch = ViewBatch(changes)
        // The updates block runs synchronously on the main thread, so these need no Sendable proof.
        nonisolated(unsafe) let data = changes.data
        nonisolated(unsafe) let setData = setData
        performBatchUpdates(
          {
            MainActor.assumeIsolated {
              setData(data)  // inside the batch, as AppKit asks, so counts are read against it
              if !batch.sectionDeleted.isEmpty { self.deleteSections(batch.sectionDeleted) }
              if !batch.sectionInserted.isEmpty { self.insertSections(batch.sectionInserted) }
              if !batch.sectionUpdated.isEmpty { self.reloadSections(batch.sectionUpdated) }
              for move in batch.sectionMoved { self.moveSection(move.source, toSection: move.target) }
              if !batch.elementDeleted.isEmpty { self.deleteItems(at: Set(batch.elementDeleted)) }
              if !batch.elementInserted.isEmpty { self.insertItems(at: Set(batch.elementInserted)) }
              if !batch.elementUpdated.isEmpty { self.reloadItems(at: Set(batch.elementUpdated)) }
              for move in batch.elementMoved { self.moveItem(at: move.source, to: move.target) }
            }
          }, completionHandler: nil)
      }
      if !finished {
        setData(last.data)
        reloadData()
      }
    }
  }
#endif
