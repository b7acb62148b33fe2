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
  /// End the programmatic expansion and jump back to 0 (``SwipeCellAction/expand(_:)``).
  case finishExpandSwipe
}

/// An animation of the offset in flight; its start time is taken from the first tick after it began.
public struct SwipeAnimationRun: Equatable, Sendable, Codable {
  /// The offset it started from.
  public var from: Double
  /// The offset it ends at.
  public var to: Double
  /// Its duration and curve.
  public var animation: SwipeAnimation
  /// The timestamp of its first tick; `nil` until then.
  public var start: Double?
  /// What happens when it ends.
  public var completion: SwipeCompletion
}
