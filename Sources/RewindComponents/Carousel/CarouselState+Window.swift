import Foundation

// The visible window and placeholders (spec 2.6).
extension CarouselState {
  /// How many items the visible window holds, after the cap, the `visibleItems` option and the item count.
  public var numberOfVisibleItems: Int {
    guard hasValidGeometry else { return 0 }
    let width = itemWidth
    var raw: Double
    switch type {
    case .linear, .coverFlow, .coverFlow2:
      raw = ceil(scrollExtent / (width * spacing)) + 2
    case .rotary, .cylinder:
      raw = Double(circularCount)
    case .invertedRotary, .invertedCylinder:
      raw = ceil(Double(circularCount) / 2)
    case .wheel, .invertedWheel:
      let count = Double(circularCount)
      let radius = options.radius ?? (width * spacing * count / arc)
      raw = radius - width / 2 < min(bounds.width, bounds.height) / 2 ? count : ceil(count / 2) + 1
    case .timeMachine, .invertedTimeMachine, .custom:
      raw = Double(CarouselConstants.maxVisibleItems)
    }
    raw = min(Double(CarouselConstants.maxVisibleItems), raw)
    if let visible = options.visibleItems { raw = visible }
    raw = max(0, min(raw, Double(numberOfItems + placeholdersShown)))
    return raw.isNaN ? 0 : Int(raw)
  }

  /// The lowest index the window may reach: the first left placeholder, or 0.
  public var minimumWindowIndex: Int { -Int(ceil(Double(placeholdersShown) / 2)) }

  /// The highest index the window may reach: the last right placeholder, or n − 1.
  public var maximumWindowIndex: Int { numberOfItems - 1 + placeholdersShown / 2 }

  /// The indices that should be loaded now, ascending: the window around the current item, wrapped or
  /// clamped at the ends, without items whose alpha is exactly 0.
  public var visibleWindow: [Int] {
    let visible = numberOfVisibleItems
    guard visible > 0 else { return [] }
    var start = currentItemIndex - visible / 2
    if !isWrapping {
      start = max(minimumWindowIndex, min(maximumWindowIndex - visible + 1, start))
    }
    var indices: [Int] = []
    indices.reserveCapacity(visible)
    for candidate in start..<(start + visible) {
      let index = isWrapping ? clampedIndex(candidate) : candidate
      if alpha(forOffset: offset(forItem: index)) != 0 { indices.append(index) }
    }
    indices.sort()
    // Wrapping keeps visible ≤ n, so indices are distinct; this guards the invariant anyway.
    var unique: [Int] = []
    unique.reserveCapacity(indices.count)
    for index in indices where unique.last != index { unique.append(index) }
    return unique
  }

  /// The placeholder number the data source is asked for at `index`, or nil for an item index.
  ///
  /// Corrected for odd counts: the right-hand slots continue after the left-hand ones, so every number
  /// in `0..<P` is used once (upstream repeats a number and skips the last one, spec 2.6 ⚠).
  public func placeholderNumber(forIndex index: Int) -> Int? {
    let shown = placeholdersShown
    let left = Int(ceil(Double(shown) / 2))
    if index < 0 { return left + index }
    if index >= numberOfItems { return left + (index - numberOfItems) }
    return nil
  }
}
