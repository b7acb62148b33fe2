/// A node of a ``PersistentTree``: a leaf holding a run of values, or an inner node holding children.
///
/// Nodes are shared by every version of a collection that contains them and are never changed while
/// shared: a mutation first asks `isKnownUniquelyReferenced` and copies a shared node, the same discipline
/// as `Array`'s buffer. That is why the class may be `@unchecked Sendable` when its values are.
///
/// A leaf keeps its values in a buffer of its own (`slots`, room for `leafCapacity + 1`), not in an
/// `Array`: reading a value then needs no reference counting on a buffer, which made stepping from leaf
/// to leaf (iteration) and copying a leaf (what a change to a shared tree costs) several times cheaper.
///
/// A tree is *keyed* when each value carries a `UInt64` key, increasing along the tree (IdentifiedArray's
/// order labels, or the hashes of its id index); an inner node of a keyed tree then keeps each child's
/// last key, so a key is found in O(log n) like a position. An unkeyed tree has no key buffers.
@usableFromInline
final class TreeNode<Value> {
  /// Leaf: the values, `leafCount` of them initialized. Inner: `nil`.
  @usableFromInline let slots: UnsafeMutablePointer<Value>?
  /// Leaf of a keyed tree: each value's key. Otherwise `nil`.
  @usableFromInline @exclusivity(unchecked) var labels: UnsafeMutablePointer<UInt64>?
  /// Leaf: the number of values.
  @usableFromInline @exclusivity(unchecked) var leafCount: Int
  /// Inner: the children, all of the same height. Leaf: empty.
  @usableFromInline @exclusivity(unchecked) var children: [TreeNode]
  /// Inner: `ends[i]` is the number of values in `children[0...i]`, so positions are found by binary
  /// search. Leaf: empty.
  @usableFromInline @exclusivity(unchecked) var ends: [Int]
  /// Inner node of a keyed tree: each child's last key. Otherwise empty.
  @usableFromInline @exclusivity(unchecked) var keys: [UInt64]

  /// The room allocated in a leaf: one more than its capacity, for the value an insertion adds before
  /// the leaf splits.
  @inlinable
  static var slotCount: Int { leafCapacity &+ 1 }

  /// An empty leaf, keyed or not.
  @inlinable
  init(leafKeyed keyed: Bool) {
    slots = .allocate(capacity: Self.slotCount)
    labels = keyed ? .allocate(capacity: Self.slotCount) : nil
    leafCount = 0
    children = []
    ends = []
    keys = []
  }

  /// A leaf of `values` (at most `leafCapacity`), with `keys` (one per value) for a keyed tree.
  @inlinable
  convenience init(values: some Collection<Value>, keys: (some Collection<UInt64>)?) {
    self.init(leafKeyed: keys != nil)
    let slots = self.slots.unsafelyUnwrapped
    var count = 0
    for value in values {
      (slots + count).initialize(to: value)
      count &+= 1
    }
    leafCount = count
    if let keys, let labels {
      var index = 0
      for key in keys {
        labels[index] = key
        index &+= 1
      }
    }
  }

  /// An inner node over `children`; keyed when `keyed` (every child must then be keyed).
  @inlinable
  init(children: [TreeNode], keyed: Bool) {
    slots = nil
    labels = nil
    leafCount = 0
    self.children = children
    var ends: [Int] = []
    ends.reserveCapacity(children.count)
    var total = 0
    for child in children {
      total &+= child.count
      ends.append(total)
    }
    self.ends = ends
    self.keys = keyed ? children.map(\.lastKey) : []
  }

  /// A copy of `other`: its values copied (a leaf), or its children shared (an inner node).
  @inlinable
  init(copying other: TreeNode) {
    if let source = other.slots {
      let slots = UnsafeMutablePointer<Value>.allocate(capacity: Self.slotCount)
      // A loop specialized for `Value`, not `initialize(from:count:)`: that goes through the runtime's
      // generic copy, a value-witness call per element (measured at a third of a leaf copy).
      for index in 0..<other.leafCount { (slots + index).initialize(to: source[index]) }
      self.slots = slots
      if let sourceLabels = other.labels {
        let labels = UnsafeMutablePointer<UInt64>.allocate(capacity: Self.slotCount)
        labels.initialize(from: sourceLabels, count: other.leafCount)
        self.labels = labels
      } else {
        labels = nil
      }
    } else {
      slots = nil
      labels = nil
    }
    leafCount = other.leafCount
    // Copied now, with a loop specialized for nodes (a retain each), rather than shared until the first
    // write copies it through the runtime's generic copy: a copied inner node always has a child replaced.
    children = other.children.map { $0 }
    ends = other.ends
    keys = other.keys
  }

