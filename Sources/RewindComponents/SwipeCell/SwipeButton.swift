/// One swipe button as data: what it shows, how wide it is and whether its own callback hides the cell.
public struct SwipeButton: Equatable, Sendable, Codable {
  /// Its title (or an identifier the renderer maps to content).
  public var title: String
  /// Its width in points; negative widths count as 0.
  public var width: Double
  /// The result of the button's own callback ("auto-hide"); `nil` when it has none.
  public var callbackAutoHide: Bool?
  /// Its background colour as a renderer token.
  public var backgroundColor: String?

  /// Creates a button of a fixed width.
  public init(title: String, width: Double, callbackAutoHide: Bool? = nil, backgroundColor: String? = nil) {
    self.title = title
    self.width = width
    self.callbackAutoHide = callbackAutoHide
    self.backgroundColor = backgroundColor
  }

  /// A button sized like upstream's convenience factory: the fitted content width plus 10 pt on each side.
  public static func fitted(title: String, contentWidth: Double, callbackAutoHide: Bool? = nil) -> SwipeButton
  {
    SwipeButton(title: title, width: contentWidth + 20, callbackAutoHide: callbackAutoHide)
  }

  /// The width used for layout: never negative, never NaN.
  var layoutWidth: Double { width.isFinite ? Swift.max(0, width) : 0 }
}

/// A click on a swipe button, as the app's `tappedButton` handler sees it.
public struct SwipeButtonTap: Equatable, Sendable, Codable {
  /// The button's original index on its side.
  public var index: Int
  /// The side: ``SwipeDirection/leftToRight`` for the left buttons.
  public var direction: SwipeDirection
  /// Whether the click came from a triggered expansion rather than a tap.
  public var fromExpansion: Bool

  /// Creates a tap description.
  public init(index: Int, direction: SwipeDirection, fromExpansion: Bool) {
    self.index = index
    self.direction = direction
    self.fromExpansion = fromExpansion
  }
}
