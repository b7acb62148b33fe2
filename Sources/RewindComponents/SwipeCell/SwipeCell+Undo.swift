import Rewind

extension SwipeCellAction {
  /// The suggested undo policy: a button tap is a step; gestures, animation ends and presentation
  /// commands are transient and not undoable.
  public var suggestedUndoPolicy: UndoPolicy {
    switch self {
    case .tapButton: .step(name: "Swipe Action")
    default: .ignore
    }
  }
}

extension SwipeTableAction {
  /// The suggested undo policy: the row action's (see ``SwipeCellAction/suggestedUndoPolicy``); touches,
  /// animation ends and closing are not undoable.
  public var suggestedUndoPolicy: UndoPolicy {
    if case .row(let addressed) = self { return addressed.action.suggestedUndoPolicy }
    return .ignore
  }
}
