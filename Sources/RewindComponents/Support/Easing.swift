/// An easing curve: how an animated value moves from its start to its end over a duration.
///
/// Raw values follow MGSwipeTableCell's `MGSwipeEasingFunction`; ``init(code:)`` maps unknown codes to
/// ``cubicOut`` as upstream does.
public enum Easing: Int, Sendable, Codable, CaseIterable {
  /// Constant speed.
  case linear = 0
  /// Quadratic, accelerating.
  case quadIn
  /// Quadratic, decelerating.
  case quadOut
  /// Quadratic, accelerating then decelerating.
  case quadInOut
  /// Cubic, accelerating.
  case cubicIn
  /// Cubic, decelerating (the default of every swipe animation).
  case cubicOut
  /// Cubic, accelerating then decelerating.
  case cubicInOut
  /// Penner bounce at the start.
  case bounceIn
  /// Penner bounce at the end.
  case bounceOut
  /// Penner bounce at both ends (corrected; see Docs/Components.md).
  case bounceInOut = 9

  /// The curve for an upstream easing code; unknown codes fall back to ``cubicOut``.
  public init(code: Int) { self = Easing(rawValue: code) ?? .cubicOut }

  /// The animated value `elapsed` seconds into a move from `from` to `to` lasting `duration` seconds.
  ///
  /// Returns `to` exactly once `elapsed / duration ≥ 1` (and for a duration ≤ 0); a negative or NaN
  /// `elapsed` counts as 0.
  public func value(elapsed: Double, duration: Double, from: Double, to: Double) -> Double {
    guard duration > 0 else { return to }
    let t = elapsed.isNaN ? 0 : Swift.max(0, elapsed / duration)
    guard t < 1 else { return to }
    return curve(t: t, from: from, change: to - from)
  }

  /// The curve at progress `t` in [0, 1), in upstream's evaluation order (start `b`, change `c`).
  func curve(t: Double, from b: Double, change c: Double) -> Double {
    switch self {
    case .linear: return c * t + b
    case .quadIn: return c * t * t + b
    case .quadOut: return -c * t * (t - 2) + b
    case .quadInOut:
      let u = t * 2
      if u < 1 { return c / 2 * u * u + b }
      let v = u - 1
      return -c / 2 * (v * (v - 2) - 1) + b
    case .cubicIn: return c * t * t * t + b
    case .cubicOut:
      let u = t - 1
      return c * (u * u * u + 1) + b
    case .cubicInOut:
      let u = t * 2
      if u < 1 { return c / 2 * u * u * u + b }
      let v = u - 2
      return c / 2 * (v * v * v + 2) + b
    case .bounceOut: return Self.bounceOut(t, change: c) + b
    case .bounceIn: return c - Self.bounceOut(1 - t, change: c) + b
    case .bounceInOut:
      // Upstream evaluates the second half at 1 − 2t, which overshoots (144.53 at t = 0.75 for 0 → 100);
      // Penner's 2t − 1 is used instead.
      if t < 0.5 { return (c - Self.bounceOut(1 - t * 2, change: c)) * 0.5 + b }
      return Self.bounceOut(t * 2 - 1, change: c) * 0.5 + c * 0.5 + b
    }
  }

  static func bounceOut(_ t: Double, change c: Double) -> Double {
    if t < 1 / 2.75 { return c * (7.5625 * t * t) }
    if t < 2 / 2.75 {
      let u = t - 1.5 / 2.75
      return c * (7.5625 * u * u + 0.75)
    }
    if t < 2.5 / 2.75 {
      let u = t - 2.25 / 2.75
      return c * (7.5625 * u * u + 0.9375)
    }
    let u = t - 2.625 / 2.75
    return c * (7.5625 * u * u + 0.984375)
  }
}
