/// Borrowing copies: what changing one entry of a shared node copies.
///
/// A full copy of a node retains every entry: a leaf's 32 rows (each row's strings and arrays) or an inner
/// node's 32 children, each an atomic increment on a different object, most of them cache misses in a big
/// state; and the old node's release later pays as much again. After a checkpoint, an undo step or a
/// subscriber's snapshot keeps a version, nearly every edit of a big list makes such a copy. A *borrowing*
/// copy copies the entries' bytes and retains one object, the node copied (its *lender*), which keeps
/// the borrowed entries alive; the copy then owns (retains) only the entries it changes.
///
/// The rules that keep this sound:
/// - A lender never borrows. A copy of a borrowing node borrows from that node's lender, and retains the
///   entries the node owns, so there is never a chain of lenders to keep alive.
/// - A lender never changes. Each borrower holds a reference to it, so it is never uniquely referenced,
///   except by its last borrower, which then takes it over (``ownAll()``).
/// - A borrowing node has its lender's width, so bit `i` of `borrowed` means entry `i` of both; and it
///   changes only one entry value at a time in place, owned first (``ownEntry(_:)``,
///   ``makeChildWritable(_:)``). Anything that changes its shape owns every entry first:
///   ``makeChildUnique(_:)`` and `PersistentTree.makeRootUnique()` call ``ownAll()``.
/// - A node that has come to own more than a quarter of its entries owns them all, so that what a lender
///   keeps alive for nothing (the entries its borrowers replaced) stays under a quarter of it, and so that
///   a copy of a borrower (which retains the entries it owns) retains few: with undo on, each send makes
///   such a copy of the root, and with the bound at half a send retained and released about 19 children
///   where it now does 14 (callgrind, `scale/undo-on`, 1,000 rows: 5,803 against 5,173 instructions).
/// - Only values whose bytes may stand for them at another address (bitwise-takable ones: strings, arrays,
///   class references, numbers, and structs and enums of them) are borrowed; other leaves are copied whole.
extension TreeNode {
  /// Whether some entries are borrowed from a lender.
  @inlinable
  var isBorrowing: Bool { head.pointee.lender != nil }

  /// The bits of entries `0 ..< count`.
  @inlinable
  static func mask(_ count: Int) -> UInt64 { count >= 64 ? .max : (1 << UInt64(count)) &- 1 }

