// What a display frame shows: the state's geometry at any display time, without sending anything.
extension CarouselState {
  /// The carousel as a display frame at `now` shows it: the running motion moved on to `now` (a motion
  /// that ended by then ended, and the settle after a fling begun), with nothing reported.
  ///
  /// Use it for the geometry of a frame (``layout(at:custom:)`` does); its ``loadedIndices`` and
  /// ``events`` are those of the latest action. A `now` before ``time`` gives the state at ``time``.
  ///
  /// - Complexity: O(1), a copy of the state and a few closed-form steps.
  public func presentation(at now: Double) -> CarouselState {
    var frame = self
    frame.advance(to: now, reporting: false)
    return frame
  }

  /// The scroll offset a frame at display time `now` shows.
  public func scrollOffset(at now: Double) -> Double { presentation(at: now).scrollOffset }

  /// The current item a frame at display time `now` shows; −1 when there are no items.
  public func currentItemIndex(at now: Double) -> Int { presentation(at: now).currentItemIndex }

  /// Cover Flow 2's toggle at display time `now`.
  public func toggle(at now: Double) -> Double { presentation(at: now).toggle }

  /// The indices a frame at display time `now` shows, ascending (``visibleWindow`` at that time).
  ///
  /// A view recycles its item views against this window between actions: the state's own
  /// ``loadedIndices`` and load events follow the window at actions only.
  public func visibleWindow(at now: Double) -> [Int] { presentation(at: now).visibleWindow }

  /// The layout of the items a frame at display time `now` shows: what a view draws at each frame.
  ///
  /// - Parameters:
  ///   - now: the frame's display time, in the time base of the actions' `at`.
  ///   - custom: the transform for ``CarouselType/custom``; the base transform when nil.
  /// - Complexity: O(v log v) for v visible items, independent of the number of items.
  public func layout(at now: Double, custom: CarouselCustomTransform? = nil) -> [CarouselItemLayout] {
    presentation(at: now).layout(custom: custom)
  }

  /// Whether frames after `now` still change what is drawn: a scroll animation or fling runs, autoscroll
  /// still moves, or Cover Flow 2's toggle is still settling. A view keeps its display link running while
  /// this is true.
  public func isAnimating(at now: Double) -> Bool {
    let frame = presentation(at: now)
    if frame.deceleration != nil || (frame.scrollAnimation != nil && !frame.isDragging) { return true }
    if frame.autoscroll != 0, !frame.isDragging, frame.numberOfItems > 0 {
      // Without wrapping, autoscroll rests once it reaches an end.
      if frame.isWrapping || frame.clampedOffset(frame.scrollOffset - frame.autoscroll) != frame.scrollOffset
      {
        return true
      }
    }
    guard frame.type == .coverFlow2, abs(frame.toggle) > CarouselConstants.floatErrorMargin else {
      return false
    }
    return (now - frame.toggleTime) / frame.toggleDuration < 1
  }
}
