import Rewind

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

/// The LLSwipeCell reducer: gating while dragging, release snapping and the close triggers.
public struct ScrollSwipeCell: Reducer, Sendable {
  /// Creates the reducer.
  public init() {}

  /// Applies `action` to `state`; see the type's documentation for the rules.
  public func reduce(into state: inout ScrollSwipeCellState, action: ScrollSwipeCellAction) -> Effect<ScrollSwipeCellAction> {
    let layout = state.layout
    switch action {
    case .dragged(let x):
      guard x.isFinite else { return .none }
      let l = layout.closedOffset
      let blockLeft = x < l && (layout.leftWidths.isEmpty || (!state.canOpenLeftButtons && !state.showsLeftButtons))
      let blockRight =
        x > l && (layout.rightWidths.isEmpty || (!state.canOpenRightButtons && !state.showsRightButtons))
      if blockLeft || blockRight {
        scroll(&state, to: l, animated: false)
      } else {
        state.contentOffset = x
        updateFlags(&state)
      }
    case .dragEnded(let velocity):
      let release = layout.release(x: state.contentOffset, velocityPointsPerMillisecond: velocity.isFinite ? velocity : 0)
      state.lastRelease = release
      scroll(&state, to: release.target, animated: true)
    case .hide(let animated):
      scroll(&state, to: layout.closedOffset, animated: animated)
    case .expandLeft(let animated):
      scroll(&state, to: 0, animated: animated)
    case .expandRight(let animated):
      scroll(&state, to: layout.rightOpenOffset, animated: animated)
    case .toggleLeft:
      scroll(&state, to: state.showsLeftButtons ? layout.closedOffset : 0, animated: true)
    case .toggleRight:
      scroll(&state, to: state.showsRightButtons ? layout.closedOffset : layout.rightOpenOffset, animated: true)
    case .tap:
      if state.tapClosesCell { scroll(&state, to: layout.closedOffset, animated: true) }
    case .tablePanned:
      if state.contentOffset != layout.closedOffset { scroll(&state, to: layout.closedOffset, animated: true) }
    case .contentSizeChanged:
      scroll(&state, to: layout.closedOffset, animated: false)
    case .setLayout(let newLayout):
      state.layout = newLayout
      scroll(&state, to: newLayout.closedOffset, animated: false)
    }
    return .none
  }

  private func scroll(_ state: inout ScrollSwipeCellState, to x: Double, animated: Bool) {
    state.contentOffset = x
    state.scrollRequest = ScrollSwipeRequest(x: x, animated: animated)
    updateFlags(&state)
  }

  private func updateFlags(_ state: inout ScrollSwipeCellState) {
    let l = state.layout.closedOffset
    state.showsRightButtons = state.contentOffset > l && !state.layout.rightWidths.isEmpty
    state.showsLeftButtons = state.contentOffset < l && !state.layout.leftWidths.isEmpty
  }
}
