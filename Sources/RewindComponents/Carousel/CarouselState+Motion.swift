import Foundation

// Motion as a function of time (spec 2.10–2.11 without a display clock). Upstream steps its motion on
// every display frame: one of the scroll animation, the fling, autoscroll or the toggle settle per frame.
// Each of those steps is a closed form of the time since the motion began, so here the state keeps the
// motion and `advance(to:)` evaluates it at any time: the offset is the one a frame at that time shows,
// and the events of a motion's end come out once, when the time passes it (or the timer says so).
extension CarouselState {
  /// Brings the state to display time `now`: ends every motion that has ended by then (at its own end
  /// time, starting what follows, such as the settle after a fling), then moves on to `now`.
  ///
  /// With `reporting`, the scroll passes reload the visible window and report their events; without, the
  /// state is a frame's view of the carousel (``presentation(at:)``), cheap enough for every frame.
  /// Time never moves backwards; a non-finite `now` is ignored.
  mutating func advance(to now: Double, reporting: Bool) {
    guard now.isFinite else { return }
    // A fling's end starts at most one settle, and a settle starts nothing: two rounds at most.
    for _ in 0..<4 {
      guard runningMotionHasFinished(at: now) else { break }
      finishRunningMotion(reporting: reporting)
    }
    evolve(to: now, reporting: reporting)
  }

  /// Whether the running scroll animation (not paused by a drag) or fling ends at or before `now`.
  func runningMotionHasFinished(at now: Double) -> Bool {
    if let animation = scrollAnimation, !isDragging { return animation.isFinished(at: now) }
    if let fling = deceleration { return fling.isFinished(at: now) }
    return false
  }

  /// The id of the running scroll animation or fling, if any (a scroll animation paused by a drag counts).
  public var runningAnimationID: Int? { scrollAnimation?.id ?? deceleration?.id }

  /// The display time at which the running scroll animation or fling ends; nil when nothing runs, or while
  /// a drag pauses a scroll animation.
  public var runningAnimationEndTime: Double? {
    if let animation = scrollAnimation { return isDragging ? nil : animation.endTime }
    return deceleration?.endTime
  }

  /// Moves from ``time`` to `now` without ending anything: the part of upstream's frame step that runs
  /// between two events. The order is upstream's: the scroll animation (unless dragging), else the fling,
  /// else autoscroll (unless dragging), else the toggle settle.
  private mutating func evolve(to now: Double, reporting: Bool) {
    guard now > time else { return }
    let from = time
    time = now
    if let animation = scrollAnimation, !isDragging {
      let position = animation.position(at: now)
      let crossing = lastIndexCrossing(
        from: animation.position(at: from), to: position, time: animation.time(reaching:))
      scrollOffset = position
      didScroll(reporting: reporting, cause: .motion(crossing))
    } else if let fling = deceleration {
      let position = fling.position(at: now)
      let crossing = lastIndexCrossing(
        from: fling.position(at: from), to: position, time: fling.time(reaching:))
      scrollOffset = position
      didScroll(reporting: reporting, cause: .motion(crossing))
    } else if autoscroll != 0, !isDragging {
      // Upstream steps `clampedOffset(x − Δt·speed)` per frame. Over a span that is one step from the
      // clamped offset: clamping first makes an offset past an end enter the range when autoscroll
      // starts (upstream: on its first frame), and then the clamp (or the wrap) commutes with moving on.
      let origin = clampedOffset(scrollOffset)
      let speed = autoscroll
      let raw = origin - (now - from) * speed
      let next = clampedOffset(raw)
      guard next != scrollOffset else { return }
      let crossing = lastIndexCrossing(from: origin, to: raw) { from + (origin - $0) / speed }
      scrollOffset = next
      didScroll(reporting: reporting, cause: .motion(crossing))
    } else if abs(toggle) > CarouselConstants.floatErrorMargin {
      let progress = min(1, (now - toggleTime) / toggleDuration)
      let eased = CarouselEasing.easeInOut(progress)
      toggle = toggle < 0 ? eased - 1 : 1 - eased
      didScroll(reporting: reporting)
    }
  }

