import Rewind

extension TestStore {
  /// Whether an undo would take back a step: the store's `Store.canUndo`, for asserting menus.
  public var canUndo: Bool { store.canUndo }

  /// Whether a redo would bring back a step.
  public var canRedo: Bool { store.canRedo }

  /// The name of the step an undo would take back ("Flag"); `nil` when unnamed or when there is none.
  public var undoStepName: String? { store.undoStepName }

  /// The name of the step a redo would bring back.
  public var redoStepName: String? { store.redoStepName }

  /// The number of steps that can be undone.
  public var undoStepCount: Int { store.undoStepCount }
}
