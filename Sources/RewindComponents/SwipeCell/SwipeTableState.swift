import Rewind

/// The state of a table of swipe cells: the rows plus the bookkeeping that keeps every action O(1) in the
/// row count (the open, dragging and animating rows are known by id, never found by scanning).
public struct SwipeTableState<Row: SwipeTableRow>: Sendable {
  /// The rows, in display order.
  public var rows: IdentifiedArray<Row>
  /// The rows whose swipe overlay is shown, in the order they opened.
  public internal(set) var openRowIDs: [Row.ID] = []
  /// The row whose pan is in progress.
  public internal(set) var draggingRowID: Row.ID?
  /// The rows with a running animation: the ones a view samples at each display frame.
  public internal(set) var animatingRowIDs: Set<Row.ID> = []
  /// What the last touch did.
  public internal(set) var lastTouch: SwipeTouchOutcome<Row.ID>?
  /// The row whose touch was swallowed: its pan is ignored until the next touch.
  public internal(set) var swallowedRowID: Row.ID?
  /// Every row's events from the last table action, in the order they happened, tagged with the row.
  public internal(set) var events: [SwipeRowEvent<Row.ID>] = []

  /// A table of `rows`, all closed.
  public init(rows: IdentifiedArray<Row>) {
    self.rows = rows
  }
}

extension SwipeTableState: Equatable where Row: Equatable {}

extension SwipeTableState {
  /// Whether a row is animating, so a view should keep sampling frames.
  public var isAnimating: Bool { !animatingRowIDs.isEmpty }
}
extension SwipeTableState: Codable where Row: Codable, Row.ID: Codable {}

extension SwipeTableState {
  /// Drops a removed row from the bookkeeping.
  mutating func forget(_ id: Row.ID) {
    openRowIDs.removeAll { $0 == id }
    animatingRowIDs.remove(id)
    if draggingRowID == id { draggingRowID = nil }
    if swallowedRowID == id { swallowedRowID = nil }
  }
}
