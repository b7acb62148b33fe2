// The core step of the swipe cell: storing and applying an offset (upstream `setSwipeOffset` without
// animation). Everything else ends up here, and so does every sampled display frame.

extension SwipeCellState {
  /// `value` after the bounce rule: beyond the buttons' width M the excess is scaled by
  /// `swipeBounceRate`, or clamped to M when bounces are off.
  func bounced(_ value: Double) -> Double {
    let side = SwipeDirection(offset: value)
    let settings = settings(side)
    let limit = side.sign * containerWidth(side)
    if settings.enableSwipeBounces {
      let beyond = side == .leftToRight ? value > limit : value < limit
      let rate = settings.swipeBounceRate.isFinite ? settings.swipeBounceRate : 1
      return beyond ? limit + (value - limit) * rate : value
    }
    return side == .leftToRight ? Swift.min(value, limit) : Swift.max(value, limit)
  }

  /// Applies `value`: bounce, overlay, threshold target, expansion and phase, emitting events in order
  /// unless `emitting` is false (a sampled frame, which reports nothing).
  mutating func applyOffset(_ value: Double, emitting: Bool = true) {
    offset = bounced(value)
    let side = SwipeDirection(offset: offset)
    let magnitude = Swift.abs(offset)
    guard !buttons(side).isEmpty, magnitude != 0 else {
      activeExpansion = nil
      if isOverlayShown {
        isOverlayShown = false
        if emitting { events.append(.willEndSwiping) }
      }
      targetOffset = 0
      report(.none, emitting: emitting)
      return
    }
    if !isOverlayShown {
      isOverlayShown = true
      if emitting { events.append(.willBeginSwiping) }
    }
    let width = containerWidth(side)
    let settings = settings(side)
    targetOffset =
      settings.keepButtonsSwiped && magnitude > width * settings.threshold ? side.sign * width : 0
    let expansion = expansion(side)
    if expansion.buttonIndex >= 0 && magnitude > width * expansion.threshold {
      activeExpansion = side
      targetOffset = expansion.fillOnTrigger ? side.sign * cellWidth : 0
      report(.expanding(side), emitting: emitting)
    } else {
      activeExpansion = nil
      let progress = width > 0 ? Swift.min(1, magnitude / width) : 1
      if side == .leftToRight { leftProgress = progress } else { rightProgress = progress }
      report(.swiping(side), emitting: emitting)
    }
  }

  /// Stores and reports `phase` unless reporting is suppressed (an animation runs) or nothing changed.
  mutating func report(_ newPhase: SwipePhase, emitting: Bool = true) {
    guard reportsStateChanges, newPhase != phase else { return }
    phase = newPhase
    if emitting { events.append(.stateChanged(newPhase, gestureActive: isGestureActive)) }
  }

  /// The drag filter: 0 toward a side without buttons or not allowed, or against the first direction of
  /// the gesture when opposite swipes are off.
  func filtered(_ value: Double) -> Double {
    let side = SwipeDirection(offset: value)
    let allowed = side == .leftToRight ? allowsLeftToRight : allowsRightToLeft
    guard !buttons(side).isEmpty, allowed else { return 0 }
    if !allowsOppositeSwipe, let first = firstSwipeDirection {
      if first == .leftToRight && value < 0 { return 0 }
      if first == .rightToLeft && value > 0 { return 0 }
    }
    return value
  }
}
