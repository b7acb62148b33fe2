import Foundation

/// The curves the carousel animates with.
public enum CarouselEasing {
  /// Upstream's cubic ease-in-out: `0.5·(2τ)³` for τ < 0.5, else `0.5·(2τ − 2)³ + 1`.
  public static func easeInOut(_ time: Double) -> Double {
    time < 0.5 ? 0.5 * pow(time * 2, 3) : 0.5 * pow(time * 2 - 2, 3) + 1
  }

  /// The τ in [0, 1] at which ``easeInOut(_:)`` reaches `value` (clamped into [0, 1]).
  public static func inverseEaseInOut(_ value: Double) -> Double {
    let value = min(1, max(0, value))
    return value < 0.5 ? cbrt(2 * value) / 2 : (cbrt(2 * (value - 1)) + 2) / 2
  }
}
