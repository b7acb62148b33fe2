/// The duration and curve of one swipe animation slot (show, hide, stretch or trigger).
public struct SwipeAnimation: Equatable, Sendable, Codable {
  /// Seconds; upstream default 0.3.
  public var duration: Double
  /// The curve; upstream default ``Easing/cubicOut`` (the header's "EaseOutBounce" is not what the code does).
  public var easing: Easing

  /// Creates an animation; the defaults are upstream's.
  public init(duration: Double = 0.3, easing: Easing = .cubicOut) {
    self.duration = duration
    self.easing = easing
  }
}

/// What to do when a running swipe animation completes or is interrupted.
public enum SwipeCompletion: Equatable, Sendable, Codable {
  /// Nothing.
  case none
  /// "Click" the expanded button (release past the expansion threshold).
  case clickExpanded(direction: SwipeDirection, index: Int)
  /// End the programmatic expansion and jump back to 0 (``SwipeCellAction/expand(_:at:)``).
  case finishExpandSwipe
}

/// A move of the offset in flight: what it is, not where it has got to.
///
/// The offset a display frame shows is a pure function of this value and the frame's time
/// (``SwipeCellState/offset(at:)``), so frames are never actions. The move ends with one
/// ``SwipeCellAction/animationFinished(id:)``, sent by the timer effect the reducer schedules (or by a
/// view that samples past ``end``); a second one for the same ``id`` is ignored.
public struct SwipeAnimationRun: Equatable, Sendable, Codable {
  /// Names this run in ``SwipeCellAction/animationFinished(id:)``: the cell's count of animations started.
  public var id: Int
  /// The offset it started from.
  public var from: Double
  /// The offset it ends at (before the bounce rule).
  public var to: Double
  /// Its duration and curve.
  public var animation: SwipeAnimation
  /// The display time, in seconds, of the action that started it.
  public var start: Double
  /// What happens when it ends.
  public var completion: SwipeCompletion

  /// Creates a run.
  public init(
    id: Int, from: Double, to: Double, animation: SwipeAnimation, start: Double, completion: SwipeCompletion
  ) {
    self.id = id
    self.from = from
    self.to = to
    self.animation = animation
    self.start = start
    self.completion = completion
  }

  /// The duration in seconds; a negative or non-finite one counts as 0 (the move is over at once).
  public var duration: Double {
    let duration = animation.duration
    return duration.isFinite ? Swift.max(0, duration) : 0
  }

  /// The display time at which the move reaches ``to``.
  public var end: Double { start + duration }

  /// Whether a frame at `now` shows the end of the move: `(now − start) / duration ≥ 1`, as upstream's
  /// last frame. A non-finite `now` counts as the start.
  public func isFinished(at now: Double) -> Bool {
    let duration = duration
    guard duration > 0 else { return true }
    return now.isFinite && (now - start) / duration >= 1
  }

  /// The eased offset at display time `now`, before the bounce rule: `from` at or before the start, `to`
  /// once finished. A non-finite `now` counts as the start.
  public func value(at now: Double) -> Double {
    animation.easing.value(elapsed: now.isFinite ? now - start : 0, duration: duration, from: from, to: to)
  }
}
