/// A persistent B+-tree of values addressed by position (and, in a keyed tree, by key): the storage of
/// ``PersistentArray`` and ``IdentifiedArray``.
///
/// A value of this type is a reference to a root node. Copying it is O(1); the first mutation of a copy
/// copies the nodes on the path to what it changes, O(log n) of them, and shares everything else with the
/// original. Values live in leaves of up to `TreeNode.leafCapacity` contiguous elements; a tree of one leaf
/// is a plain contiguous buffer.
///
/// Descents hold nodes `unowned(unsafe)`: every node below the root is kept alive by its parent for as long
/// as the tree is (and a mutating descent makes each node unique before stepping into it), so retaining
/// them again, level by level, would only cost time (a third of a lookup, measured).
@usableFromInline
struct PersistentTree<Value> {
  @usableFromInline var root: TreeNode<Value>

  /// An empty tree.
  @inlinable
  init() { root = TreeNode(leafKeyed: true) }

  @inlinable
  init(root: TreeNode<Value>) { self.root = root }

  /// The number of values.
  @inlinable
  var count: Int { root.count }

  /// Whether both trees are the same storage (then they are equal without looking further).
  @inlinable
  func isIdentical(to other: Self) -> Bool { root === other.root }

  // MARK: Reading

  /// The value at `position`.
  /// - Complexity: O(log n).
  @inlinable
  subscript(position: Int) -> Value {
    unowned(unsafe) var node = root
    var offset = position
    while !node.isLeaf {
      let (index, inner) = node.child(containing: offset)
      offset = inner
      node = node.children[index]
    }
    return node.values[offset]
  }

  /// The key of the value at `position` (keyed trees).
  /// - Complexity: O(log n).
  @inlinable
  func key(at position: Int) -> UInt64 {
    unowned(unsafe) var node = root
    var offset = position
    while !node.isLeaf {
      let (index, inner) = node.child(containing: offset)
      offset = inner
      node = node.children[index]
    }
    return node.key(at: offset)
  }

  /// The position of the first value whose key is at least `key` (`count` when there is none).
  /// - Complexity: O(log n).
  @inlinable
  func lowerBound(key: UInt64) -> Int {
    unowned(unsafe) var node = root
    var base = 0
    while !node.isLeaf {
      let index = node.firstIndex(ofKeyAtLeast: key)
      if index == node.width { return root.count }
      base &+= node.start(ofChild: index)
      node = node.children[index]
    }
    return base &+ node.firstIndex(ofKeyAtLeast: key)
  }

  /// The position of the value whose key is exactly `key`, with that value.
  /// - Complexity: O(log n).
  @inlinable
  func find(key: UInt64) -> (position: Int, value: Value)? {
    unowned(unsafe) var node = root
    var base = 0
    while !node.isLeaf {
      let index = node.firstIndex(ofKeyAtLeast: key)
      if index == node.width { return nil }
      base &+= node.start(ofChild: index)
      node = node.children[index]
    }
    let offset = node.firstIndex(ofKeyAtLeast: key)
    guard offset < node.width, node.key(at: offset) == key else { return nil }
    return (base &+ offset, node.values[offset])
  }

  /// The position of the first value with key `key` that `matches` accepts: for keys that may repeat
  /// (hashes), which sit next to each other.
  /// - Complexity: O(log n + r) for r values with that key.
  @inlinable
  func firstPosition(ofKey key: UInt64, where matches: (Value) -> Bool) -> Int? {
    unowned(unsafe) var node = root
    var base = 0
    while !node.isLeaf {
      let index = node.firstIndex(ofKeyAtLeast: key)
      if index == node.width { return nil }
      base &+= node.start(ofChild: index)
      node = node.children[index]
    }
    var offset = node.firstIndex(ofKeyAtLeast: key)
    while offset < node.width {
      guard node.key(at: offset) == key else { return nil }
      if matches(node.values[offset]) { return base &+ offset }
      offset &+= 1
    }
    // Equal keys that run on into the next leaf: colliding hashes only.
    var position = base &+ offset
    while position < count, self.key(at: position) == key {
      if matches(self[position]) { return position }
      position &+= 1
    }
    return nil
  }