  @inlinable
  deinit {
    if let slots {
      // Element by element, specialized, for the same reason as the copy in `init(copying:)`.
      for index in 0..<leafCount { (slots + index).deinitialize(count: 1) }
      slots.deallocate()
    }
    labels?.deallocate()
  }

  /// The most values a leaf holds: about 1 KB of them, 16 to 64, so that copying a leaf (what a change
  /// to a shared tree costs, per level) stays cheap whatever the element size.
  @inlinable
  static var leafCapacity: Int {
    Swift.max(16, Swift.min(64, 1_024 / Swift.max(1, MemoryLayout<Value>.stride)))
  }

  /// The most children an inner node holds.
  @inlinable
  static var innerCapacity: Int { 32 }

  @inlinable
  var isLeaf: Bool { slots != nil }

  /// The number of values in this subtree.
  @inlinable
  var count: Int { slots != nil ? leafCount : (ends.last ?? 0) }

  /// The number of entries of this node: values (leaf) or children (inner).
  @inlinable
  var width: Int { slots != nil ? leafCount : children.count }

  /// Below this width a node is merged with, or refilled from, a sibling after a removal.
  @inlinable
  var minimumWidth: Int { isLeaf ? Self.leafCapacity / 4 : Self.innerCapacity / 4 }

  @inlinable
  var isKeyed: Bool { isLeaf ? labels != nil : !keys.isEmpty }

  /// The key of this node's entry `index`: a value's (leaf) or a child's last (inner).
  @inlinable
  func key(at index: Int) -> UInt64 { isLeaf ? labels.unsafelyUnwrapped[index] : keys[index] }

  /// The last key of this subtree; 0 when it is empty.
  @inlinable
  var lastKey: UInt64 {
    if isLeaf { return leafCount > 0 ? labels.map { $0[leafCount &- 1] } ?? 0 : 0 }
    return keys.last ?? 0
  }

  /// The values of a leaf.
  @inlinable
  var values: UnsafeMutableBufferPointer<Value> { UnsafeMutableBufferPointer(start: slots, count: leafCount) }

  /// The number of values before `children[index]`.
  @inlinable
  func start(ofChild index: Int) -> Int { index == 0 ? 0 : ends[index &- 1] }

  /// The child holding position `offset` (`0 ..< count`), and the position within that child.
  @inlinable
  func child(containing offset: Int) -> (index: Int, offset: Int) {
    // The first child whose end is past `offset`.
    var low = 0
    var high = ends.count &- 1
    while low < high {
      let mid = (low &+ high) >> 1
      if ends[mid] > offset { high = mid } else { low = mid &+ 1 }
    }
    return (low, offset &- start(ofChild: low))
  }

  /// The child an insertion at `offset` (`0 ... count`) goes into, and the position within it: the child
  /// holding `offset`, or the last child for an insertion at the end.
  @inlinable
  func child(forInsertionAt offset: Int) -> (index: Int, offset: Int) {
    offset == count ? (children.count &- 1, offset &- start(ofChild: children.count &- 1)) : child(containing: offset)
  }

  /// The first entry whose key is at least `key` (`width` when there is none).
  @inlinable
  func firstIndex(ofKeyAtLeast key: UInt64) -> Int {
    var low = 0
    var high = width
    if let labels {
      while low < high {
        let mid = (low &+ high) >> 1
        if labels[mid] < key { low = mid &+ 1 } else { high = mid }
      }
    } else {
      while low < high {
        let mid = (low &+ high) >> 1
        if keys[mid] < key { low = mid &+ 1 } else { high = mid }
      }
    }
    return low
  }

  /// Makes `children[index]` referenced by this node alone, copying it if it is shared.
  @inlinable
  func makeChildUnique(_ index: Int) {
    if !isKnownUniquelyReferenced(&children[index]) { children[index] = TreeNode(copying: children[index]) }
  }

  /// Forgets the keys of this node (an unkeyed change to a keyed tree, by ``PersistentArray``).
  @inlinable
  func dropKeys() {
    if let labels {
      labels.deallocate()
      self.labels = nil
    }
    if !keys.isEmpty { keys = [] }
  }
}

extension TreeNode: @unchecked Sendable where Value: Sendable {}
