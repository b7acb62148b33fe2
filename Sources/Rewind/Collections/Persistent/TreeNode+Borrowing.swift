/// Borrowing copies: what changing one entry of a shared node copies.
///
/// A full copy of a node retains every entry: a leaf's 32 rows (each row's strings and arrays) or an inner
/// node's 32 children, each an atomic increment on a different object, most of them cache misses in a big
/// state; and the old node's release later pays as much again. After a checkpoint, an undo step or a
/// subscriber's snapshot keeps a version, nearly every edit of a big list makes such a copy. A *borrowing*
/// copy copies the entries' bytes and retains one object, the node copied (its *lender*), which keeps
/// the borrowed entries alive; the copy then owns (retains) only the entries it changes.
///
/// The rules that keep this sound are those of ``UnmanagedNode`` (3 to 8), which also makes every
/// retain and release of a lender.
extension TreeNode {
  /// Whether some entries are borrowed from a lender.
  @inlinable
  var isBorrowing: Bool { unsafe head.pointee.lender != nil }

  /// The bits of entries `0 ..< count`.
  @inlinable
  static func mask(_ count: Int) -> UInt64 { count >= 64 ? .max : (1 << UInt64(count)) &- 1 }

  /// A copy of `other` that borrows its entries instead of retaining them (rules 3 to 6 of
  /// ``UnmanagedNode``); a full copy when
  /// `other` is empty or wider than the 64 entries `borrowed` can describe, or is a leaf of values whose
  /// bytes cannot stand for them elsewhere (rule 8 of ``UnmanagedNode``).
  @inlinable
  static func make(borrowing other: TreeNode) -> TreeNode {
    let count = other.width
    guard unsafe count > 0 && count <= 64 && (!other.isLeaf || UnmanagedNode<Value>.valuesAreBitwiseTakable)
    else {
      return make(copying: other)
    }
    let node = make(leaf: other.isLeaf, keyed: other.isKeyed, leafChildren: other.hasLeafChildren)
    node.width = count
    if other.isLeaf {
      if other.isKeyed { unsafe node.labels.initialize(from: other.labels, count: count) }
      unsafe UnsafeMutableRawPointer(node.slots).copyMemory(
        from: other.slots, byteCount: count &* MemoryLayout<Value>.stride)
    } else {
      unsafe UnsafeMutableRawPointer(node.childSlots).copyMemory(
        from: other.childSlots, byteCount: count &* MemoryLayout<TreeNode>.stride)
      unsafe node.ends.initialize(from: other.ends, count: count)
      if other.isKeyed { unsafe node.childKeys.initialize(from: other.childKeys, count: count) }
    }
    if let lender = unsafe other.lender {
      // Rule 4: borrow from the lender, and own what `other` owns.
      unsafe lender.retainAsLender()
      unsafe node.lender = lender
      unsafe node.head.pointee.borrowed = other.head.pointee.borrowed
      unsafe node.retainEntries(mask(count) & ~other.head.pointee.borrowed)
    } else {
      unsafe node.lender = UnmanagedNode.lend(other)
      unsafe node.head.pointee.borrowed = mask(count)
    }
    return node
  }

  /// Retains the entries in `bits`, which this node held without a reference: they become its own.
  @inlinable
  func retainEntries(_ bits: UInt64) {
    var bits = bits
    while bits != 0 {
      let index = bits.trailingZeroBitCount
      if isLeaf {
        unsafe (slots + index).initialize(to: slots[index])
      } else {
        unsafe (childSlots + index).initialize(to: childSlots[index])
      }
      bits &= bits &- 1
    }
  }

  /// Releases the entries in `bits`: children one by one (`releaseChildren(_:)`), values in runs, one call
  /// per run (see `deinit`).
  @inlinable
  func releaseEntries(_ bits: UInt64) {
    guard isLeaf else {
      releaseChildren(bits)
      return
    }
    var bits = bits
    while bits != 0 {
      let start = bits.trailingZeroBitCount
      let run = (~(bits >> UInt64(start))).trailingZeroBitCount
      if isLeaf {
        unsafe (slots + start).deinitialize(count: run)
      } else {
        unsafe (childSlots + start).deinitialize(count: run)
      }
      bits = run &+ start >= 64 ? 0 : bits & ~(Self.mask(run &+ start))
    }
  }

  /// What `deinit` does for a borrowing node: releases the entries it owns, then its lender. It reads the
  /// head once: `deinit` is not specialized, so each accessor here is a call.
  @inlinable
  func releaseBorrowingEntries() {
    let head = unsafe self.head.pointee
    unsafe releaseEntries(Self.mask(head.width) & ~head.borrowed)
    if let lender = unsafe head.lender { unsafe UnmanagedNode<Value>(opaque: lender).releaseAsLender() }
  }

  /// Makes this node, which must be referenced by its parent alone, own every entry, so that its shape
  /// may change (rule 6). When this node is its lender's last borrower it takes the lender's references
  /// over and the lender releases only the entries this node replaced (rule 5); otherwise it retains what
  /// it borrowed.
  @inlinable
  func ownAll() {
    guard let reference = unsafe lender else { return }
    let borrowed = unsafe head.pointee.borrowed
    unsafe self.lender = nil
    unsafe head.pointee.borrowed = 0
    var previous = unsafe reference.takeLender()
    if isKnownUniquelyReferenced(&previous) {
      // The last borrower: the lender keeps (and releases) only the entries this node replaced.
      previous.releaseEntries(Self.mask(previous.width) & ~borrowed)
      previous.width = 0
    } else {
      retainEntries(borrowed)
    }
  }

  /// Makes entry `index` of this leaf, which must be referenced by its parent alone, its own, so that
  /// its value may be changed or moved out in place; the leaf's cached digest notes the edit.
  @inlinable
  func ownEntry(_ index: Int) {
    noteEdit(index)
    let bit: UInt64 = 1 << UInt64(index)
    let borrowed = unsafe head.pointee.borrowed
    guard borrowed & bit != 0 else { return }
    retainEntries(bit)
    settle(borrowed: borrowed & ~bit)
  }

  /// Makes child `index` referenced by this node alone (which must itself be referenced by its parent
  /// alone), by a borrowing copy if it is shared: what changing one value below it needs. Unlike
  /// ``makeChildUnique(_:)``, neither this node nor the child need own their entries.
  @inlinable
  func makeChildWritable(_ index: Int) {
    let bit: UInt64 = 1 << UInt64(index)
    let borrowed = unsafe head.pointee.borrowed
    if borrowed & bit != 0 {
      // A borrowed child is held by the lender too: copy it, and own the copy without releasing it.
      unsafe (childSlots + index).initialize(to: TreeNode.make(borrowing: childSlots[index]))
      settle(borrowed: borrowed & ~bit)
    } else if unsafe !isKnownUniquelyReferenced(&childSlots[index]) {
      unsafe childSlots[index] = TreeNode.make(borrowing: childSlots[index])
    }
  }

  /// Records the entries still borrowed; past a quarter owned, owns them all (rule 7).
  @inlinable
  func settle(borrowed: UInt64) {
    unsafe head.pointee.borrowed = borrowed
    if borrowed.nonzeroBitCount &* 4 < width &* 3 { ownAll() }
  }
}
