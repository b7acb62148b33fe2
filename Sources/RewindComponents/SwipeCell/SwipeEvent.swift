/// A delegate callback of the swipe cell, as data, in the order upstream calls them.
public enum SwipeEvent: Equatable, Sendable, Codable {
  /// The overlay appeared: a swipe session begins (`swipeTableCellWillBeginSwiping`).
  case willBeginSwiping
  /// The reported phase changed (`didChangeSwipeState`); `gestureActive` while a pan is in progress.
  case stateChanged(SwipePhase, gestureActive: Bool)
  /// A button's own callback ran.
  case buttonCallback(index: Int, direction: SwipeDirection)
  /// The app's handler was told of a click (`tappedButtonAtIndex`).
  case buttonTapped(SwipeButtonTap)
  /// The overlay disappeared: the session ends (`swipeTableCellWillEndSwiping`).
  case willEndSwiping
}

/// A two-dimensional translation, velocity or location in points (y grows downward).
public struct SwipeVector: Equatable, Sendable, Codable {
  /// Horizontal component.
  public var x: Double
  /// Vertical component.
  public var y: Double

  /// Creates a vector.
  public init(x: Double, y: Double = 0) {
    self.x = x
    self.y = y
  }

  /// The zero vector.
  public static let zero = SwipeVector(x: 0, y: 0)

  /// Whether both components are finite.
  var isFinite: Bool { x.isFinite && y.isFinite }
}
