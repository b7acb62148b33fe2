import Rewind

/// What happens to a table of swipe cells.
public enum SwipeTableAction<ID: Hashable & Sendable>: Sendable {
  /// An action for one row's cell.
  case row(IdentifiedAction<ID, SwipeCellAction>)
  /// A touch went down on row `rowID` (`nil`: outside any row) at `location` in table coordinates.
  case touchDown(rowID: ID?, location: SwipeVector)
  /// A display frame: advances the animating rows.
  case tick(now: Double)
  /// Closes every open row (a reload, a scroll).
  case closeAll(animated: Bool)
}

extension SwipeTableAction: Equatable {}

extension SwipeTableAction: Codable where ID: Codable {}
