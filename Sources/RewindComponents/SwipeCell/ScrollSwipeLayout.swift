/// Pure geometry of LLSwipeCell, the scroll-view swipe cell: `[left L][content W][right R]` scrolled to a
/// content offset x, closed at x = L, left open at 0, right open at L + R.
public struct ScrollSwipeLayout: Equatable, Sendable, Codable {
  /// Widths of the left buttons, outermost first.
  public var leftWidths: [Double]
  /// Widths of the right buttons, nearest the content first.
  public var rightWidths: [Double]
  /// Points of a side that must be revealed (strictly more) for a release to open it; upstream 50.
  public var trigger: Double

  /// Creates a layout; negative or non-finite widths count as 0.
  public init(leftWidths: [Double], rightWidths: [Double], trigger: Double = 50) {
    self.leftWidths = leftWidths.map { $0.isFinite ? Swift.max(0, $0) : 0 }
    self.rightWidths = rightWidths.map { $0.isFinite ? Swift.max(0, $0) : 0 }
    self.trigger = trigger
  }

  /// L: the sum of the left widths (no spacing, no equalisation).
  public var leftWidth: Double { leftWidths.reduce(0, +) }
  /// R: the sum of the right widths.
  public var rightWidth: Double { rightWidths.reduce(0, +) }
  /// The closed offset, L.
  public var closedOffset: Double { leftWidth }
  /// The right-open offset, L + R.
  public var rightOpenOffset: Double { leftWidth + rightWidth }

  /// Where a release at `x` snaps. Position only; velocity does not matter.
  ///
  /// Symmetric: the left side opens when more than `trigger` points of it are revealed (x < L − trigger).
  /// Upstream tests the absolute `x < trigger` instead (see Docs/Components.md).
  public func releaseTarget(x: Double) -> Double {
    let l = leftWidth
    if x > l + trigger { return l + rightWidth }
    if x < l - trigger { return 0 }
    return l
  }

  /// The release: its target, and whether the cell animates there itself (|v| > 0.1 pt/ms, i.e. 100 pt/s)
  /// rather than letting the scroll view decelerate.
  public func release(x: Double, velocityPointsPerMillisecond velocity: Double) -> ScrollSwipeRelease {
    ScrollSwipeRelease(target: releaseTarget(x: x), animatedExplicitly: Swift.abs(velocity) > 0.1)
  }

  /// The right side's reveal progress in [0, 1]; 1 when R = 0 and x > L.
  public func rightProgress(x: Double) -> Double {
    let revealed = x - leftWidth
    guard revealed > 0 else { return 0 }
    return clamp(revealed / rightWidth)
  }

  /// The left side's reveal progress in [0, 1]; 1 at x ≤ 0.
  public func leftProgress(x: Double) -> Double {
    guard x > 0 else { return 1 }
    return clamp(1 - x / leftWidth)
  }

  /// Leading constants of the right buttons (original order), pinned to the content side.
  public func rightLeadings(x: Double) -> [Double] {
    let p = rightProgress(x: x)
    var before = 0.0
    return rightWidths.map { width in
      defer { before += width }
      return p * before
    }
  }

  /// Trailing constants of the left buttons (original order), pinned to the content side.
  public func leftTrailings(x: Double) -> [Double] {
    let p = leftProgress(x: x)
    var after = leftWidth
    return leftWidths.map { width in
      after -= width
      return -p * after
    }
  }

  /// The left container's leading constant: it sticks to the visible left edge when overscrolled.
  public func leftContainerLeading(x: Double) -> Double { Swift.min(x, 0) }

  /// The right container's trailing constant: it follows an overscroll past L + R.
  public func rightContainerTrailing(x: Double) -> Double { Swift.max(0, x - rightOpenOffset) }

  private func clamp(_ value: Double) -> Double { value.isNaN ? 0 : Swift.min(1, Swift.max(0, value)) }
}

/// Where a scroll-view swipe cell goes when the finger lifts.
public struct ScrollSwipeRelease: Equatable, Sendable, Codable {
  /// The content offset it snaps to.
  public var target: Double
  /// Whether the cell issues its own animated scroll (fast release) instead of the scroll view's deceleration.
  public var animatedExplicitly: Bool

  /// Creates a release.
  public init(target: Double, animatedExplicitly: Bool) {
    self.target = target
    self.animatedExplicitly = animatedExplicitly
  }
}
