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
            kind: .elementMissing,
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

// MARK: Gestures

extension SwipeCell {
  /// Whether the pan may begin (upstream `gestureRecognizerShouldBegin`), then its began step.
  func panBegan(
    _ state: inout SwipeCellState, translation: SwipeVector, location: SwipeVector, onButtons: Bool
  ) -> Effect<SwipeCellAction> {
    guard !state.isEditing, translation.isFinite, Swift.abs(translation.y) <= Swift.abs(translation.x) else {
      return .none
    }
    if state.isOverlayShown && onButtons {
      guard state.allowsSwipeWhenTappingButtons else { return .none }
    } else if state.offset == 0 {
      if let canSwipe {
        state.allowsLeftToRight = canSwipe(.leftToRight, location)
        state.allowsRightToLeft = canSwipe(.rightToLeft, location)
      } else {
        state.allowsLeftToRight = !state.leftButtons.isEmpty
        state.allowsRightToLeft = !state.rightButtons.isEmpty
      }
      let accepted =
        (state.allowsLeftToRight && translation.x > 0) || (state.allowsRightToLeft && translation.x < 0)
      guard accepted else { return .none }
    }
    // Finishing a running animation calls its completion as finished, without jumping to its end.
    var effect = Effect<SwipeCellAction>.none
    if let running = state.animation {
      state.animation = nil
      effect = complete(&state, running.completion, finished: true)
    }
    state.isGestureActive = true
    state.panStartX = translation.x
    state.panStartOffset = state.offset
    state.firstSwipeDirection = state.offset != 0 ? SwipeDirection(offset: state.offset) : nil
    return effect
  }

  /// The release: an active expansion triggers, otherwise the release policy picks the target.
  func release(_ state: inout SwipeCellState, velocity: Double) -> Effect<SwipeCellAction> {
    defer { state.firstSwipeDirection = nil }
    let o = state.offset
    if let expanding = state.activeExpansion {
      let side = SwipeDirection(offset: o)
      let expansion = state.expansion(side)
      return setOffset(
        &state, state.targetOffset, animation: expansion.triggerAnimation,
        completion: .clickExpanded(direction: expanding, index: expansion.buttonIndex))
    }
    var target = state.targetOffset
    switch releasePolicy {
    case .momentum(let inertia):
      if velocity > inertia {
        if o < 0 {
          target = 0
        } else if !state.leftButtons.isEmpty && state.leftSettings.keepButtonsSwiped {
          target = state.containerWidth(.leftToRight)
        }
      } else if velocity < -inertia {
        if o > 0 {
          target = 0
        } else if !state.rightButtons.isEmpty && state.rightSettings.keepButtonsSwiped {
          target = -state.containerWidth(.rightToLeft)
        }
      }
    case .snapping(let trigger):
      if o < -trigger {
        target = -state.containerWidth(.rightToLeft)
      } else if o > trigger {
        target = state.containerWidth(.leftToRight)
      } else {
        target = 0
      }
    }
    target = state.filtered(target)
    let settings = state.settings(SwipeDirection(offset: o))
    let animation =
      target == 0
      ? settings.hideAnimation : Swift.abs(o) > Swift.abs(target) ? settings.stretchAnimation : settings.showAnimation
    return setOffset(&state, target, animation: animation)
  }

  func hide(_ state: inout SwipeCellState, animated: Bool) -> Effect<SwipeCellAction> {
    let animation = animated ? state.settings(SwipeDirection(offset: state.offset)).hideAnimation : nil
    return setOffset(&state, 0, animation: animation)
  }

  func prepareForReuse(_ state: inout SwipeCellState, resetsConfiguration: Bool) -> Effect<SwipeCellAction> {
    state.isGestureActive = false
    let effect = setOffset(&state, 0, animation: nil)
    state.report(.none)
    state.firstSwipeDirection = nil
    if resetsConfiguration {
      state.leftButtons = []
      state.rightButtons = []
      state.leftSettings = SwipeSettings()
      state.rightSettings = SwipeSettings()
      state.leftExpansion = SwipeExpansionSettings()
      state.rightExpansion = SwipeExpansionSettings()
    }
    state.allowsSwipeWhenTappingButtons = true
    state.allowsOppositeSwipe = true
    state.preservesSelectionStatus = false
    return effect
  }
}

// MARK: Animation and clicks

extension SwipeCell {
  /// Upstream `setSwipeOffset(v, animation:completion:)`: interrupts the running animation (its completion
  /// gets `finished = false`), then jumps or starts animating.
  func setOffset(
    _ state: inout SwipeCellState, _ value: Double, animation: SwipeAnimation?, completion: SwipeCompletion = .none
  ) -> Effect<SwipeCellAction> {
    var effect = Effect<SwipeCellAction>.none
    if let running = state.animation {
      state.animation = nil
      effect = complete(&state, running.completion, finished: false)
    }
    guard let animation else {
      state.applyOffset(value)
      return effect.merge(with: complete(&state, completion, finished: true))
    }
    state.animation = SwipeAnimationRun(
      from: state.offset, to: value, animation: animation, start: nil, completion: completion)
    return effect
  }

  /// One display frame: the first tick fixes the start, so it always yields `from`.
  func tick(_ state: inout SwipeCellState, now: Double) -> Effect<SwipeCellAction> {
    guard var run = state.animation, now.isFinite else { return .none }
    let start = run.start ?? now
    run.start = start
    let elapsed = Swift.max(0, now - start)
    let duration = run.animation.duration.isFinite ? run.animation.duration : 0
    let done = duration <= 0 || elapsed / duration >= 1
    state.animation = done ? nil : run
    state.applyOffset(run.animation.easing.value(elapsed: elapsed, duration: duration, from: run.from, to: run.to))
    return done ? complete(&state, run.completion, finished: true) : .none
  }

  func complete(_ state: inout SwipeCellState, _ completion: SwipeCompletion, finished: Bool) -> Effect<SwipeCellAction> {
    switch completion {
    case .none:
      return .none
    case .clickExpanded(let side, let index):
      guard finished, state.buttons(side).indices.contains(index) else { return .none }
      return click(&state, SwipeButtonTap(index: index, direction: side, fromExpansion: true))
    case .finishExpandSwipe:
      state.activeExpansion = nil
      return setOffset(&state, 0, animation: nil)
    }
  }

  /// A button click: its own callback, then the app's handler; either asking to hide hides the cell.
  func click(_ state: inout SwipeCellState, _ tap: SwipeButtonTap) -> Effect<SwipeCellAction> {
    var autoHide = false
    if let callback = state.buttons(tap.direction)[tap.index].callbackAutoHide {
      state.events.append(.buttonCallback(index: tap.index, direction: tap.direction))
      autoHide = callback
    }
    state.events.append(.buttonTapped(tap))
    autoHide = tappedButton(tap) || autoHide
    guard autoHide else { return .none }
    if tap.fromExpansion {
      state.activeExpansion = nil
      return setOffset(&state, 0, animation: nil)
    }
    return hide(&state, animated: true)
  }
}
