import Rewind

/// The swipe cell reducer: MGSwipeTableCell's behaviour over ``SwipeCellState`` and ``SwipeCellAction``.
///
/// The app's delegate answers live here as pure closures (configuration, not state). Delegate callbacks
/// come out as ``SwipeCellState/events``, cleared at the start of every action.
///
/// Animations are values in state, not streams of frames: a release stores where the offset goes, from
/// when, and how; a view samples ``SwipeCellState/offset(at:)`` at each display frame, and the reducer
/// schedules one ``SwipeCellAction/animationFinished(id:)`` for the animation's end on the clock
/// dependency (`DependencyValues.clock`), so the end (and the click or close it brings) is one event
/// caused by the gesture.
///
/// ```swift
/// let store = Store(initialState: SwipeCellState(right: [.init(title: "Delete", width: 90)]), reducer: SwipeCell())
/// store.send(.panBegan(translation: .init(x: -1), at: 0))
/// store.send(.panChanged(translation: .init(x: -120), at: 0.1))
/// store.send(.panEnded(translation: .init(x: -120), velocity: .zero, at: 0.2))
/// store.state.offset(at: 0.35)   // a frame halfway through the 0.3 s move to −90
/// // 0.3 s later the timer effect sends .animationFinished(id: 1): the cell is open at −90.
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

  /// Applies `action` to `state`, then schedules (or cancels) the timer of the animation it started (or
  /// stopped); see the type's documentation for the rules.
  public func reduce(into state: inout SwipeCellState, action: SwipeCellAction) -> Effect<SwipeCellAction> {
    let running = state.animation?.id
    let effect = reduceWithoutTimer(into: &state, action: action)
    state.checkInvariantsIfEnabled()
    let timerID = SwipeCellTimerID(cellID: state.cellID)
    if case .resumeAnimation(let now) = action, let run = state.animation {
      return effect.merge(
        with: ComponentTimer.finish(run, at: now, send: .animationFinished(id: run.id), id: timerID))
    }
    guard state.animation?.id != running else { return effect }
    if let run = state.animation {
      return effect.merge(
        with: ComponentTimer.finish(run, at: run.start, send: .animationFinished(id: run.id), id: timerID))
    }
    // Ended early (interrupted, or finished by a view): its timer would only send a finish that is
    // ignored, yet recorded. (When the timer itself sent the finish, cancelling it is harmless.)
    return effect.merge(with: .cancel(id: timerID))
  }

  /// The reduction without timers: a swipe table schedules its rows' timers itself, named by row.
  func reduceWithoutTimer(into state: inout SwipeCellState, action: SwipeCellAction) -> Effect<
    SwipeCellAction
  > {
    state.events.removeAll(keepingCapacity: true)
    switch action {
    case .panBegan(let translation, let location, let onButtons, let now):
      return panBegan(&state, translation: translation, location: location, onButtons: onButtons, now: now)
    case .panChanged(let translation, let now):
      guard state.isGestureActive, translation.x.isFinite else { return .none }
      let raw = state.panStartOffset + (translation.x - state.panStartX)
      if state.firstSwipeDirection == nil { state.firstSwipeDirection = SwipeDirection(offset: raw) }
      return setOffset(&state, state.filtered(raw), animation: nil, at: now)
    case .panEnded(_, let velocity, let now):
      guard state.isGestureActive else { return .none }
      state.isGestureActive = false
      return release(&state, velocity: velocity.x.isFinite ? velocity.x : 0, now: now)
    case .cancelGesture(let now):
      guard state.isGestureActive else { return .none }
      state.isGestureActive = false
      state.firstSwipeDirection = nil
      return state.offset == 0 ? .none : hide(&state, animated: true, now: now)
    case .tapContent(let location, let now):
      guard state.presentation(at: now).isOverlayShown, !state.isGestureActive, shouldHideOnTap(location)
      else {
        return .none
      }
      return hide(&state, animated: true, now: now)
    case .tapButton(let index, let side, let now):
      guard state.buttons(side).indices.contains(index) else {
        return .diagnostic(
          Diagnostic(
            kind: .invalidInput,
            message:
              "SwipeCell: tap on button \(index) of \(side), which has \(state.buttons(side).count) buttons"))
      }
      guard state.presentation(at: now).isOverlayShown else { return .none }
      return click(&state, SwipeButtonTap(index: index, direction: side, fromExpansion: false), now: now)
    case .show(let side, let animated, let now):
      state.allowsLeftToRight = !state.leftButtons.isEmpty
      state.allowsRightToLeft = !state.rightButtons.isEmpty
      guard !state.buttons(side).isEmpty else { return .none }
      let target = side.sign * state.containerWidth(side)
      return setOffset(
        &state, target, animation: animated ? state.settings(side).showAnimation : nil, at: now)
    case .hide(let animated, let now):
      return hide(&state, animated: animated, now: now)
    case .expand(let side, let now):
      let expansion = state.expansion(side)
      guard state.activeExpansion == nil, expansion.fillOnTrigger else { return .none }
      let target = side.sign * state.containerWidth(side) * expansion.threshold * 2
      return setOffset(
        &state, target, animation: expansion.triggerAnimation, completion: .finishExpandSwipe, at: now)
    case .setOffset(let value, let animated, let now):
      guard value.isFinite else { return .none }
      return setOffset(&state, value, animation: animated ? SwipeAnimation() : nil, at: now)
    case .setEditing(let editing):
      state.isEditing = editing
      return editing ? setOffset(&state, 0, animation: nil, at: nil) : .none
    case .setButtons(let left, let right):
      let effect = setOffset(&state, 0, animation: nil, at: nil)
      state.leftButtons = left
      state.rightButtons = right
      return effect
    case .setCellWidth(let width):
      state.cellWidth = width.isFinite ? Swift.max(0, width) : state.cellWidth
      return .none
    case .setSafeAreaInsets(let left, let right):
      let clean = { (value: Double) in value.isFinite ? Swift.max(0, value) : 0 }
      let (deltaLeft, deltaRight) = (
        clean(left) - state.safeAreaInsetLeft, clean(right) - state.safeAreaInsetRight
      )
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
    case .animationFinished(let id):
      guard let run = state.animation, run.id == id else { return .none }
      return finish(&state, run)
    case .resumeAnimation(let now):
      // An animation over at `now` ends; one still running keeps going (its timer is restarted above).
      guard let run = state.animation, run.isFinished(at: now) else { return .none }
      return finish(&state, run)
    }
  }
}

/// Names a swipe cell's animation timer among a store's effects.
struct SwipeCellTimerID: Hashable, Sendable {
  var cellID: String
}
