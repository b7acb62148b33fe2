extension PersistentTree {
  /// Iterates the values in order in O(1) per value: it reads a leaf's values as an array and keeps the
  /// path to the current leaf, instead of descending from the root for every position.
  @usableFromInline
  struct Iterator: IteratorProtocol {
    @usableFromInline
    struct Frame {
      /// Unowned: the iterator's `root` keeps every node of the tree alive, and unchanged (a node
      /// referenced from two roots is copied, not changed, by a mutation); not retaining them makes a step
      /// to the next leaf cheaper.
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
    @usableFromInline var leaf: [Value]
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
      leaf = node.values
      self.offset = offset
    }

    @inlinable
    mutating func next() -> Value? {
      let offset = self.offset
      guard offset < leaf.count else { return nextLeaf() }
      self.offset = offset &+ 1
      return leaf[offset]
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
        leaf = node.values
        if !leaf.isEmpty {
          offset = 1
          return leaf[0]
        }
        offset = 0
        depth = path.count &- 1
      }
      path.removeAll()
      return nil
    }
  }
}

extension PersistentTree.Iterator: Sendable where Value: Sendable {}
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
        precondition(node.values.count <= TreeNode<Value>.leafCapacity, "PersistentTree: leaf over capacity")
        precondition(isRoot || !node.values.isEmpty, "PersistentTree: empty leaf below the root")
        precondition(node.children.isEmpty && node.ends.isEmpty, "PersistentTree: leaf with children")
        if leafDepth == nil { leafDepth = depth }
        precondition(leafDepth == depth, "PersistentTree: leaves at different depths")
        if keyed {
          precondition(node.keys.count == node.values.count, "PersistentTree: keys and values out of step")
          for key in node.keys {
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
      precondition(node.values.isEmpty, "PersistentTree: inner node with values")
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