  // MARK: Changing values in place

  /// Makes the root referenced by this tree alone.
  @inlinable
  mutating func makeRootUnique() {
    if !isKnownUniquelyReferenced(&root) { root = TreeNode(copying: root) }
  }

  /// Runs `body` on the value at `position`, in place when the path to it is not shared.
  /// - Complexity: O(log n), plus copying the shared nodes on the path (O(log n) of them).
  @inlinable
  mutating func update<R>(at position: Int, _ body: (inout Value) throws -> R) rethrows -> R {
    makeRootUnique()
    unowned(unsafe) var node = root
    var offset = position
    while !node.isLeaf {
      let (index, inner) = node.child(containing: offset)
      node.makeChildUnique(index)
      offset = inner
      node = node.children[index]
    }
    return try body(&node.slots.unsafelyUnwrapped[offset])
  }

  /// Runs `body` on the value whose key is `key` (keyed trees, unique keys); `nil` when there is none.
  /// - Complexity: O(log n), plus copying the shared nodes on the path.
  @inlinable
  mutating func update<R>(key: UInt64, _ body: (inout Value) throws -> R) rethrows -> R? {
    makeRootUnique()
    unowned(unsafe) var node = root
    while !node.isLeaf {
      let index = node.firstIndex(ofKeyAtLeast: key)
      if index == node.width { return nil }
      node.makeChildUnique(index)
      node = node.children[index]
    }
    let offset = node.firstIndex(ofKeyAtLeast: key)
    guard offset < node.width, node.key(at: offset) == key else { return nil }
    return try body(&node.slots.unsafelyUnwrapped[offset])
  }

  /// The leaf holding the value whose key is `key` (keyed trees, unique keys), made referenced by this
  /// tree alone along with its path, and the value's offset in it; `nil` when there is none.
  /// - Complexity: O(log n), plus copying the shared nodes on the path.
  @inlinable
  mutating func uniqueLeaf(key: UInt64) -> (leaf: TreeNode<Value>, offset: Int)? {
    makeRootUnique()
    unowned(unsafe) var node = root
    while !node.isLeaf {
      let index = node.firstIndex(ofKeyAtLeast: key)
      if index == node.width { return nil }
      node.makeChildUnique(index)
      node = node.children[index]
    }
    let offset = node.firstIndex(ofKeyAtLeast: key)
    guard offset < node.width, node.key(at: offset) == key else { return nil }
    return (node, offset)
  }

  /// Gives the value at `position` the key `key`, which must keep the keys in order.
  /// - Complexity: O(log n).
  @inlinable
  mutating func setKey(_ key: UInt64, at position: Int) {
    makeRootUnique()
    root.setKey(key, at: position)
  }

  // MARK: Inserting and removing

  /// Inserts `value` at `position` (`0 ... count`); in a keyed tree `key` must fit between its
  /// neighbours' keys, and `nil` makes the changed nodes unkeyed (``PersistentArray``).
  /// - Complexity: O(log n).
  @inlinable
  mutating func insert(_ value: Value, key: UInt64?, at position: Int) {
    makeRootUnique()
    let atEnd = position == root.count
    if let sibling = root.insert(value, key: key, at: position, atEnd: atEnd) {
      root = TreeNode(children: [root, sibling], keyed: key != nil)
    }
  }

  /// Removes and returns the value at `position`; `keyed` keeps the keys of a keyed tree up to date, and
  /// false makes the changed nodes unkeyed.
  /// - Complexity: O(log n).
  @inlinable
  @discardableResult
  mutating func remove(at position: Int, keyed: Bool) -> Value {
    makeRootUnique()
    let removed = root.remove(at: position, keyed: keyed)
    while !root.isLeaf && root.children.count == 1 { root = root.children[0] }
    return removed
  }

  /// Removes every value.
  @inlinable
  mutating func removeAll() { root = TreeNode(leafKeyed: true) }
}

