// The core step of the swipe cell: storing and applying an offset (upstream `setSwipeOffset` without
// animation). Everything else ends up here.

extension SwipeCellState {
  /// Stores `value` as the offset with the bounce rule: beyond the buttons' width M the excess is scaled by
  /// `swipeBounceRate`, or clamped to M when bounces are off.
  mutating func storeOffset(_ value: Double) {
    let side = SwipeDirection(offset: value)
    let settings = settings(side)
    let limit = side.sign * containerWidth(side)
    if settings.enableSwipeBounces {
      let beyond = side == .leftToRight ? value > limit : value < limit
      let rate = settings.swipeBounceRate.isFinite ? settings.swipeBounceRate : 1
      offset = beyond ? limit + (value - limit) * rate : value
    } else {
      offset = side == .leftToRight ? Swift.min(value, limit) : Swift.max(value, limit)
    }
  }

  /// Applies `value`: bounce, overlay, threshold target, expansion and phase, emitting events in order.
  mutating func applyOffset(_ value: Double) {
    storeOffset(value)
    let side = SwipeDirection(offset: offset)
    let magnitude = Swift.abs(offset)
    guard !buttons(side).isEmpty, magnitude != 0 else {
      activeExpansion = nil
      if isOverlayShown {
        isOverlayShown = false
        events.append(.willEndSwiping)
      }
      targetOffset = 0
      report(.none)
      return
    }
    if !isOverlayShown {
      isOverlayShown = true
      events.append(.willBeginSwiping)
    }
    let width = containerWidth(side)
    let settings = settings(side)
    targetOffset = settings.keepButtonsSwiped && magnitude > width * settings.threshold ? side.sign * width : 0
    let expansion = expansion(side)
    if expansion.buttonIndex >= 0 && magnitude > width * expansion.threshold {
      activeExpansion = side
      targetOffset = expansion.fillOnTrigger ? side.sign * cellWidth : 0
      report(.expanding(side))
    } else {
      activeExpansion = nil
      let progress = width > 0 ? Swift.min(1, magnitude / width) : 1
      if side == .leftToRight { leftProgress = progress } else { rightProgress = progress }
      report(.swiping(side))
    }
  }

  /// Stores and reports `phase` unless reporting is suppressed (an animation runs) or nothing changed.
  mutating func report(_ newPhase: SwipePhase) {
    guard reportsStateChanges, newPhase != phase else { return }
    phase = newPhase
    events.append(.stateChanged(newPhase, gestureActive: isGestureActive))
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
