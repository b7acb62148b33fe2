import Foundation

/// A programmatic scroll: eased from `start` to `end` over `duration` seconds from `startTime`.
///
/// It is what the scroll is, not where it has got to: the offset a frame shows at display time `t` is
/// ``position(at:)``, so frames are never actions.
public struct CarouselScrollAnimation: Equatable, Sendable, Codable, Hashable {
  /// Names this animation in ``CarouselAction/animationFinished(id:)``.
  public var id: Int
  /// The offset when the animation began.
  public var start: Double
  /// The offset it ends on (unwrapped; the scroll pass wraps or clamps it).
  public var end: Double
  /// Its length in seconds (0.4 for `animated:` calls, 0.01 for upstream's legacy settle).
  public var duration: Double
  /// The display time of the action that requested it; upstream starts scroll animations at the call.
  public var startTime: Double

  /// The display time at which it reaches ``end``.
  public var endTime: Double { startTime + duration }

  /// Whether a frame at `now` shows its end: `(now − startTime) / duration ≥ 1`, upstream's last step.
  public func isFinished(at now: Double) -> Bool { (now - startTime) / duration >= 1 }

  /// The offset at display time `now`, before the scroll pass: `start + (end − start)·ease(τ)` with
  /// `τ = min(1, (now − startTime) / duration)` (spec 2.10).
  public func position(at now: Double) -> Double { position(progress: min(1, (now - startTime) / duration)) }

  /// The offset when it has ended: the formula at τ = 1, so the same number upstream's last step gives.
  public var finalPosition: Double { position(progress: 1) }

  func position(progress: Double) -> Double {
    start + (end - start) * CarouselEasing.easeInOut(max(0, progress))
  }

  /// The display time at which the raw offset passes `offset`, which must lie between start and end.
  func time(reaching offset: Double) -> Double {
    let span = end - start
    guard span != 0 else { return startTime }
    return startTime + CarouselEasing.inverseEaseInOut((offset - start) / span) * duration
  }
}

/// A fling: constant deceleration from `start` at `velocity` that stops exactly on `end` after `duration`.
public struct CarouselDeceleration: Equatable, Sendable, Codable, Hashable {
  /// Names this fling in ``CarouselAction/animationFinished(id:)``.
  public var id: Int
  /// The offset at release.
  public var start: Double
  /// The offset it stops on.
  public var end: Double
  /// The release velocity, in items per second.
  public var velocity: Double
  /// Seconds until it stops: `|end − start| / |velocity / 2|`.
  public var duration: Double
  /// The display time of the release.
  public var startTime: Double

  /// The display time at which it stops.
  public var endTime: Double { startTime + duration }

  /// Whether a frame at `now` shows its end: upstream's `|min(T, now − t₀) − T| < 1e‑6`.
  public func isFinished(at now: Double) -> Bool {
    abs(min(duration, now - startTime) - duration) < CarouselConstants.floatErrorMargin
  }

  /// The offset at display time `now`: `start + v·τ + ½·a·τ²` with `a = −v/T`, `τ = min(T, now − t₀)`
  /// (spec 2.11), evaluated in upstream's order.
  public func position(at now: Double) -> Double { position(elapsed: min(duration, now - startTime)) }

  /// The offset when it has stopped: the formula at τ = T.
  public var finalPosition: Double { position(elapsed: duration) }

  func position(elapsed: Double) -> Double {
    let elapsed = max(0, elapsed)
    let acceleration = -velocity / duration
    return start + velocity * elapsed + 0.5 * acceleration * pow(elapsed, 2)
  }

  /// The display time at which the raw offset passes `offset`, which must lie between start and end.
  func time(reaching offset: Double) -> Double {
    // x = start + (v·T/2)·(2q − q²) with q = τ/T, solved for q on [0, 1].
    let half = velocity * duration / 2
    guard half != 0 else { return startTime }
    let share = (offset - start) / half
    return startTime + (1 - (max(0, 1 - share)).squareRoot()) * duration
  }
}
