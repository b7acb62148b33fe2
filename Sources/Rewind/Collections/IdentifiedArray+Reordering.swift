extension IdentifiedArray {
  /// Sorts the elements in place by `areInIncreasingOrder`.
  /// - Complexity: O(n log n).
  @inlinable
  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    var sorted = tree.array
    try sorted.sort(by: areInIncreasingOrder)
    rebuild(from: sorted)
  }

  /// Sorts the elements in place in increasing order.
  /// - Complexity: O(n log n).
  @inlinable
  public mutating func sort() where Element: Comparable { sort(by: <) }

  /// Removes the elements that `shouldBeRemoved` accepts, keeping the others in order.
  /// - Complexity: O(n), plus O(k log n) for k removed elements when they are few, else O(n log n).
  @inlinable
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    var survivors: [Element] = []
    var labels: [UInt64] = []
    var removed: [Element.ID] = []
    for (element, label) in zip(tree.array, tree.allKeys) {
      if try shouldBeRemoved(element) {
        removed.append(element.id)
      } else {
        survivors.append(element)
        labels.append(label)
      }
    }
    guard !removed.isEmpty else { return }
    // Survivors keep their labels, which still increase; the index loses the removed ids.
    if removed.count &* 8 <= tree.count {
      for id in removed { index.remove(id) }
    } else {
      index = IDIndex.build(ids: survivors.map(\.id), labels: labels).index
    }
    tree = PersistentTree(values: survivors, keys: labels)
    checkInvariantsIfEnabled()
  }

  /// The elements that `isIncluded` accepts, in order.
  /// - Complexity: O(n), plus the cost of removing the others (see ``removeAll(where:)``).
  @inlinable
  public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> Self {
    var filtered = self
    try filtered.removeAll { try !isIncluded($0) }
    return filtered
  }

  /// Replaces the elements in `range` with `newElements`, whose ids must be unique and not used by the
  /// elements outside `range`.
  /// - Precondition: the ids stay unique.
  /// - Complexity: O((range.count + newElements.count) · log n), amortized.
  @inlinable
  public mutating func replaceSubrange(_ range: Range<Int>, with newElements: some Collection<Element>) {
    precondition(
      range.lowerBound >= 0 && range.upperBound <= tree.count, "IdentifiedArray: range \(range) out of bounds"
    )
    for _ in range {
      let removed = tree.remove(at: range.lowerBound, keyed: true)
      index.remove(removed.id)
    }
    var position = range.lowerBound
    for element in newElements {
      precondition(index.label(of: element.id) == nil, "IdentifiedArray: duplicate id \(element.id)")
      let label = label(forInsertionAt: position)
      tree.insert(element, key: label, at: position)
      index.insert(element.id, label: label)
      position &+= 1
    }
    checkInvariantsIfEnabled()
  }

  /// Replaces the storage with `elements` (the same ids, in a new order), labelled afresh.
  @inlinable
  mutating func rebuild(from elements: [Element]) {
    var duplicate: Element.ID?
    self = IdentifiedArray(building: elements, duplicate: &duplicate)
    precondition(duplicate == nil, "IdentifiedArray: duplicate id after reordering")
  }
}