extension PersistentTree: Sendable where Value: Sendable {}

extension TreeNode {
  @inlinable
  func setKey(_ key: UInt64, at offset: Int) {
    if isLeaf {
      labels.unsafelyUnwrapped[offset] = key
      return
    }
    let (index, inner) = child(containing: offset)
    makeChildUnique(index)
    children[index].setKey(key, at: inner)
    keys[index] = children[index].lastKey
  }

  /// Inserts into this subtree, which must be referenced by its parent alone.
  /// - Returns: a new right sibling when this node had to split.
  @inlinable
  func insert(_ value: Value, key: UInt64?, at offset: Int, atEnd: Bool) -> TreeNode? {
    if let slots {
      // Room for one more is always allocated (`slotCount`): shift, place, then split if over capacity.
      (slots + (offset &+ 1)).moveInitialize(from: slots + offset, count: leafCount &- offset)
      (slots + offset).initialize(to: value)
      if let key, let labels {
        (labels + (offset &+ 1)).moveInitialize(from: labels + offset, count: leafCount &- offset)
        labels[offset] = key
      } else {
        dropKeys()
      }
      leafCount &+= 1
      return leafCount > Self.leafCapacity ? split(atEnd: atEnd) : nil
    }
    let (index, inner) = child(forInsertionAt: offset)
    makeChildUnique(index)
    let child = children[index]
    let sibling = child.insert(value, key: key, at: inner, atEnd: atEnd)
    var next = index &+ 1
    if let sibling {
      children.insert(sibling, at: index &+ 1)
      let before = start(ofChild: index)
      ends[index] = before &+ child.count
      ends.insert(ends[index] &+ sibling.count, at: index &+ 1)
      if key != nil {
        keys[index] = child.lastKey
        keys.insert(sibling.lastKey, at: index &+ 1)
      }
      next = index &+ 2
    } else {
      ends[index] &+= 1
      if key != nil { keys[index] = child.lastKey }
    }
    while next < ends.count {
      ends[next] &+= 1
      next &+= 1
    }
    if key == nil { dropKeys() }
    return children.count > Self.innerCapacity ? split(atEnd: atEnd) : nil
  }

  /// Splits an overfull node in two and returns the right half. A node that grew by appending at the very
  /// end of the tree keeps its full capacity and hands on one entry, so that a list built by appending
  /// ends up with full nodes.
  @inlinable
  func split(atEnd: Bool) -> TreeNode {
    if let slots {
      let keep = atEnd ? Self.leafCapacity : leafCount / 2
      let right = TreeNode(leafKeyed: labels != nil)
      right.slots.unsafelyUnwrapped.moveInitialize(from: slots + keep, count: leafCount &- keep)
      if let labels, let rightLabels = right.labels {
        rightLabels.moveInitialize(from: labels + keep, count: leafCount &- keep)
      }
      right.leafCount = leafCount &- keep
      leafCount = keep
      return right
    }
    let keep = atEnd ? Self.innerCapacity : children.count / 2
    let right = TreeNode(children: Array(children[keep...]), keyed: !keys.isEmpty)
    children = Array(children[..<keep])
    ends = Array(ends[..<keep])
    if !keys.isEmpty { keys = Array(keys[..<keep]) }
    return right
  }

  /// Removes from this subtree, which must be referenced by its parent alone.
  @inlinable
  func remove(at offset: Int, keyed: Bool) -> Value {
    if let slots {
      let removed = (slots + offset).move()
      (slots + offset).moveInitialize(from: slots + (offset &+ 1), count: leafCount &- offset &- 1)
      if keyed, let labels {
        (labels + offset).moveInitialize(from: labels + (offset &+ 1), count: leafCount &- offset &- 1)
      } else {
        dropKeys()
      }
      leafCount &-= 1
      return removed
    }
    let (index, inner) = child(containing: offset)
    makeChildUnique(index)
    let removed = children[index].remove(at: inner, keyed: keyed)
    for position in index..<ends.count { ends[position] &-= 1 }
    if !keyed { dropKeys() }
    if children[index].count == 0 && children.count > 1 {
      // An emptied child goes (its parent keeps at least one child; the tree's root collapses).
      children.remove(at: index)
      ends.remove(at: index)
      if keyed { keys.remove(at: index) }
    } else if children[index].width < children[index].minimumWidth && children.count > 1 {
      rebalance(child: index, keyed: keyed)
    } else if keyed && children[index].count > 0 {
      keys[index] = children[index].lastKey
    }
    return removed
  }

