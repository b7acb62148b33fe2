import Foundation

// The scroll pass, the offset setter and programmatic scrolling (spec 2.8–2.10).
extension CarouselState {
  mutating func emit(_ event: CarouselEvent) { events.append(event) }

  /// Ends a running scroll animation or fling early, reporting its end.
  ///
  /// Deviation: upstream stops them silently (touch-down, the offset setter, a new scroll), leaving a
  /// `willBegin…` without its `didEnd…`; here every begin is matched by exactly one end.
  mutating func interruptMotion() {
    if scrollAnimation != nil {
      scrollAnimation = nil
      emit(.didEndScrollingAnimation)
    }
    if deceleration != nil {
      deceleration = nil
      emit(.didEndDecelerating)
    }
  }

  /// Upstream's `scrollOffset` setter: stops motion, and runs a scroll pass if the value changed.
  mutating func setOffset(_ offset: Double) {
    interruptMotion()
    if offset != scrollOffset {
      scrollOffset = offset
      didScroll()
    }
  }

  /// Scrolls by `delta` items: an eased animation over `duration` from ``time``, or a jump when `duration`
  /// is 0.
  mutating func scroll(by delta: Double, duration: Double) {
    guard delta.isFinite else { return }
    if duration > 0 {
      interruptMotion()
      startScrollAnimation(by: delta, duration: duration, reporting: true)
    } else {
      setOffset(scrollOffset + delta)
    }
  }

  /// Starts a scroll animation of `delta` items from the current offset at ``time``; a non-wrapping
  /// carousel's end is clamped into range.
  mutating func startScrollAnimation(by delta: Double, duration: Double, reporting: Bool) {
    var end = scrollOffset + delta
    if !isWrapping { end = clampedOffset(end) }
    animationCount &+= 1
    scrollAnimation = CarouselScrollAnimation(
      id: animationCount, start: scrollOffset, end: end, duration: duration, startTime: time)
    if reporting { emit(.willBeginScrollingAnimation) }
  }

  /// Scrolls to `offset` along the shortest path.
  mutating func scroll(toOffset offset: Double, duration: Double) {
    scroll(by: minScrollDistance(from: scrollOffset, to: offset), duration: duration)
  }

  /// Scrolls to item `index`, not pre-clamped (a wrapped target is normalised by the scroll pass).
  mutating func scroll(toItem index: Int, duration: Double) {
    scroll(toOffset: Double(index), duration: duration)
  }

  /// Scrolls by whole items: animated from the nearest boundary, or a jump from the previous index.
  mutating func scroll(byItems count: Int, duration: Double) {
    if duration > 0 {
      let x = scrollOffset
      let k = Double(count)
      let delta = count > 0 ? floor(x) + k - x : (count < 0 ? ceil(x) + k - x : x.rounded() - x)
      scroll(by: delta, duration: duration)
    } else {
      let (sum, overflow) = previousItemIndex.addingReportingOverflow(count)
      let target = overflow ? (count > 0 ? Int.max : Int.min) : sum
      setOffset(Double(clampedIndex(target)))
    }
  }

  /// The central step after every offset change: clamp, track the index, reload the window, report.
  ///
  /// - Parameters:
  ///   - reporting: whether to reload the window and report `didScroll` and index changes; a frame's
  ///     view of the state (``presentation(at:)``) does neither.
  ///   - cause: an action, whose change of the current item is dated to ``time``, or a step of a motion,
  ///     with the last item boundary it crossed, if any.
  mutating func didScroll(reporting: Bool = true, cause: CarouselScrollCause = .action) {
    if isWrapping || !properties.bounces {
      scrollOffset = clampedOffset(scrollOffset)
    } else {
      let lower = -properties.bounceDistance
      let upper = Double(max(numberOfItems - 1, 0)) + properties.bounceDistance
      if scrollOffset < lower {
        scrollOffset = lower
        startVelocity = 0
      } else if scrollOffset > upper {
        scrollOffset = upper
        startVelocity = 0
      }
    }
    let current = currentItemIndex
    switch cause {
    case .action:
      let difference = minScrollDistance(fromIndex: current, toIndex: previousItemIndex)
      if difference != 0 {
        toggleTime = time
        toggle = Double(max(-1, min(1, difference)))
      }
    case .motion(let crossing?):
      // Upstream compares the index with the previous frame's; a motion compares across the last
      // boundary it crossed, so the result does not depend on how often it was sampled.
      let difference = minScrollDistance(fromIndex: crossing.to, toIndex: crossing.from)
      if difference != 0 {
        toggleTime = crossing.time
        toggle = Double(max(-1, min(1, difference)))
      }
    case .motion(nil):
      break
    }
    if reporting { updateLoadedItems() }
    overwriteToggleFromCentreItem()
    if reporting {
      if abs(scrollOffset - previousScrollOffset) > CarouselConstants.floatErrorMargin { emit(.didScroll) }
      if previousItemIndex != current { emit(.currentItemIndexDidChange(current)) }
    }
    previousScrollOffset = scrollOffset
    previousItemIndex = current
  }

  /// While moving on its own or out of range, Cover Flow 2's toggle follows the item at the centre.
  ///
  /// Upstream derives it from whichever item its transform loop visits last (dictionary order, spec
  /// 2.11 ⚠); here it comes from the current item, the one nearest the centre.
  mutating func overwriteToggleFromCentreItem() {
    let count = numberOfItems
    guard count > 0 else { return }
    let outOfRange = !isWrapping && (scrollOffset < 0 || scrollOffset >= Double(count - 1))
    let moving =
      deceleration != nil || (scrollAnimation != nil && !isDragging && !didDrag)
      || (autoscroll != 0 && !isDragging)
    guard moving || outOfRange else { return }
    let offset = offset(forItem: currentItemIndex)
    let clamped = max(-1, min(1, offset))
    if offset > 0 {
      toggle = offset <= 0.5 ? -clamped : 1 - clamped
    } else {
      toggle = offset > -0.5 ? -clamped : -1 - clamped
    }
  }

  /// Upstream's layout pass: settle on the current item (always a 0.4 s animation, even in place), or
  /// clamp the offset, then run the scroll pass.
  mutating func layOut() {
    previousScrollOffset = scrollOffset
    if scrollAnimation == nil, deceleration == nil, autoscroll == 0 {
      let current = currentItemIndex
      if properties.scrollToItemBoundary, current != -1 {
        scroll(toItem: current, duration: CarouselConstants.scrollDuration)
      } else {
        scrollOffset = clampedOffset(scrollOffset)
      }
    }
    didScroll()
  }
}
