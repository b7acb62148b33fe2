// The checks of a tree's structure and of its borrowing nodes, which `IdentifiedArray` and `PersistentArray`
// run after every mutation in builds with `-DREWIND_CHECK_INVARIANTS` (see `InvariantChecking`).
extension PersistentTree {
  /// Checks the tree's structure: leaf and node sizes, counts, keys (in order: strictly increasing when
  /// `uniqueKeys`), and equal depth; traps with a message naming what is wrong.
  ///
  /// Visits every node: O(n). Callers run it only in builds with `REWIND_CHECK_INVARIANTS`.
  @usableFromInline
  func checkStructure(keyed: Bool, uniqueKeys: Bool) {
    var previousKey: UInt64?
    var leafDepth: Int?
    func visit(_ node: TreeNode<Value>, depth: Int, isRoot: Bool) {
      node.checkBorrowing()
      if node.isLeaf {
        precondition(node.width <= TreeNode<Value>.leafCapacity, "PersistentTree: leaf over capacity")
        precondition(isRoot || node.width > 0, "PersistentTree: empty leaf below the root")
        if leafDepth == nil { leafDepth = depth }
        precondition(leafDepth == depth, "PersistentTree: leaves at different depths")
        if keyed {
          precondition(node.isKeyed || node.width == 0, "PersistentTree: a leaf without keys")
          for offset in 0..<node.width {
            let key = node.key(at: offset)
            if let previousKey {
              precondition(
                uniqueKeys ? key > previousKey : key >= previousKey, "PersistentTree: keys out of order")
            }
            previousKey = key
          }
        }
        return
      }
      precondition(node.width > 0, "PersistentTree: inner node without children")
      precondition(node.width <= TreeNode<Value>.innerCapacity, "PersistentTree: node over capacity")
      if keyed { precondition(node.isKeyed, "PersistentTree: missing child keys") }
      precondition(
        node.children.allSatisfy { $0.isLeaf == node.hasLeafChildren },
        "PersistentTree: children of another kind")
      var total = 0
      for (index, child) in node.children.enumerated() {
        visit(child, depth: depth &+ 1, isRoot: false)
        total &+= child.count
        precondition(node.ends[index] == total, "PersistentTree: stale count")
        if keyed { precondition(node.childKeys[index] == child.lastKey, "PersistentTree: stale child key") }
      }
    }
    visit(root, depth: 0, isRoot: true)
  }
}

extension TreeNode {
  /// Checks the rules of borrowing copies (above): a lender of the same kind and width
  /// that borrows nothing itself, borrowed entries identical to the lender's, and at least half borrowed.
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
    precondition(head.borrowed.nonzeroBitCount &* 2 >= width, "PersistentTree: a borrower owning over half")
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
