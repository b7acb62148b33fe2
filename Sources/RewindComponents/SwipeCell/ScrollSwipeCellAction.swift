/// What happens to a scroll-view swipe cell.
public enum ScrollSwipeCellAction: Equatable, Sendable, Codable {
  /// The user dragged the scroll view to offset `x`.
  case dragged(x: Double)
  /// The finger lifted with horizontal `velocity` in points per millisecond (UIKit's unit here).
  case dragEnded(velocityPointsPerMillisecond: Double)
  /// Closes the cell.
  case hide(animated: Bool)
  /// Opens the left buttons.
  case expandLeft(animated: Bool)
  /// Opens the right buttons.
  case expandRight(animated: Bool)
  /// Closes the left side if showing, otherwise opens it.
  case toggleLeft
  /// Closes the right side if showing, otherwise opens it.
  case toggleRight
  /// A tap on the cell: closes it, animated, when open.
  case tap
  /// Any pan on the parent table: the cell closes, animated.
  case tablePanned
  /// The content size changed (rotation): the cell closes without animation.
  case contentSizeChanged
  /// New buttons: relayout, then close without animation.
  case setLayout(ScrollSwipeLayout)
}
