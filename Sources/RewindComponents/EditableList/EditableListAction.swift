import Rewind

/// What happens to an editable list.
public enum EditableListAction<Item: EditableItem>: Sendable {
  /// Inserts `item` at `index` (clamped to the list); an id already present is ignored.
  case insert(Item, at: Int)
  /// Deletes the row with `id`.
  case delete(id: Item.ID)
  /// Moves the row at `from` to `to`; out-of-range indices are ignored with a diagnostic.
  case move(from: Int, to: Int)
  /// Replaces the item with the same id.
  case update(Item)
  /// A swipe action for one row.
  case swipe(IdentifiedAction<Item.ID, SwipeCellAction>)
  /// An edit action for one row; ending the edit writes the text into the item.
  case edit(IdentifiedAction<Item.ID, TextEditAction>)
  /// A touch on the list at display time `at` (see ``SwipeTableAction/touchDown(rowID:location:at:)``).
  case touchDown(rowID: Item.ID?, location: SwipeVector, at: Double)
  /// Closes every open row, animated from display time `at`.
  case closeAll(animated: Bool, at: Double)
  /// Restarts the timers effects do not survive (the rows' animations, the open editor's auto-save):
  /// after the state was restored from a log or by time travel.
  case resumeTimers(at: Double)
}

extension EditableListAction: Equatable {}

extension EditableListAction: Codable where Item: Codable, Item.ID: Codable {}

extension EditableListAction {
  /// The suggested undo policy: structural changes and button taps are steps, typing coalesces, gestures
  /// and animation ends are not undoable.
  public var suggestedUndoPolicy: UndoPolicy {
    switch self {
    case .insert: .step(name: "Insert")
    case .delete: .step(name: "Delete")
    case .move: .step(name: "Move")
    case .update: .step(name: "Update")
    case .swipe(let addressed): addressed.action.suggestedUndoPolicy
    case .edit(let addressed): addressed.action.suggestedUndoPolicy
    case .touchDown, .closeAll, .resumeTimers: .ignore
    }
  }
}
