import Foundation

/// The curves the carousel animates with.
public enum CarouselEasing {
  /// Upstream's cubic ease-in-out: `0.5·(2τ)³` for τ < 0.5, else `0.5·(2τ − 2)³ + 1`.
  public static func easeInOut(_ time: Double) -> Double {
    time < 0.5 ? 0.5 * pow(time * 2, 3) : 0.5 * pow(time * 2 - 2, 3) + 1
  }
}
