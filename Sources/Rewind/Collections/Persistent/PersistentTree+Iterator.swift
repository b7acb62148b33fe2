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
    @usableFromInline var values: UnsafeMutablePointer<Value>
    @usableFromInline var valueCount: Int
    @usableFromInline var offset: Int
    /// The current leaf's parent (`nil` when the root is a leaf) and the leaf's index in it: kept apart
    /// from `path` so that stepping to a sibling leaf, all but one step in 32, is a few instructions.
    @usableFromInline var parent: Unmanaged<TreeNode<Value>>?
    @usableFromInline var parentIndex: Int
    /// The inner nodes above `parent`, each with the index of the child being visited.
    @usableFromInline var path: ContiguousArray<Frame>

    /// An iterator starting at `position`.
    @inlinable
    init(_ tree: PersistentTree, from position: Int = 0) {
      root = tree.root
      var path: ContiguousArray<Frame> = []
      var offset = Swift.min(Swift.max(0, position), tree.count)
      let spot = tree.descend(
        choosing: { node in
          let (index, inner) = node.child(forInsertionAt: offset)
          path.append(Frame(node: node, index: index))
          offset = inner
          return index
        },
        leaf: { $0.spot(base: 0, offset: offset) }
      ).unsafelyUnwrapped
      let bottom = path.popLast()
      parent = bottom.map { Unmanaged.passUnretained($0.node) }
      parentIndex = bottom?.index ?? 0
      self.path = path
      values = spot.values.assumingMemoryBound(to: Value.self)
      valueCount = spot.width
      self.offset = spot.offset
    }

    @inlinable
    mutating func next() -> Value? {
      let offset = self.offset
      guard offset < valueCount else { return nextLeaf() }
      self.offset = offset &+ 1
      return values[offset]
    }

    /// Moves to the next leaf and returns its first value.
    @inlinable
    mutating func nextLeaf() -> Value? {
      while let parent {
        let index = parentIndex &+ 1
        let child = parent._withUnsafeGuaranteedRef { index < $0.width ? $0.childPointer(index) : nil }
        guard let child else {
          guard nextParent() else { return nil }
          continue
        }
        parentIndex = index
        Unmanaged<TreeNode<Value>>.fromOpaque(child)._withUnsafeGuaranteedRef { leaf in
          values = leaf.slots
          valueCount = leaf.width
        }
        if valueCount > 0 {
          offset = 1
          return values[0]
        }
        offset = 0
      }
      return nil
    }

    /// Moves `parent` to the next node of its level, before its first child; false after the last.
    @inlinable
    mutating func nextParent() -> Bool {
      var depth = path.count &- 1
      while depth >= 0 {
        let index = path[depth].index &+ 1
        unowned(unsafe) let node = path[depth].node
        guard index < node.width else {
          depth &-= 1
          continue
        }
        path[depth].index = index
        path.removeSubrange((depth &+ 1)...)
        // Down the first children to the level above the leaves (every leaf is at the same depth).
        var current = node.childPointer(index)
        while let next = Unmanaged<TreeNode<Value>>.fromOpaque(current)._withUnsafeGuaranteedRef({
          node -> UnsafeMutableRawPointer? in
          if Unmanaged<TreeNode<Value>>.fromOpaque(node.childPointer(0))._withUnsafeGuaranteedRef({
            $0.isLeaf
          }) {
            parent = Unmanaged.passUnretained(node)
            parentIndex = -1
            return nil
          }
          path.append(Frame(node: node, index: 0))
          return node.childPointer(0)
        }) {
          current = next
        }
        return true
      }
      parent = nil
      return false
    }
  }
}

extension PersistentTree.Iterator: @unchecked Sendable where Value: Sendable {}
extension PersistentTree.Iterator.Frame: @unchecked Sendable where Value: Sendable {}
