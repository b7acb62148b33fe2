// The checks of a tree's structure and of its borrowing nodes, which `IdentifiedArray` and `PersistentArray`
// run after every mutation in builds with `-DREWIND_CHECK_INVARIANTS` (see `InvariantChecking`).
extension PersistentTree {
  /// Checks the tree's structure: leaf and node sizes, counts, equal depth, the kind of each node's
  /// children, the borrowing rules at every node (``TreeNode/checkBorrowing()``), and keys; traps with a
  /// message naming what is wrong.
  ///
  /// With `keyed`, every node must be keyed and the keys increase along the tree (strictly when
  /// `uniqueKeys`). Without, a node may have dropped its keys (a ``PersistentArray`` change does), but a
  /// node that still says it is keyed must be right: a keyed leaf's keys do not decrease, and a keyed inner
  /// node has keyed children and each child's last key.
  ///
  /// Visits every node: O(n).
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
        } else if node.isKeyed {
          for offset in 1..<Swift.max(1, node.width) {
            precondition(
              node.key(at: offset &- 1) <= node.key(at: offset), "PersistentTree: a keyed leaf out of order")
          }
        }
        return
      }
      precondition(node.width > 0, "PersistentTree: inner node without children")
      precondition(node.width <= TreeNode<Value>.innerCapacity, "PersistentTree: node over capacity")
      if keyed { precondition(node.isKeyed, "PersistentTree: missing child keys") }
      var total = 0
      for index in 0..<node.width {
        let child = node.child(at: index)
        precondition(child.isLeaf == node.hasLeafChildren, "PersistentTree: children of another kind")
        visit(child, depth: depth &+ 1, isRoot: false)
        total &+= child.count
        precondition(node.end(ofChild: index) == total, "PersistentTree: stale count")
        if node.isKeyed {
          precondition(child.isKeyed, "PersistentTree: a keyed node over an unkeyed child")
          precondition(node.key(at: index) == child.lastKey, "PersistentTree: stale child key")
        }
      }
    }
    visit(root, depth: 0, isRoot: true)
  }
}

extension PersistentTree where Value: Encodable {
  /// Checks that every cached digest (`TreeNode+Digest.swift`) equals the lanes recomputed from the
  /// elements of its subtree, caches ignored; traps when one marked valid is not. A digest is marked stale
  /// where a node is made writable; a node changed without passing there would be caught here, after the
  /// mutation. A leaf's block must also hold its values' digests: all of them while valid, and while
  /// stale (not reshaped) those of the values not noted as edited, which its next fingerprint reuses.
  ///
  /// O(n) encodings when any node holds a cache; O(number of nodes) when none does.
  @usableFromInline
  func checkDigests() {
    func anyCached(_ node: TreeNode<Value>) -> Bool {
      if node.digestWord != 0 { return true }
      if node.isLeaf { return false }
      return (0..<node.width).contains { anyCached(node.child(at: $0)) }
    }
    guard anyCached(root) else { return }
    // The lanes of `node`'s subtree from its elements; `nil` when one does not encode, and then nothing
    // above it may hold a cache (a digest that throws caches nothing).
    func recompute(_ node: TreeNode<Value>) -> DigestLanes? {
      var lanes = DigestLanes()
      var encodes = true
      if node.isLeaf {
        var digests: [StateFingerprint] = []
        for index in 0..<node.width {
          guard let digest = try? CanonicalEncoder.fingerprint(of: unsafe node.slots[index]) else {
            encodes = false
            break
          }
          digests.append(digest)
          CanonicalValue.append(element: digest, to: &lanes)
        }
        checkLeafBlock(node, digests: encodes ? digests : nil)
      } else {
        for index in 0..<node.width {
          if let child = recompute(node.child(at: index)) { lanes.append(child) } else { encodes = false }
        }
      }
      let recomputed = encodes ? lanes : nil
      if let cached = node.cachedDigest {
        precondition(cached == recomputed, "PersistentTree: a cached digest unlike its subtree's")
      }
      return recomputed
    }
    _ = recompute(root)
  }

  /// Checks a leaf's block against `digests`, its values' digests (`nil` when one does not encode).
  private func checkLeafBlock(_ node: TreeNode<Value>, digests: [StateFingerprint]?) {
    let word = node.digestWord
    guard word & CachedDigestWord.reshaped == 0, let block = unsafe LeafDigestHeader.block(in: word) else {
      return
    }
    let width = unsafe block.pointee.width
    var lanes = DigestLanes()
    for index in 0..<width { unsafe CanonicalValue.append(element: block.rows[index], to: &lanes) }
    unsafe precondition(
      lanes == block.pointee.lanes, "PersistentTree: a leaf's lanes unlike its rows' digests")
    let valid = word & CachedDigestWord.valid != 0
    precondition(!valid || width == node.width, "PersistentTree: a valid leaf block of another width")
    guard width == node.width, let digests else { return }
    let edited = valid ? 0 : unsafe block.pointee.edited
    for index in 0..<width where edited & (1 << UInt64(index)) == 0 {
      unsafe precondition(
        block.rows[index] == digests[index], "PersistentTree: a value changed without being noted as edited")
    }
  }
}

extension TreeNode {
  /// Checks the rules of borrowing copies (``UnmanagedNode``, rules 4 to 8): a lender of the same kind
  /// and width that borrows nothing itself, borrowed bits within the width, borrowed entries whose bytes
  /// are the lender's, at least three quarters of them borrowed, and a leaf borrowing only values that may be.
  @usableFromInline
  func checkBorrowing() {
    let borrowed = unsafe head.pointee.borrowed
    guard let reference = unsafe lender else {
      precondition(borrowed == 0, "PersistentTree: borrowed entries without a lender")
      return
    }
    let lender = unsafe reference.node
    precondition(!lender.isBorrowing, "PersistentTree: a lender that borrows")
    precondition(
      lender.isLeaf == isLeaf && lender.width == width, "PersistentTree: a lender of another shape")
    precondition(borrowed & ~Self.mask(width) == 0, "PersistentTree: borrowed bits past the width")
    precondition(
      borrowed.nonzeroBitCount &* 4 >= width &* 3, "PersistentTree: a borrower owning over a quarter")
    unsafe precondition(
      !isLeaf || UnmanagedNode<Value>.valuesAreBitwiseTakable,
      "PersistentTree: a leaf borrowing values that are not bitwise-takable")
    let stride = isLeaf ? MemoryLayout<Value>.stride : MemoryLayout<TreeNode>.stride
    var bits = borrowed
    while bits != 0 {
      let index = bits.trailingZeroBitCount
      let mine = unsafe UnsafeRawBufferPointer(start: entryAddress(index), count: stride)
      let theirs = unsafe UnsafeRawBufferPointer(start: lender.entryAddress(index), count: stride)
      precondition(unsafe mine.elementsEqual(theirs), "PersistentTree: a borrowed entry unlike the lender's")
      bits &= bits &- 1
    }
  }

  /// The address of entry `index`: a value (leaf) or a child (inner node).
  @usableFromInline
  func entryAddress(_ index: Int) -> UnsafeRawPointer {
    unsafe isLeaf ? UnsafeRawPointer(slots + index) : UnsafeRawPointer(childSlots + index)
  }
}
