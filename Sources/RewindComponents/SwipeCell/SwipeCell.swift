import Rewind

/// The swipe cell reducer: MGSwipeTableCell's behaviour over ``SwipeCellState`` and ``SwipeCellAction``.
///
/// The app's delegate answers live here as pure closures (configuration, not state). Delegate callbacks
/// come out as ``SwipeCellState/events``, cleared at the start of every action.
///
/// ```swift
/// let store = Store(initialState: SwipeCellState(right: [.init(title: "Delete", width: 90)]), reducer: SwipeCell())
/// store.send(.panBegan(translation: .init(x: -1)))
/// store.send(.panChanged(translation: .init(x: -120)))
/// store.send(.panEnded(translation: .init(x: -120), velocity: .zero))
/// store.send(.tick(now: 0)); store.send(.tick(now: 0.3))   // animated to −90: open
/// ```
public struct SwipeCell: Reducer, Sendable {
  /// Whether a swipe in a direction may start from a point (`canSwipe`); `nil` allows every side that
  /// has buttons. Asked only when a pan begins on a closed cell.
  public var canSwipe: (@Sendable (SwipeDirection, SwipeVector) -> Bool)?
  /// The app's answer to a button click (`tappedButtonAtIndex`): whether to hide the cell. Default `false`.
  public var tappedButton: @Sendable (SwipeButtonTap) -> Bool
  /// Whether a tap on the content at a point hides the open cell (`shouldHideSwipeOnTap`). Default `true`.
  public var shouldHideOnTap: @Sendable (SwipeVector) -> Bool
  /// How a release picks its target.
  public var releasePolicy: SwipeReleasePolicy

  /// Creates the reducer; the defaults are upstream's for a delegate that implements nothing.
  public init(
    releasePolicy: SwipeReleasePolicy = .standard,
    canSwipe: (@Sendable (SwipeDirection, SwipeVector) -> Bool)? = nil,
    tappedButton: @escaping @Sendable (SwipeButtonTap) -> Bool = { _ in false },
    shouldHideOnTap: @escaping @Sendable (SwipeVector) -> Bool = { _ in true }
  ) {
    self.releasePolicy = releasePolicy
    self.canSwipe = canSwipe
    self.tappedButton = tappedButton
    self.shouldHideOnTap = shouldHideOnTap
  }

  /// Applies `action` to `state`; see the type's documentation for the rules.
  public func reduce(into state: inout SwipeCellState, action: SwipeCellAction) -> Effect<SwipeCellAction> {
    state.events.removeAll(keepingCapacity: true)
    switch action {
    case .panBegan(let translation, let location, let onButtons):
      return panBegan(&state, translation: translation, location: location, onButtons: onButtons)
    case .panChanged(let translation):
      guard state.isGestureActive, translation.x.isFinite else { return .none }
      let raw = state.panStartOffset + (translation.x - state.panStartX)
      if state.firstSwipeDirection == nil { state.firstSwipeDirection = SwipeDirection(offset: raw) }
      return setOffset(&state, state.filtered(raw), animation: nil)
    case .panEnded(_, let velocity):
      guard state.isGestureActive else { return .none }
      state.isGestureActive = false
      return release(&state, velocity: velocity.x.isFinite ? velocity.x : 0)
    case .cancelGesture:
      guard state.isGestureActive else { return .none }
      state.isGestureActive = false
      state.firstSwipeDirection = nil
      return state.offset == 0 ? .none : hide(&state, animated: true)
    case .tapContent(let location):
      guard state.isOverlayShown, !state.isGestureActive, shouldHideOnTap(location) else { return .none }
      return hide(&state, animated: true)
    case .tapButton(let index, let side):
      guard state.buttons(side).indices.contains(index) else {
        return .diagnostic(
          Diagnostic(
            kind: .invalidInput,
            message: "SwipeCell: tap on button \(index) of \(side), which has \(state.buttons(side).count) buttons"))
      }
      guard state.isOverlayShown else { return .none }
      return click(&state, SwipeButtonTap(index: index, direction: side, fromExpansion: false))
    case .show(let side, let animated):
      state.allowsLeftToRight = !state.leftButtons.isEmpty
      state.allowsRightToLeft = !state.rightButtons.isEmpty
      guard !state.buttons(side).isEmpty else { return .none }
      let target = side.sign * state.containerWidth(side)
      return setOffset(&state, target, animation: animated ? state.settings(side).showAnimation : nil)
    case .hide(let animated):
      return hide(&state, animated: animated)
    case .expand(let side):
      let expansion = state.expansion(side)
      guard state.activeExpansion == nil, expansion.fillOnTrigger else { return .none }
      let target = side.sign * state.containerWidth(side) * expansion.threshold * 2
      return setOffset(&state, target, animation: expansion.triggerAnimation, completion: .finishExpandSwipe)
    case .setOffset(let value, let animated):
      guard value.isFinite else { return .none }
      return setOffset(&state, value, animation: animated ? SwipeAnimation() : nil)
    case .setEditing(let editing):
      state.isEditing = editing
      return editing ? setOffset(&state, 0, animation: nil) : .none
    case .setButtons(let left, let right):
      let effect = setOffset(&state, 0, animation: nil)
      state.leftButtons = left
      state.rightButtons = right
      return effect
    case .setCellWidth(let width):
      state.cellWidth = width.isFinite ? Swift.max(0, width) : state.cellWidth
      return .none
    case .setSafeAreaInsets(let left, let right):
      let clean = { (value: Double) in value.isFinite ? Swift.max(0, value) : 0 }
      let (deltaLeft, deltaRight) = (clean(left) - state.safeAreaInsetLeft, clean(right) - state.safeAreaInsetRight)
      state.safeAreaInsetLeft = clean(left)
      state.safeAreaInsetRight = clean(right)
      if state.offset > 0 && deltaLeft != 0 && !state.leftButtons.isEmpty {
        state.offset += deltaLeft
      } else if state.offset < 0 && deltaRight != 0 && !state.rightButtons.isEmpty {
        state.offset -= deltaRight
      }
      return .none
    case .refreshContent:
      state.contentRevision &+= 1
      return .none
    case .prepareForReuse(let resets):
      return prepareForReuse(&state, resetsConfiguration: resets)
    case .tick(let now):
      return tick(&state, now: now)
    }
  }
}
