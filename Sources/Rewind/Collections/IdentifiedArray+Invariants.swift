extension IdentifiedArray: InvariantChecking {
  /// Checks that the element tree and the id index agree: the same count, labels increasing along the
  /// collection, and each element's id leading to its own label. Traps naming what is wrong.
  ///
  /// O(n log n) up to 4,096 elements; above that, only the trees' shapes and counts (O(n)), so that test
  /// builds with the checks on stay fast.
  @usableFromInline
  package func _checkInvariants() {
    tree.checkStructure(keyed: true, uniqueKeys: true)
    index.tree.checkStructure(keyed: true, uniqueKeys: false)
    precondition(index.count == tree.count, "IdentifiedArray: \(index.count) ids for \(tree.count) elements")
    guard tree.count <= 4_096 else { return }
    for (element, label) in zip(tree.array, tree.allKeys) {
      precondition(index.label(of: element.id) == label, "IdentifiedArray: stale label for id \(element.id)")
    }
  }
}
