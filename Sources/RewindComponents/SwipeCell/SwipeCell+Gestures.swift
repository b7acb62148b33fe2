import Rewind

// MARK: Gestures

extension SwipeCell {
  /// Whether the pan may begin (upstream `gestureRecognizerShouldBegin`), then its began step.
  func panBegan(
    _ state: inout SwipeCellState, translation: SwipeVector, location: SwipeVector, onButtons: Bool,
    now: Double
  ) -> Effect<SwipeCellAction> {
    guard !state.isEditing, translation.isFinite, Swift.abs(translation.y) <= Swift.abs(translation.x) else {
      return .none
    }
    // The cell as the finger finds it: where a running animation has got to.
    let found = state.presentation(at: now)
    if found.isOverlayShown && onButtons {
      guard state.allowsSwipeWhenTappingButtons else { return .none }
    } else if found.offset == 0 {
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
    // Catching a running animation calls its completion as finished, without jumping to its end.
    let effect = interrupt(&state, at: now, finishing: true)
    state.isGestureActive = true
    state.panStartX = translation.x
    state.panStartOffset = state.offset
    state.firstSwipeDirection = state.offset != 0 ? SwipeDirection(offset: state.offset) : nil
    return effect
  }

  /// The release: an active expansion triggers, otherwise the release policy picks the target.
  func release(_ state: inout SwipeCellState, velocity: Double, now: Double) -> Effect<SwipeCellAction> {
    defer { state.firstSwipeDirection = nil }
    let o = state.offset
    if let expanding = state.activeExpansion {
      let side = SwipeDirection(offset: o)
      let expansion = state.expansion(side)
      return setOffset(
        &state, state.targetOffset, animation: expansion.triggerAnimation,
        completion: .clickExpanded(direction: expanding, index: expansion.buttonIndex), at: now)
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
      ? settings.hideAnimation
      : Swift.abs(o) > Swift.abs(target) ? settings.stretchAnimation : settings.showAnimation
    return setOffset(&state, target, animation: animation, at: now)
  }

  /// Closes the cell with the hide animation of the side the offset shows at `now`.
  func hide(_ state: inout SwipeCellState, animated: Bool, now: Double?) -> Effect<SwipeCellAction> {
    let shown = now.map { state.offset(at: $0) } ?? state.offset
    let animation = animated ? state.settings(SwipeDirection(offset: shown)).hideAnimation : nil
    return setOffset(&state, 0, animation: animation, at: now)
  }

  func prepareForReuse(_ state: inout SwipeCellState, resetsConfiguration: Bool) -> Effect<SwipeCellAction> {
    state.isGestureActive = false
    let effect = setOffset(&state, 0, animation: nil, at: nil)
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