  /// Merges the underfull `children[index]` with a neighbour, or evens the two out when together they
  /// would not fit in one node.
  @inlinable
  func rebalance(child index: Int, keyed: Bool) {
    let left = index > 0 ? index &- 1 : index
    let right = left &+ 1
    makeChildUnique(left)
    makeChildUnique(right)
    let a = children[left]
    let b = children[right]
    let keepKeys = keyed && a.isKeyed && b.isKeyed
    if !keepKeys {
      a.dropKeys()
      b.dropKeys()
    }
    let capacity = a.isLeaf ? Self.leafCapacity : Self.innerCapacity
    if a.width &+ b.width <= capacity {
      a.absorb(b)
      children.remove(at: right)
      ends.remove(at: left)
      if keyed {
        keys.remove(at: right)
        keys[left] = a.lastKey
      }
    } else {
      a.share(with: b)
      ends[left] = start(ofChild: left) &+ a.count
      if keyed {
        keys[left] = a.lastKey
        keys[right] = b.lastKey
      }
    }
  }

  /// Moves every entry of `other`, a sibling of the same height referenced by its parent alone, to the
  /// end of this node, leaving `other` empty.
  @inlinable
  func absorb(_ other: TreeNode) {
    if let slots, let source = other.slots {
      (slots + leafCount).moveInitialize(from: source, count: other.leafCount)
      if let labels, let sourceLabels = other.labels {
        (labels + leafCount).moveInitialize(from: sourceLabels, count: other.leafCount)
      }
      leafCount &+= other.leafCount
      other.leafCount = 0
      return
    }
    var total = count
    for child in other.children {
      total &+= child.count
      ends.append(total)
    }
    children.append(contentsOf: other.children)
    keys.append(contentsOf: other.keys)
    other.children = []
    other.ends = []
    other.keys = []
  }

  /// Moves entries between this node and `other`, its right sibling, so that each holds about half.
  @inlinable
  func share(with other: TreeNode) {
    if let slots, let otherSlots = other.slots {
      let total = leafCount &+ other.leafCount
      let half = total / 2
      if leafCount > half {
        // Move this node's tail to the front of `other`.
        let moved = leafCount &- half
        (otherSlots + moved).moveInitialize(from: otherSlots, count: other.leafCount)
        otherSlots.moveInitialize(from: slots + half, count: moved)
        if let labels, let otherLabels = other.labels {
          (otherLabels + moved).moveInitialize(from: otherLabels, count: other.leafCount)
          otherLabels.moveInitialize(from: labels + half, count: moved)
        }
      } else {
        // Move the front of `other` to this node's tail.
        let moved = half &- leafCount
        (slots + leafCount).moveInitialize(from: otherSlots, count: moved)
        otherSlots.moveInitialize(from: otherSlots + moved, count: other.leafCount &- moved)
        if let labels, let otherLabels = other.labels {
          (labels + leafCount).moveInitialize(from: otherLabels, count: moved)
          otherLabels.moveInitialize(from: otherLabels + moved, count: other.leafCount &- moved)
        }
      }
      leafCount = half
      other.leafCount = total &- half
      return
    }
    let keyed = !keys.isEmpty
    let all = children + other.children
    let half = all.count / 2
    let left = TreeNode(children: Array(all[..<half]), keyed: keyed)
    let right = TreeNode(children: Array(all[half...]), keyed: keyed)
    (children, ends, keys) = (left.children, left.ends, left.keys)
    (other.children, other.ends, other.keys) = (right.children, right.ends, right.keys)
  }
}