  /// Ends the running scroll animation or fling at its own end time (never before ``time``): the offset
  /// moves to its final value, its end is reported, and a fling's settle begins.
  mutating func finishRunningMotion(reporting: Bool) {
    if let animation = scrollAnimation, !isDragging {
      let from = time
      time = max(time, animation.endTime)
      let position = animation.finalPosition
      let crossing = lastIndexCrossing(
        from: animation.position(at: from), to: position, time: animation.time(reaching:))
      scrollOffset = position
      didScroll(reporting: reporting, cause: .motion(crossing))
      scrollAnimation = nil
      if reporting { emit(.didEndScrollingAnimation) }
    } else if let fling = deceleration {
      let from = time
      time = max(time, fling.endTime)
      let position = fling.finalPosition
      let crossing = lastIndexCrossing(
        from: fling.position(at: from), to: position, time: fling.time(reaching:))
      scrollOffset = position
      didScroll(reporting: reporting, cause: .motion(crossing))
      deceleration = nil
      if reporting { emit(.didEndDecelerating) }
      settleAfterFling(reporting: reporting)
    }
  }

  /// After a fling: realign on the current item (as on release), or start Cover Flow 2's toggle settle.
  private mutating func settleAfterFling(reporting: Bool) {
    if (properties.scrollToItemBoundary || isOutOfRange) && autoscroll == 0 {
      let current = currentItemIndex
      let aligned = abs(scrollOffset - Double(current)) < CarouselConstants.floatErrorMargin
      startScrollAnimation(
        by: minScrollDistance(from: scrollOffset, to: Double(current)),
        duration: aligned ? CarouselConstants.legacySettleDuration : CarouselConstants.scrollDuration,
        reporting: reporting)
    } else {
      var difference = scrollOffset.rounded() - scrollOffset
      if difference > 0.5 {
        difference -= 1
      } else if difference < -0.5 {
        difference += 1
      }
      toggleTime = time - CarouselConstants.maxToggleDuration * abs(difference)
      toggle = max(-1, min(1, -difference))
    }
  }

  /// Where the current item last changed as one monotonic motion went from raw offset `from` to `to`:
  /// the half-item boundary nearest `to` that it crossed and that changes the clamped index, with the
  /// indices on either side and the time `time(boundary)` at which the motion passed it.
  ///
  /// Upstream notes the change on the first frame after it, against the previous frame's index; here the
  /// exact crossing is used, so the Cover Flow 2 toggle does not depend on when frames (or events)
  /// happened to be sampled.
  func lastIndexCrossing(
    from: Double, to: Double, time: (Double) -> Double
  ) -> CarouselIndexCrossing? {
    guard from != to, from.isFinite, to.isFinite, numberOfItems > 0 else { return nil }
    let lastBoundary = Double(numberOfItems) - 1.5
    let boundary: Double
    if to > from {
      var candidate = (to - 0.5).rounded(.down) + 0.5
      if !isWrapping { candidate = min(candidate, lastBoundary) }
      guard candidate > from, isWrapping || candidate >= 0.5 else { return nil }
      boundary = candidate
    } else {
      var candidate = (to - 0.5).rounded(.up) + 0.5
      if !isWrapping { candidate = max(candidate, 0.5) }
      guard candidate < from, isWrapping || candidate <= lastBoundary else { return nil }
      boundary = candidate
    }
    let below = clampedIndex(roundedIndex(boundary - 0.5))
    let above = clampedIndex(roundedIndex(boundary + 0.5))
    return CarouselIndexCrossing(
      time: time(boundary), from: to > from ? below : above, to: to > from ? above : below)
  }

  /// The Cover Flow 2 settle length: longer for slow releases, 0.2–0.4 s.
  public var toggleDuration: Double {
    let velocity = startVelocity
    let share = velocity != 0 ? min(1, max(0, 1 / abs(velocity))) : 1
    return CarouselConstants.minToggleDuration
      + (CarouselConstants.maxToggleDuration - CarouselConstants.minToggleDuration) * share
  }
}

/// Why a scroll pass runs: an action (a jump, a drag step, a change of data or layout), or a motion's step.
enum CarouselScrollCause {
  /// An action; a change of the current item is dated to the state's time.
  case action
  /// A step of a scroll animation, fling or autoscroll, with the last item boundary it crossed, if any.
  case motion(CarouselIndexCrossing?)
}

/// A motion passing a half-item boundary: the current item changed from `from` to `to` at `time`.
struct CarouselIndexCrossing {
  var time: Double
  var from: Int
  var to: Int
}
