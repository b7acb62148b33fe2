import Rewind

/// The state of an editable list: rows that own their swipe and edit state, coordinated as a swipe table.
public struct EditableListState<Item: EditableItem>: Equatable, Sendable {
  /// The swipe-table coordination over the rows.
  public var table: SwipeTableState<EditableRow<Item>>

  /// A list of `rows`.
  public init(rows: IdentifiedArray<EditableRow<Item>> = []) {
    table = SwipeTableState(rows: rows)
  }

  /// The rows, in order; subscribe with `store.changesets(of: \.rows)`.
  public var rows: IdentifiedArray<EditableRow<Item>> {
    get { table.rows }
    set { table.rows = newValue }
  }
}

extension EditableListState: Codable where Item: Codable, Item.ID: Codable {}
