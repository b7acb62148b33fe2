import Rewind

/// What happens to a table of swipe cells.
public enum SwipeTableAction<ID: Hashable & Sendable>: Sendable {
  /// An action for one row's cell.
  case row(IdentifiedAction<ID, SwipeCellAction>)
  /// A touch went down on row `rowID` (`nil`: outside any row) at `location` in table coordinates, at
  /// display time `at`.
  case touchDown(rowID: ID?, location: SwipeVector, at: Double)
  /// Closes every open or moving row (a reload, a scroll), animated from display time `at`.
  case closeAll(animated: Bool, at: Double)
  /// Restarts the timers of the rows' animations, which effects do not survive: after the state was
  /// restored from a log or by time travel. Animations already over at `at` end now.
  case resumeAnimations(at: Double)
}

extension SwipeTableAction: Equatable {}

extension SwipeTableAction: Codable where ID: Codable {}
