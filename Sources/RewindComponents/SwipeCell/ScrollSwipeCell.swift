import Rewind

/// The LLSwipeCell reducer: gating while dragging, release snapping and the close triggers.
public struct ScrollSwipeCell: Reducer, Sendable {
  /// Creates the reducer.
  public init() {}

  /// Applies `action` to `state`; see the type's documentation for the rules.
  public func reduce(into state: inout ScrollSwipeCellState, action: ScrollSwipeCellAction) -> Effect<
    ScrollSwipeCellAction
  > {
    let layout = state.layout
    switch action {
    case .dragged(let x):
      guard x.isFinite else { return .none }
      let l = layout.closedOffset
      let blockLeft =
        x < l && (layout.leftWidths.isEmpty || (!state.canOpenLeftButtons && !state.showsLeftButtons))
      let blockRight =
        x > l && (layout.rightWidths.isEmpty || (!state.canOpenRightButtons && !state.showsRightButtons))
      if blockLeft || blockRight {
        scroll(&state, to: l, animated: false)
      } else {
        state.contentOffset = x
        updateFlags(&state)
      }
    case .dragEnded(let velocity):
      let release = layout.release(
        x: state.contentOffset, velocityPointsPerMillisecond: velocity.isFinite ? velocity : 0)
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
      scroll(
        &state, to: state.showsRightButtons ? layout.closedOffset : layout.rightOpenOffset, animated: true)
    case .tap:
      if state.tapClosesCell { scroll(&state, to: layout.closedOffset, animated: true) }
    case .tablePanned:
      if state.contentOffset != layout.closedOffset {
        scroll(&state, to: layout.closedOffset, animated: true)
      }
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
