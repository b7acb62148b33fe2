/// A list row that owns a swipe cell's state; what ``SwipeTable`` coordinates.
public protocol SwipeTableRow: Identifiable, Sendable where ID: Sendable {
  /// The row's swipe state.
  var swipe: SwipeCellState { get set }
}

/// A plain row of a swipe table: an id and its swipe state.
public struct SwipeRow<ID: Hashable & Sendable>: SwipeTableRow, Equatable {
  /// The row's identity.
  public var id: ID
  /// The row's swipe state.
  public var swipe: SwipeCellState

  /// Creates a row.
  public init(id: ID, swipe: SwipeCellState) {
    self.id = id
    self.swipe = swipe
  }
}

extension SwipeRow: Codable where ID: Codable {}

/// What a touch on the table did while a cell was open (the input overlay of MGSwipeTableCell).
public struct SwipeTouchOutcome<ID: Hashable & Sendable>: Equatable, Sendable {
  /// Whether the touch was swallowed, so the row under it receives nothing.
  public var consumed: Bool
  /// The open rows it hid, in opening order.
  public var hiddenRowIDs: [ID]

  /// Creates an outcome.
  public init(consumed: Bool, hiddenRowIDs: [ID]) {
    self.consumed = consumed
    self.hiddenRowIDs = hiddenRowIDs
  }
}

extension SwipeTouchOutcome: Codable where ID: Codable {}

/// A swipe event of one row of a table.
public struct SwipeRowEvent<ID: Hashable & Sendable>: Equatable, Sendable {
  /// The row.
  public var id: ID
  /// What the row emitted.
  public var event: SwipeEvent

  /// Creates a tagged event.
  public init(id: ID, event: SwipeEvent) {
    self.id = id
    self.event = event
  }
}

extension SwipeRowEvent: Codable where ID: Codable {}
