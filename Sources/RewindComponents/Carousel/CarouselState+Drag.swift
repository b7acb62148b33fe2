import Foundation

// Drag, release and fling (spec 2.11).
extension CarouselState {
  /// Starts a drag if scrolling is enabled, there are items and the drag is along the axis; a second
  /// begin while dragging is ignored.
  ///
  /// - Returns: whether the drag began.
  mutating func beginDrag(translation: Double, perpendicular: Double) -> Bool {
    guard properties.isScrollEnabled, numberOfItems > 0, hasValidGeometry, !isDragging else { return false }
    let along = translation.isFinite ? translation : 0
    let across = perpendicular.isFinite ? perpendicular : 0
    if properties.ignorePerpendicularSwipes, abs(along) < abs(across) { return false }
    interruptMotion()
    isDragging = true
    didDrag = false
    previousTranslation = along
    emit(.willBeginDragging)
    return true
  }

  /// Moves by the translation since the last step, with the rubber band past the ends.
  mutating func moveDrag(translation: Double, velocity: Double) {
    guard isDragging else { return }
    let translation = translation.isFinite ? translation : previousTranslation
    let velocity = velocity.isFinite ? velocity : 0
    var factor = 1.0
    if !isWrapping, properties.bounces {
      let bounce = properties.bounceDistance
      factor = bounce > 0 ? 1 - min(abs(scrollOffset - clampedOffset(scrollOffset)), bounce) / bounce : 1
    }
    startVelocity = -velocity * factor * properties.scrollSpeed / itemWidth
    if !startVelocity.isFinite { startVelocity = 0 }
    scrollOffset -= (translation - previousTranslation) * factor * offsetMultiplier / itemWidth
    if !scrollOffset.isFinite { scrollOffset = previousScrollOffset }
    previousTranslation = translation
    didScroll()
  }

  /// How far a fling at `velocity` items/s travels: `−v²/(2·acc)` with `acc = −v·30·(1 − rate)`.
  public func decelerationDistance(velocity: Double) -> Double {
    let acceleration =
      -velocity * CarouselConstants.decelerationMultiplier * (1 - properties.decelerationRate)
    return -velocity * velocity / (2 * acceleration)
  }

  /// Whether a release at the current velocity flings.
  var shouldDecelerate: Bool {
    abs(startVelocity) > CarouselConstants.scrollSpeedThreshold
      && abs(decelerationDistance(velocity: startVelocity)) > CarouselConstants.decelerateThreshold
  }

  /// Whether a release without a fling moves on to the next item in the drag's direction.
  var shouldScroll: Bool {
    abs(startVelocity) > CarouselConstants.scrollSpeedThreshold
      && abs(scrollOffset - Double(currentItemIndex)) > CarouselConstants.scrollDistanceThreshold
  }

  /// Lifts the finger: fling, or settle on an item.
  ///
  /// A scroll animation requested during the drag (which the drag paused) ends first: the release decides
  /// where the carousel goes next.
  mutating func endDrag() {
    guard isDragging else { return }
    interruptMotion()
    isDragging = false
    didDrag = true
    if shouldDecelerate {
      didDrag = false
      startDecelerating()
    }
    emit(.didEndDragging(willDecelerate: deceleration != nil))
    if deceleration != nil {
      emit(.willBeginDecelerating)
    } else if (properties.scrollToItemBoundary || isOutOfRange) && autoscroll == 0 {
      let current = currentItemIndex
      if abs(scrollOffset - Double(current)) < CarouselConstants.floatErrorMargin {
        scroll(toItem: current, duration: CarouselConstants.legacySettleDuration)
      } else if shouldScroll {
        let step = startVelocity > 0 ? 1 : (startVelocity < 0 ? -1 : 0)
        scroll(toItem: current + step, duration: CarouselConstants.scrollDuration)
      } else {
        scroll(toItem: current, duration: CarouselConstants.scrollDuration)
      }
    }
  }

  /// Whether the offset lies past either end of a non-wrapping carousel.
  var isOutOfRange: Bool {
    abs(scrollOffset - clampedOffset(scrollOffset)) > CarouselConstants.floatErrorMargin
  }

  /// Plans the fling: its end (paged, on a boundary, clamped) and its duration.
  ///
  /// A fling whose end is not finite (a deceleration rate of 1 while wrapping) does not start.
  mutating func startDecelerating() {
    let distance = decelerationDistance(velocity: startVelocity)
    let start = scrollOffset
    var end = start + distance
    if properties.isPagingEnabled {
      end = distance > 0 ? ceil(start) : floor(start)
    } else if properties.stopAtItemBoundary {
      end = distance > 0 ? ceil(end) : floor(end)
    }
    if !isWrapping {
      if properties.bounces {
        end = max(-properties.bounceDistance, min(Double(numberOfItems - 1) + properties.bounceDistance, end))
      } else {
        end = clampedOffset(end)
      }
    }
    let travel = end - start
    let duration = abs(travel) / abs(0.5 * startVelocity)
    guard travel != 0, end.isFinite, duration.isFinite, duration > 0 else { return }
    animationCount &+= 1
    deceleration = CarouselDeceleration(
      id: animationCount, start: start, end: end, velocity: startVelocity, duration: duration, startTime: time
    )
  }
}