  /// A copy of `other` that borrows its entries instead of retaining them (see above); a full copy when
  /// `other` is empty or wider than the 64 entries `borrowed` can describe, or is a leaf of values whose
  /// bytes cannot stand for them elsewhere (not bitwise-takable: a value with a `weak` reference, which the
  /// runtime tracks by address, or a C++ type pointing into itself).
  @inlinable
  static func make(borrowing other: TreeNode) -> TreeNode {
    let count = other.width
    guard count > 0 && count <= 64 && (!other.isLeaf || _isBitwiseTakable(Value.self)) else {
      return make(copying: other)
    }
    let node = make(leaf: other.isLeaf, keyed: other.isKeyed, leafChildren: other.hasLeafChildren)
    node.width = count
    if other.isLeaf {
      if other.isKeyed { node.labels.initialize(from: other.labels, count: count) }
      UnsafeMutableRawPointer(node.slots).copyMemory(
        from: other.slots, byteCount: count &* MemoryLayout<Value>.stride)
    } else {
      UnsafeMutableRawPointer(node.childSlots).copyMemory(
        from: other.childSlots, byteCount: count &* MemoryLayout<TreeNode>.stride)
      node.ends.initialize(from: other.ends, count: count)
      if other.isKeyed { node.childKeys.initialize(from: other.childKeys, count: count) }
    }
    let source = other.head.pointee
    if let lender = source.lender {
      _ = Unmanaged<TreeNode>.fromOpaque(lender).retain()
      node.head.pointee.lender = lender
      node.head.pointee.borrowed = source.borrowed
      node.retainEntries(mask(count) & ~source.borrowed)
    } else {
      node.head.pointee.lender = Unmanaged.passRetained(other).toOpaque()
      node.head.pointee.borrowed = mask(count)
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
        (slots + index).initialize(to: slots[index])
      } else {
        (childSlots + index).initialize(to: childSlots[index])
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
        (slots + start).deinitialize(count: run)
      } else {
        (childSlots + start).deinitialize(count: run)
      }
      bits = run &+ start >= 64 ? 0 : bits & ~(Self.mask(run &+ start))
    }
  }

  /// What `deinit` does for a borrowing node: releases the entries it owns, then its lender.
  @inlinable
  func releaseBorrowingEntries() {
    let head = self.head.pointee
    releaseEntries(Self.mask(head.width) & ~head.borrowed)
    if let lender = head.lender { Unmanaged<TreeNode>.fromOpaque(lender).release() }
  }

  /// Makes this node, which must be referenced by its parent alone, own every entry, so that its shape
  /// may change. When this node is its lender's last borrower it takes the lender's references over and
  /// the lender releases only the entries this node replaced; otherwise it retains what it borrowed.
  @inlinable
  func ownAll() {
    guard let raw = head.pointee.lender else { return }
    let borrowed = head.pointee.borrowed
    head.pointee.lender = nil
    head.pointee.borrowed = 0
    var lender = Unmanaged<TreeNode>.fromOpaque(raw).takeRetainedValue()
    if isKnownUniquelyReferenced(&lender) {
      lender.releaseEntries(Self.mask(lender.width) & ~borrowed)
      lender.width = 0
    } else {
      retainEntries(borrowed)
    }
  }

  /// Makes entry `index` of this leaf, which must be referenced by its parent alone, its own, so that
  /// its value may be changed or moved out in place.
  @inlinable
  func ownEntry(_ index: Int) {
    let bit: UInt64 = 1 << UInt64(index)
    let borrowed = head.pointee.borrowed
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
    let borrowed = head.pointee.borrowed
    if borrowed & bit != 0 {
      // A borrowed child is held by the lender too: copy it, and own the copy without releasing it.
      (childSlots + index).initialize(to: TreeNode.make(borrowing: childSlots[index]))
      settle(borrowed: borrowed & ~bit)
    } else if !isKnownUniquelyReferenced(&childSlots[index]) {
      childSlots[index] = TreeNode.make(borrowing: childSlots[index])
    }
  }

  /// Records the entries still borrowed; past a quarter owned, owns them all (see above).
  @inlinable
  func settle(borrowed: UInt64) {
    head.pointee.borrowed = borrowed
    if borrowed.nonzeroBitCount &* 4 < width &* 3 { ownAll() }
  }
}

extension TreeNode {
  /// Checks the rules of borrowing copies (above): a lender of the same kind and width
  /// that borrows nothing itself, borrowed entries identical to the lender's, and at least three quarters
  /// borrowed.
  @usableFromInline
  func checkBorrowing() {
    let head = self.head.pointee
    guard let raw = head.lender else {
      precondition(head.borrowed == 0, "PersistentTree: borrowed entries without a lender")
      return
    }
    let lender = Unmanaged<TreeNode>.fromOpaque(raw).takeUnretainedValue()
    precondition(!lender.isBorrowing, "PersistentTree: a lender that borrows")
    precondition(
      lender.isLeaf == isLeaf && lender.width == width, "PersistentTree: a lender of another shape")
    precondition(head.borrowed & ~Self.mask(width) == 0, "PersistentTree: borrowed bits past the width")
    precondition(
      head.borrowed.nonzeroBitCount &* 4 >= width &* 3, "PersistentTree: a borrower owning over a quarter")
    let stride = isLeaf ? MemoryLayout<Value>.stride : MemoryLayout<TreeNode>.stride
    var bits = head.borrowed
    while bits != 0 {
      let index = bits.trailingZeroBitCount
      let mine = isLeaf ? UnsafeRawPointer(slots + index) : UnsafeRawPointer(childSlots + index)
      let theirs =
        isLeaf ? UnsafeRawPointer(lender.slots + index) : UnsafeRawPointer(lender.childSlots + index)
      let same = UnsafeRawBufferPointer(start: mine, count: stride).elementsEqual(
        UnsafeRawBufferPointer(start: theirs, count: stride))
      precondition(same, "PersistentTree: a borrowed entry unlike the lender's")
      bits &= bits &- 1
    }
  }
}
