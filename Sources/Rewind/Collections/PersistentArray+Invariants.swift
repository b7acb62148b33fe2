extension PersistentArray: InvariantChecking {
  /// Checks the tree under the collection (``PersistentTree/checkStructure(keyed:uniqueKeys:)``): node
  /// sizes and counts, equal depth, the borrowing rules, and the keys of the nodes that still have them
  /// (a collection handed out by ``IdentifiedArray/elements`` starts keyed; its changes drop the keys of
  /// the nodes they touch); up to 1,024 elements, the cached digests (``PersistentTree/checkDigests()``).
  /// Traps naming what is wrong. O(n).
  @usableFromInline
  package func _checkInvariants() {
    tree.checkStructure(keyed: false, uniqueKeys: false)
    if tree.count <= 1_024 { (self as? any CachedDigestChecking)?.checkCachedDigests() }
  }
}
