extension PersistentTree {
  /// Iterates the values in order in O(1) per value: it reads a leaf's values in place and keeps the path
  /// to the current leaf, instead of descending from the root for every position.
  ///
  /// It holds the root; the nodes below are held through ``UnmanagedNode``, as the root keeps every one
  /// of them alive and unchanged (rules 1 and 2 there). Stepping to the next leaf then costs no reference
  /// counting, which is what makes iterating a tree nearly as fast as an array. Safe to use: what it holds
  /// stays valid for as long as it does.
  @safe
  @usableFromInline
  struct Iterator: IteratorProtocol {
    @unsafe
    @usableFromInline
    struct Frame {
      @usableFromInline var node: UnmanagedNode<Value>
      @usableFromInline var index: Int

      @inlinable
      init(node: UnmanagedNode<Value>, index: Int) {
        unsafe self.node = node
        unsafe self.index = index
      }
    }

    @usableFromInline let root: TreeNode<Value>
    /// The current leaf's values.
    @usableFromInline var values: UnsafeMutablePointer<Value>
    @usableFromInline var valueCount: Int
    @usableFromInline var offset: Int
    /// The current leaf's parent (`nil` when the root is a leaf) and the leaf's index in it: kept apart
    /// from `path` so that stepping to a sibling leaf, all but one step in 32, is a few instructions.
    @usableFromInline var parent: UnmanagedNode<Value>?
    @usableFromInline var parentIndex: Int
    /// The inner nodes above `parent`, each with the index of the child being visited.
    @usableFromInline var path: ContiguousArray<Frame>

    /// An iterator starting at `position`.
    @inlinable
    init(_ tree: PersistentTree, from position: Int = 0) {
      root = tree.root
      var path: ContiguousArray<Frame> = unsafe []
      var offset = Swift.min(Swift.max(0, position), tree.count)
      let spot = unsafe tree.descend(
        choosing: { node in
          let (index, inner) = node.child(forInsertionAt: offset)
          unsafe path.append(Frame(node: UnmanagedNode(node), index: index))
          offset = inner
          return index
        },
        leaf: { unsafe $0.spot(base: 0, offset: offset) }
      ).unsafelyUnwrapped
      let bottom = unsafe path.popLast()
      unsafe parent = bottom.map { unsafe $0.node }
      parentIndex = unsafe bottom?.index ?? 0
      unsafe self.path = path
      unsafe values = spot.values.assumingMemoryBound(to: Value.self)
      valueCount = unsafe spot.width
      self.offset = unsafe spot.offset
    }

    @inlinable
    mutating func next() -> Value? {
      let offset = self.offset
      guard offset < valueCount else { return nextLeaf() }
      self.offset = offset &+ 1
      return unsafe values[offset]
    }

    /// Moves to the next leaf and returns its first value.
    @inlinable
    mutating func nextLeaf() -> Value? {
      while let parent = unsafe parent {
        let index = parentIndex &+ 1
        let child = unsafe parent.withNode { index < $0.width ? unsafe $0.unmanagedChild(index) : nil }
        guard let child = unsafe child else {
          guard nextParent() else { return nil }
          continue
        }
        parentIndex = index
        unsafe child.withNode { leaf in
          unsafe values = leaf.slots
          valueCount = leaf.width
        }
        if valueCount > 0 {
          offset = 1
          return unsafe values[0]
        }
        offset = 0
      }
      return nil
    }

    /// Moves `parent` to the next node of its level, before its first child; false after the last.
    @inlinable
    mutating func nextParent() -> Bool {
      var depth = unsafe path.count &- 1
      while depth >= 0 {
        let index = unsafe path[depth].index &+ 1
        let node = unsafe path[depth].node
        guard unsafe index < node.withNode({ $0.width }) else {
          depth &-= 1
          continue
        }
        unsafe path[depth].index = index
        unsafe path.removeSubrange((depth &+ 1)...)
        // Down the first children to the level above the leaves (every leaf is at the same depth).
        var current = unsafe node.withNode { unsafe $0.unmanagedChild(index) }
        while let next = unsafe current.withNode({ node -> UnmanagedNode<Value>? in
          if node.hasLeafChildren {
            unsafe parent = UnmanagedNode(node)
            parentIndex = -1
            return nil
          }
          unsafe path.append(Frame(node: UnmanagedNode(node), index: 0))
          return unsafe node.unmanagedChild(0)
        }) {
          unsafe current = next
        }
        return true
      }
      unsafe parent = nil
      return false
    }
  }
}

extension PersistentTree.Iterator: @unchecked Sendable where Value: Sendable {}
extension PersistentTree.Iterator.Frame: @unchecked Sendable where Value: Sendable {}
