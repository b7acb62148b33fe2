import Foundation

// The display clock (spec 2.10–2.11): one of scroll animation, fling, autoscroll or toggle per tick.
extension CarouselState {
  /// Advances time to `now` (never backwards) and steps whatever is moving.
  mutating func tick(now: Double) {
    guard now.isFinite else { return }
    let now = max(now, time)
    let elapsed = lastTickTime.map { now - $0 } ?? 0
    lastTickTime = now
    time = now
    if let animation = scrollAnimation, !isDragging {
      stepScrollAnimation(animation, now: now)
    } else if let fling = deceleration {
      stepDeceleration(fling, now: now)
    } else if autoscroll != 0, !isDragging {
      let next = clampedOffset(scrollOffset - elapsed * autoscroll)
      if next != scrollOffset {
        scrollOffset = next
        didScroll()
      }
    } else if abs(toggle) > CarouselConstants.floatErrorMargin {
      stepToggle(now: now)
    }
  }

  private mutating func stepScrollAnimation(_ animation: CarouselScrollAnimation, now: Double) {
    let progress = min(1, (now - animation.startTime) / animation.duration)
    let eased = CarouselEasing.easeInOut(progress)
    scrollOffset = animation.start + (animation.end - animation.start) * eased
    didScroll()
    if progress >= 1 {
      scrollAnimation = nil
      emit(.didEndScrollingAnimation)
    }
  }

  private mutating func stepDeceleration(_ fling: CarouselDeceleration, now: Double) {
    let elapsed = min(fling.duration, now - fling.startTime)
    let acceleration = -fling.velocity / fling.duration
    scrollOffset = fling.start + fling.velocity * elapsed + 0.5 * acceleration * pow(elapsed, 2)
    didScroll()
    guard abs(elapsed - fling.duration) < CarouselConstants.floatErrorMargin else { return }
    deceleration = nil
    emit(.didEndDecelerating)
    if (properties.scrollToItemBoundary || isOutOfRange) && autoscroll == 0 {
      let current = currentItemIndex
      let aligned = abs(scrollOffset - Double(current)) < CarouselConstants.floatErrorMargin
      scroll(
        toItem: current,
        duration: aligned ? CarouselConstants.legacySettleDuration : CarouselConstants.scrollDuration)
    } else {
      var difference = scrollOffset.rounded() - scrollOffset
      if difference > 0.5 {
        difference -= 1
      } else if difference < -0.5 {
        difference += 1
      }
      toggleTime = now - CarouselConstants.maxToggleDuration * abs(difference)
      toggle = max(-1, min(1, -difference))
    }
  }

  /// The Cover Flow 2 settle length: longer for slow releases, 0.2–0.4 s.
  public var toggleDuration: Double {
    let velocity = startVelocity
    let share = velocity != 0 ? min(1, max(0, 1 / abs(velocity))) : 1
    return CarouselConstants.minToggleDuration
      + (CarouselConstants.maxToggleDuration - CarouselConstants.minToggleDuration) * share
  }

  private mutating func stepToggle(now: Double) {
    let progress = min(1, (now - toggleTime) / toggleDuration)
    let eased = CarouselEasing.easeInOut(progress)
    toggle = toggle < 0 ? eased - 1 : 1 - eased
    didScroll()
  }
}
