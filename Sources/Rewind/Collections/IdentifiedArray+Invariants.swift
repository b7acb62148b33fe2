extension IdentifiedArray: InvariantChecking {
  /// Checks that the element tree and the id index agree: the same count, labels increasing along the
  /// collection, each id filed in the index under its own key (so that a lookup by id finds it) and once,
  /// and each element's id leading to its own label. Traps naming what is wrong.
  ///
  /// Up to 1,024 elements, also that the tree's cached digests equal the recomputed ones (elements that
  /// are `Encodable`; ``PersistentTree/checkDigests()``): that re-encodes every cached element, which
  /// under ThreadSanitizer made a fingerprinted list's every mutation cost milliseconds.
  ///
  /// O(n) up to 4,096 elements (the labels are compared through a dictionary, not by a lookup per element,
  /// which in a ThreadSanitizer build cost most of a send to a list of 3,000 rows); above that, only the
  /// trees' shapes and counts, also O(n), so that test builds with the checks on stay fast.
  @usableFromInline
  package func _checkInvariants() {
    tree.checkStructure(keyed: true, uniqueKeys: true)
    index.tree.checkStructure(keyed: true, uniqueKeys: false)
    precondition(index.count == tree.count, "IdentifiedArray: \(index.count) ids for \(tree.count) elements")
    if tree.count <= 1_024 { (self as? any CachedDigestChecking)?.checkCachedDigests() }
    guard tree.count <= 4_096 else { return }
    var labels: [Element.ID: UInt64] = [:]
    labels.reserveCapacity(index.count)
    for (entry, key) in zip(index.tree.array, index.tree.allKeys) {
      precondition(
        key == IDIndex<Element.ID>.hash(entry.id), "IdentifiedArray: id \(entry.id) filed under another key")
      precondition(
        labels.updateValue(entry.label, forKey: entry.id) == nil,
        "IdentifiedArray: id \(entry.id) indexed twice")
    }
    for (element, label) in zip(tree.array, tree.allKeys) {
      precondition(labels[element.id] == label, "IdentifiedArray: stale label for id \(element.id)")
    }
  }
}
