/// The state of an LLSwipeCell-style cell: a horizontal scroll view whose content offset reveals buttons.
public struct ScrollSwipeCellState: Equatable, Sendable, Codable {
  /// Button widths and the release trigger.
  public var layout: ScrollSwipeLayout
  /// Whether a drag may open the left buttons (an open side can always be dragged).
  public var canOpenLeftButtons = true
  /// Whether a drag may open the right buttons.
  public var canOpenRightButtons = true
  /// The content offset x; L when closed.
  public internal(set) var contentOffset: Double
  /// Whether the left buttons are showing (x < L).
  public internal(set) var showsLeftButtons = false
  /// Whether the right buttons are showing (x > L).
  public internal(set) var showsRightButtons = false
  /// The last scroll the renderer must perform: the offset and whether animated.
  public internal(set) var scrollRequest: ScrollSwipeRequest?
  /// The last release, for the renderer.
  public internal(set) var lastRelease: ScrollSwipeRelease?

  /// A closed cell.
  public init(layout: ScrollSwipeLayout) {
    self.layout = layout
    self.contentOffset = layout.closedOffset
  }

  /// Whether the tap recogniser is on (it closes the cell and swallows the touch).
  public var tapClosesCell: Bool { showsLeftButtons || showsRightButtons }
}

/// A content offset the renderer should scroll to.
public struct ScrollSwipeRequest: Equatable, Sendable, Codable {
  /// The offset.
  public var x: Double
  /// Whether to animate.
  public var animated: Bool

  /// Creates a request.
  public init(x: Double, animated: Bool) {
    self.x = x
    self.animated = animated
  }
}
