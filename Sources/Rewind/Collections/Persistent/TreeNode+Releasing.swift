extension TreeNode {
  /// Releases the children in `bits` of this inner node: one `swift_release` each.
  ///
  /// A node's `deinit` runs unspecialized (the runtime calls the one in the generic class's metadata), so
  /// releasing children by `deinitialize(count:)` went through the runtime's generic array destruction and
  /// a value-witness call per child: about 100 instructions each, where a release costs 20. An undo step
  /// dropped off its stack frees the nodes only its version held, and the older versions' inner nodes
  /// release the children they own: with undo on, this was about a third of a one-row edit's cost. The
  /// children are class references, so releasing one needs no type metadata.
  @inlinable
  func releaseChildren(_ bits: UInt64) {
    var bits = bits
    while bits != 0 {
      unsafe unmanagedChild(bits.trailingZeroBitCount).releaseAsChild()
      bits &= bits &- 1
    }
  }
}
