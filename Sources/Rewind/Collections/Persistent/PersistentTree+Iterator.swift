extension PersistentTree {
  /// Iterates the values in order in O(1) per value: it reads a leaf's values in place and keeps the path
  /// to the current leaf, instead of descending from the root for every position.
  ///
  /// It holds the root; the nodes below are held `unowned(unsafe)`, as the root keeps every one of them
  /// alive and unchanged (a node referenced from two roots is copied, not changed, by a mutation). Stepping
  /// to the next leaf then costs no reference counting, which is what makes iterating a tree nearly as
  /// fast as an array.
  @usableFromInline
  struct Iterator: IteratorProtocol {
    @usableFromInline
    struct Frame {
      @usableFromInline unowned(unsafe) var node: TreeNode<Value>
      @usableFromInline var index: Int

      @inlinable
      init(node: TreeNode<Value>, index: Int) {
        self.node = node
        self.index = index
      }
    }

    @usableFromInline let root: TreeNode<Value>
    /// The current leaf's values.
    @usableFromInline var values: UnsafeMutablePointer<Value>?
    @usableFromInline var valueCount: Int
    @usableFromInline var offset: Int
    /// The inner nodes above the current leaf, each with the index of the child being visited.
    @usableFromInline var path: ContiguousArray<Frame>

    /// An iterator starting at `position`.
    @inlinable
    init(_ tree: PersistentTree, from position: Int = 0) {
      root = tree.root
      path = []
      unowned(unsafe) var node = tree.root
      var offset = Swift.min(Swift.max(0, position), tree.count)
      while !node.isLeaf {
        let (index, inner) = node.child(forInsertionAt: offset)
        path.append(Frame(node: node, index: index))
        offset = inner
        node = node.children[index]
      }
      values = node.slots
      valueCount = node.leafCount
      self.offset = offset
    }

    @inlinable
    mutating func next() -> Value? {
      let offset = self.offset
      guard offset < valueCount else { return nextLeaf() }
      self.offset = offset &+ 1
      return values.unsafelyUnwrapped[offset]
    }

    /// Moves to the next leaf and returns its first value.
    @inlinable
    mutating func nextLeaf() -> Value? {
      var depth = path.count &- 1
      while depth >= 0 {
        let index = path[depth].index &+ 1
        unowned(unsafe) let parent = path[depth].node
        guard index < parent.children.count else {
          depth &-= 1
          continue
        }
        path[depth].index = index
        path.removeSubrange((depth &+ 1)...)
        unowned(unsafe) var node = parent.children[index]
        while !node.isLeaf {
          path.append(Frame(node: node, index: 0))
          node = node.children[0]
        }
        values = node.slots
        valueCount = node.leafCount
        if valueCount > 0 {
          offset = 1
          return values.unsafelyUnwrapped[0]
        }
        offset = 0
        depth = path.count &- 1
      }
      path.removeAll()
      return nil
    }
  }
}

// @unchecked: `values` points into a leaf that `root` keeps alive and that no one changes while it is shared.
extension PersistentTree.Iterator: @unchecked Sendable where Value: Sendable {}
extension PersistentTree.Iterator.Frame: Sendable where Value: Sendable {}

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
      if node.isLeaf {
        precondition(node.leafCount <= TreeNode<Value>.leafCapacity, "PersistentTree: leaf over capacity")
        precondition(isRoot || node.leafCount > 0, "PersistentTree: empty leaf below the root")
        precondition(node.children.isEmpty && node.ends.isEmpty, "PersistentTree: leaf with children")
        if leafDepth == nil { leafDepth = depth }
        precondition(leafDepth == depth, "PersistentTree: leaves at different depths")
        if keyed {
          precondition(node.labels != nil || node.leafCount == 0, "PersistentTree: a leaf without keys")
          for offset in 0..<node.leafCount {
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
      precondition(!node.children.isEmpty, "PersistentTree: inner node without children")
      precondition(node.children.count <= TreeNode<Value>.innerCapacity, "PersistentTree: node over capacity")
      precondition(node.ends.count == node.children.count, "PersistentTree: ends and children out of step")
      precondition(node.slots == nil && node.labels == nil, "PersistentTree: inner node with values")
      if keyed { precondition(node.keys.count == node.children.count, "PersistentTree: missing child keys") }
      var total = 0
      for (index, child) in node.children.enumerated() {
        visit(child, depth: depth &+ 1, isRoot: false)
        total &+= child.count
        precondition(node.ends[index] == total, "PersistentTree: stale count")
        if keyed { precondition(node.keys[index] == child.lastKey, "PersistentTree: stale child key") }
      }
    }
    visit(root, depth: 0, isRoot: true)
  }
}
