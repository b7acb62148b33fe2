import RewindDiff

/// An item an editable list can hold: identified, comparable, with a text the row edits.
public protocol EditableItem: Identifiable, Equatable, Sendable where ID: Sendable {
  /// The text a row's editor changes.
  var text: String { get set }
}

/// A row of an editable list: the item plus the row's own swipe and edit state.
///
/// Diffed by item id; its content changes when the item or the editing session changes (swipe movement is
/// not content, so a pan never reloads rows).
public struct EditableRow<Item: EditableItem>: SwipeTableRow, Equatable, Differentiable {
  /// The item.
  public var item: Item
  /// The row's swipe cell.
  public var swipe: SwipeCellState
  /// The row's text editor.
  public var edit: TextEditState

  /// Creates a row.
  public init(item: Item, swipe: SwipeCellState, edit: TextEditState) {
    self.item = item
    self.swipe = swipe
    self.edit = edit
  }

  /// The item's id.
  public var id: Item.ID { item.id }

  /// The item's id.
  public var differenceIdentifier: Item.ID { item.id }

  /// Same item value and same editing session.
  public func isContentEqual(to source: EditableRow) -> Bool {
    item == source.item && edit.session == source.edit.session && edit.title == source.edit.title
  }
}

extension EditableRow: Codable where Item: Codable {}
