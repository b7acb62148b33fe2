/// How long to wait before the next attempt after failures: exponential, capped, with jitter so that many
/// clients a server dropped at once do not come back at once.
public struct NATSBackoff: Sendable, Hashable {
  /// The wait after the first failure.
  public var initial: Duration
  /// The longest wait.
  public var maximum: Duration
  /// The fraction of each wait drawn at random: the wait is `delay × (1 − jitter × r)` for `r` in 0...1.
  public var jitter: Double

  /// Creates a backoff.
  public init(initial: Duration = .milliseconds(100), maximum: Duration = .seconds(5), jitter: Double = 0.5) {
    self.initial = initial
    self.maximum = max(initial, maximum)
    self.jitter = min(max(jitter, 0), 1)
  }

  /// The wait before attempt `attempt + 1` after `attempt` consecutive failures (≥ 1).
  public func delay(afterFailures attempt: Int, using generator: inout some RandomNumberGenerator) -> Duration
  {
    var delay = initial
    for _ in 1..<max(1, min(attempt, 32)) where delay < maximum { delay = delay * 2 }
    delay = min(delay, maximum)
    let factor = 1 - jitter * Double.random(in: 0...1, using: &generator)
    return delay * factor
  }
}
