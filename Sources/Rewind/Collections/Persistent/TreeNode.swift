/// A node of a ``PersistentTree``: a leaf holding a run of values, or an inner node holding children.
///
/// Nodes are shared by every version of a collection that contains them and are never changed while
/// shared: a mutation first asks `isKnownUniquelyReferenced` and copies a shared node, the same discipline
/// as `Array`'s buffer. That is why the class may be `@unchecked Sendable` when its values are.
///
/// A tree is *keyed* when each value carries a `UInt64` key, increasing along the tree (IdentifiedArray's
/// order labels, or the hashes of its id index); an inner node of a keyed tree then keeps each child's
/// last key, so a key is found in O(log n) like a position. An unkeyed tree keeps `keys` empty.
@usableFromInline
final class TreeNode<Value> {
  /// Leaf: the values, in order. Inner: empty.
  @usableFromInline @exclusivity(unchecked) var values: [Value]
  /// Leaf: each value's key (keyed trees) or empty. Inner: each child's last key (keyed trees) or empty.
  @usableFromInline @exclusivity(unchecked) var keys: [UInt64]
  /// Inner: the children, all of the same height. Leaf: empty.
  @usableFromInline @exclusivity(unchecked) var children: [TreeNode]
  /// Inner: `ends[i]` is the number of values in `children[0...i]`, so positions are found by binary
  /// search. Leaf: empty.
  @usableFromInline @exclusivity(unchecked) var ends: [Int]
  @usableFromInline let isLeaf: Bool

  /// A leaf.
  @inlinable
  init(values: [Value], keys: [UInt64]) {
    self.values = values
    self.keys = keys
    self.children = []
    self.ends = []
    self.isLeaf = true
  }

  /// An inner node over `children`; keyed when `keyed` (every child must then be keyed).
  @inlinable
  init(children: [TreeNode], keyed: Bool) {
    self.values = []
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
    self.isLeaf = false
  }

  /// A copy sharing this node's children and value buffers (which copy themselves when written).
  @inlinable
  init(copying other: TreeNode) {
    values = other.values
    keys = other.keys
    children = other.children
    ends = other.ends
    isLeaf = other.isLeaf
  }

  /// The most values a leaf holds: about 2 KB of them, 16 to 64, so that copying a leaf (what a change
  /// to a shared tree costs, per level) stays cheap whatever the element size.
  @inlinable
  static var leafCapacity: Int {
    Swift.max(16, Swift.min(64, 2_048 / Swift.max(1, MemoryLayout<Value>.stride)))
  }

  /// The most children an inner node holds.
  @inlinable
  static var innerCapacity: Int { 32 }

  /// The number of values in this subtree.
  @inlinable
  var count: Int { isLeaf ? values.count : (ends.last ?? 0) }

  /// The number of entries of this node: values (leaf) or children (inner).
  @inlinable
  var width: Int { isLeaf ? values.count : children.count }

  /// Below this width a node is merged with, or refilled from, a sibling after a removal.
  @inlinable
  var minimumWidth: Int { isLeaf ? Self.leafCapacity / 4 : Self.innerCapacity / 4 }

  @inlinable
  var isKeyed: Bool { !keys.isEmpty }

  /// The last key of this subtree; 0 when it is empty.
  @inlinable
  var lastKey: UInt64 { keys.last ?? 0 }

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

  /// The first index whose key is at least `key` (`keys.count` when there is none).
  @inlinable
  func firstIndex(ofKeyAtLeast key: UInt64) -> Int {
    var low = 0
    var high = keys.count
    while low < high {
      let mid = (low &+ high) >> 1
      if keys[mid] < key { low = mid &+ 1 } else { high = mid }
    }
    return low
  }

  /// Makes `children[index]` referenced by this node alone, copying it if it is shared.
  @inlinable
  func makeChildUnique(_ index: Int) {
    if !isKnownUniquelyReferenced(&children[index]) { children[index] = TreeNode(copying: children[index]) }
  }
}

extension TreeNode: @unchecked Sendable where Value: Sendable {}
