#if canImport(AppKit) && !targetEnvironment(macCatalyst)
  import AppKit

  extension NSTableView {
    /// Applies the flat `staged` stage by stage, one `beginUpdates()`/`endUpdates()` per stage,
    /// handing each stage's data to `setData` first inside its batch. Section indices are ignored.
    ///
    /// `NSTableView` applies the edits of a batch one after another, so each insert-and-move stage
    /// is replayed as sequential steps that end in the same rows. Meant for the stages this module
    /// makes, which never mix deletes with inserts or moves.
    public func reload<Collection>(
      using staged: StagedChangeset<Collection>,
      with animation: NSTableView.AnimationOptions = [.effectFade],
      interrupt: ((Changeset<Collection>) -> Bool)? = nil,
      setData: (Collection) -> Void
    ) {
      guard let last = staged.last else { return }
      var rowCount = numberOfRows
      let finished = staged.walkStages(interrupt: interrupt) { _, changes in
        beginUpdates()
        setData(changes.data)
        if !changes.elementDeleted.isEmpty {
          removeRows(at: IndexSet(changes.elementDeleted.map(\.element)), withAnimation: animation)
          rowCount -= changes.elementDeleted.count
        }
        let steps = sequentialRowSteps(
          beforeCount: rowCount, inserted: changes.elementInserted.map(\.element),
          moved: changes.elementMoved.map { Move(source: $0.source.element, target: $0.target.element) })
        for step in steps {
          switch step {
          case .insert(let row): insertRows(at: IndexSet(integer: row), withAnimation: animation)
          case .move(let from, let to): moveRow(at: from, to: to)
          }
        }
        rowCount += changes.elementInserted.count
        if !changes.elementUpdated.isEmpty {
          reloadData(
            forRowIndexes: IndexSet(changes.elementUpdated.map(\.element)),
            columnIndexes: IndexSet(integersIn: 0..<numberOfColumns))
        }
        endUpdates()
      }
      if !finished {
        setData(last.data)
        reloadData()
      }
    }
  }
#endif
