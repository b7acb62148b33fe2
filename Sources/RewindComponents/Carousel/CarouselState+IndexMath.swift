import Foundation

// Core index math (spec 2.4). Pure functions of the state; formulas in upstream's evaluation order.
extension CarouselState {
  /// The index of the centred item: the rounded offset, clamped or wrapped; −1 when there are no items.
  public var currentItemIndex: Int { clampedIndex(roundedIndex(scrollOffset)) }

  /// The offset of item `index` from the centre, in items; when wrapping, folded once towards the centre.
  public func offset(forItem index: Int) -> Double {
    var offset = Double(index) - scrollOffset
    if isWrapping {
      let count = Double(numberOfItems)
      if offset > count / 2 {
        offset -= count
      } else if offset < -count / 2 {
        offset += count
      }
    }
    return offset
  }

  /// `index` wrapped into range, or clamped into `0...n−1` when not wrapping; −1 when there are no items.
  public func clampedIndex(_ index: Int) -> Int {
    let count = numberOfItems
    guard count > 0 else { return -1 }
    if isWrapping {
      let remainder = index % count
      return remainder < 0 ? remainder + count : remainder
    }
    return min(max(index, 0), count - 1)
  }

  /// `offset` wrapped into `[0, n)`, or clamped into `[0, n−1]` when not wrapping; −1 when there are no items.
  public func clampedOffset(_ offset: Double) -> Double {
    let count = Double(numberOfItems)
    guard numberOfItems > 0 else { return -1 }
    guard offset.isFinite else { return 0 }
    if isWrapping {
      let wrapped = offset - floor(offset / count) * count
      if wrapped >= 0, wrapped < count { return wrapped }
      // Huge offsets lose the formula's precision; fall back to an exact remainder.
      let remainder = offset.truncatingRemainder(dividingBy: count)
      let folded = remainder < 0 ? remainder + count : remainder
      return folded < count ? folded : 0
    }
    return min(max(offset, 0), max(0, count - 1))
  }

  /// The shortest signed distance from `from` to `to` in items; ties go to the direct path.
  public func minScrollDistance(from: Double, to: Double) -> Double {
    let direct = to - from
    guard isWrapping else { return direct }
    var wrapped = min(from, to) + Double(numberOfItems) - max(from, to)
    if from < to { wrapped = -wrapped }
    return abs(direct) <= abs(wrapped) ? direct : wrapped
  }

  /// ``minScrollDistance(from:to:)`` for indices, without overflow.
  public func minScrollDistance(fromIndex from: Int, toIndex to: Int) -> Int {
    let (direct, overflow) = to.subtractingReportingOverflow(from)
    guard isWrapping else { return overflow ? (to > from ? Int.max : Int.min) : direct }
    let distance = minScrollDistance(from: Double(from), to: Double(to))
    guard distance.isFinite, abs(distance) < 9e18 else { return distance < 0 ? Int.min : Int.max }
    return Int(distance)
  }

  /// Rounds half away from zero and converts, saturating instead of trapping.
  func roundedIndex(_ offset: Double) -> Int {
    let rounded = offset.rounded()
    guard rounded.isFinite else { return 0 }
    if rounded >= 9.2e18 { return Int.max }
    if rounded <= -9.2e18 { return Int.min }
    return Int(rounded)
  }
}
