/// A running programmatic scroll: eased from `start` to `end` over `duration` seconds.
public struct CarouselScrollAnimation: Equatable, Sendable, Codable, Hashable {
  /// The offset when the animation began.
  public var start: Double
  /// The offset it ends on.
  public var end: Double
  /// Its length in seconds (0.4 for `animated:` calls, 0.01 for upstream's legacy settle).
  public var duration: Double
  /// The time it was requested; upstream starts scroll animations at the call, not the next tick.
  public var startTime: Double
}

/// A running fling: constant deceleration from `start` that stops exactly on `end` after `duration`.
public struct CarouselDeceleration: Equatable, Sendable, Codable, Hashable {
  /// The offset at release.
  public var start: Double
  /// The offset it stops on.
  public var end: Double
  /// The release velocity, in items per second.
  public var velocity: Double
  /// Seconds until it stops: `|end − start| / |velocity / 2|`.
  public var duration: Double
  /// The time of release.
  public var startTime: Double
}
