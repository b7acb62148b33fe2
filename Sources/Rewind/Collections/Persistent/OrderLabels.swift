/// The order labels of ``IdentifiedArray``: a `UInt64` per element, increasing along the collection, so
/// that an element's label (kept in the id index) finds its position in the element tree in O(log n),
/// and inserting or removing elsewhere changes no other element's label.
///
/// A new element takes a label between its neighbours'. When they are adjacent integers, the labels of a
/// small neighbourhood are spread out again: the smallest aligned range of the label space around the
/// insertion that is not too dense (Bender et al., "Two simplified algorithms for maintaining order in a
/// list", 2002), which costs O(log n) relabelled elements amortized.
@usableFromInline
enum OrderLabels {
  /// The gap left between labels built in bulk, and taken by an append or a prepend: 2^32 appends at one
  /// end before any relabelling.
  @inlinable
  static var step: UInt64 { 1 << 32 }

  /// The label of the first element of an empty collection: the middle of the space.
  @inlinable
  static var middle: UInt64 { 1 << 63 }

  /// `count` increasing labels, `step` apart (closer for more than 2^31 elements), centred in the space.
  @inlinable
  static func even(count: Int) -> [UInt64] {
    guard count > 0 else { return [] }
    let spacing: UInt64 = count < (1 << 31) ? step : UInt64.max / UInt64(count &+ 1)
    let span = spacing &* UInt64(count &- 1)
    let first = (UInt64.max &- span) / 2
    var labels: [UInt64] = []
    labels.reserveCapacity(count)
    for index in 0..<count { labels.append(first &+ UInt64(index) &* spacing) }
    return labels
  }

  /// A label strictly between `lower` and `upper` (exclusive; 0 and `UInt64.max` stand for the ends of
  /// the space), or `nil` when there is none. Appends and prepends step by ``step``; insertions between
  /// two elements take the middle.
  @inlinable
  static func between(_ lower: UInt64, _ upper: UInt64, isFirst: Bool, isLast: Bool) -> UInt64? {
    if isFirst && isLast { return middle }
    let room = upper &- lower
    guard room >= 2 else { return nil }
    if isLast { return lower &+ Swift.min(step, room / 2) }
    if isFirst { return upper &- Swift.min(step, room / 2) }
    return lower &+ room / 2
  }

  /// The most labels an aligned range of 2^bits labels may hold before it counts as too dense:
  /// (2 / 1.4)^bits, so that 2^64 labels hold about 8 · 10^9 elements.
  @inlinable
  static func densityLimit(bits: Int) -> Double {
    var limit = 1.0
    for _ in 0..<bits { limit *= 2 / 1.4 }
    return limit
  }
}

extension IdentifiedArray {
  /// A label for an element about to be inserted at `position`, relabelling a neighbourhood when its
  /// neighbours' labels are adjacent.
  /// - Complexity: O(log n), amortized O(log² n) with relabelling.
  @inlinable
  mutating func label(forInsertionAt position: Int) -> UInt64 {
    let count = tree.count
    let lower: UInt64 = position > 0 ? tree.key(at: position &- 1) : 0
    let upper: UInt64 = position < count ? tree.key(at: position) : UInt64.max
    if let label = OrderLabels.between(lower, upper, isFirst: position == 0, isLast: position == count) {
      return label
    }
    return relabel(makingRoomAt: position)
  }

  /// Spreads out the labels of the smallest aligned label range around `position` that is not too dense,
  /// leaving a slot for a new element at `position`, and returns the slot's label.
  @usableFromInline
  mutating func relabel(makingRoomAt position: Int) -> UInt64 {
    let count = tree.count
    let anchor = tree.key(at: position > 0 ? position &- 1 : 0)
    for bits in 1...64 {
      let start: UInt64 = bits == 64 ? 0 : anchor & ~((1 << UInt64(bits)) &- 1)
      let end: UInt64 = bits == 64 ? 0 : start &+ (1 << UInt64(bits))  // 0: the top of the space
      let first = tree.lowerBound(key: start)
      let last = end == 0 ? count : tree.lowerBound(key: end)
      let slots = last &- first &+ 1
      guard Double(slots) <= OrderLabels.densityLimit(bits: bits) else { continue }
      let size: UInt64 = bits == 64 ? UInt64.max : 1 << UInt64(bits)
      let spacing = size / UInt64(slots &+ 1)
      guard spacing >= 1 else { continue }
      let newSlot = position &- first
      var newLabel: UInt64 = 0
      for slot in 0..<slots {
        let label = start &+ spacing &* UInt64(slot &+ 1)
        if slot == newSlot {
          newLabel = label
          continue
        }
        let element = first &+ (slot < newSlot ? slot : slot &- 1)
        tree.setKey(label, at: element)
        index.setLabel(label, of: tree[element].id)
      }
      return newLabel
    }
    preconditionFailure("IdentifiedArray: no room for another order label (\(count) elements)")
  }
}
