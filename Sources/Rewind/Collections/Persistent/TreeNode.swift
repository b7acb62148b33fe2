/// A node of a ``PersistentTree``: a leaf holding a run of values, or an inner node holding children.
///
/// Nodes are shared by every version of a collection that contains them and are never changed while
/// shared: a mutation first asks `isKnownUniquelyReferenced` and copies a shared node, the same discipline
/// as `Array`'s buffer. That is why a tree of `Sendable` values may be `@unchecked Sendable` (a node cannot:
/// `ManagedBuffer` is explicitly not `Sendable`).
///
/// Each node is one allocation: the object and, after it, its entries (`storage`), not `Array`s: a
/// leaf's keys then its values; an inner node's children, their cumulative counts (`ends`) and their
/// last keys. Reading an entry then needs no reference counting on an array buffer, and a descent touches
/// one block of memory per level: the object's header, its width and its first keys share a cache line.
/// (With arrays, a lookup retained and released a buffer at every level; with a separate entry buffer,
/// each level cost two cache misses in a large tree and each copy two allocations.)
///
/// A tree is *keyed* when each value carries a `UInt64` key, increasing along the tree (IdentifiedArray's
/// order labels, or the hashes of its id index); an inner node of a keyed tree then keeps each child's
/// last key, so a key is found in O(log n) like a position. An unkeyed tree leaves the key slots unused.
@usableFromInline
final class TreeNode<Value>: ManagedBuffer<Void, UInt64> {
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
  static var leafSlotCount: Int { leafCapacity &+ 1 }

  @inlinable
  static var innerSlotCount: Int { innerCapacity &+ 1 }

  /// Where the entries start in the tail: after the ``TreeNodeHead`` and the digest slot.
  @inlinable
  static var entriesOffset: Int { 40 }

  /// Where a leaf's values start in `storage`, relative to its keys: after them, aligned for `Value`
  /// (the tail itself is 8-aligned; a more aligned `Value` is placed by ``slots`` at run time).
  @inlinable
  static var valuesOffset: Int { leafSlotCount &* 8 }

  /// The tail words of a leaf: head, keys, values, and slack to align the values.
  @inlinable
  static var leafWordCount: Int {
    let alignment = MemoryLayout<Value>.alignment
    let bytes =
      entriesOffset &+ valuesOffset &+ leafSlotCount &* MemoryLayout<Value>.stride
      &+ (alignment > 8 ? alignment &- 8 : 0)
    return (bytes &+ 7) / 8
  }

  /// The tail words of an inner node: head, children, ends, keys.
  @inlinable
  static var innerWordCount: Int { (entriesOffset &+ innerSlotCount &* 24) / 8 }

  // MARK: Storage

  /// The start of the tail: the head, then the entries.
  @inlinable
  var tail: UnsafeMutableRawPointer {
    unsafe UnsafeMutableRawPointer(withUnsafeMutablePointerToElements { unsafe $0 })
  }

  /// The node's width and kind, at the start of the tail.
  @inlinable
  var head: UnsafeMutablePointer<TreeNodeHead> { unsafe tail.assumingMemoryBound(to: TreeNodeHead.self) }

  /// The node's entries: see the accessors below. Room for one more entry than the node's capacity, for
  /// the entry an insertion adds before the node splits.
  @inlinable
  var storage: UnsafeMutableRawPointer { unsafe tail + Self.entriesOffset }

  /// Whether the node is a leaf (it holds values) rather than an inner node (it holds children).
  @inlinable
  var isLeaf: Bool { unsafe head.pointee.isLeaf }

  /// Whether the node is an inner node whose children are leaves.
  @inlinable
  var hasLeafChildren: Bool { unsafe head.pointee.hasLeafChildren }

  /// The number of entries: values (leaf) or children (inner).
  @inlinable
  var width: Int {
    get { unsafe head.pointee.width }
    set { unsafe head.pointee.width = newValue }
  }

  /// Whether the key slots hold keys.
  @inlinable
  var isKeyed: Bool {
    get { unsafe head.pointee.isKeyed }
    set { unsafe head.pointee.isKeyed = newValue }
  }

  /// Leaf: the keys.
  @inlinable
  var labels: UnsafeMutablePointer<UInt64> { unsafe storage.assumingMemoryBound(to: UInt64.self) }

  /// Leaf: the values.
  @inlinable
  var slots: UnsafeMutablePointer<Value> {
    let alignment = MemoryLayout<Value>.alignment
    var address = unsafe storage + Self.valuesOffset
    if alignment > 8 { unsafe address = address.alignedUp(toMultipleOf: alignment) }
    return unsafe address.assumingMemoryBound(to: Value.self)
  }

  /// Inner: the children.
  @inlinable
  var childSlots: UnsafeMutablePointer<TreeNode> { unsafe storage.assumingMemoryBound(to: TreeNode.self) }

  /// Inner: `ends[i]` is the number of values in children `0...i`, so positions are found by binary search.
  @inlinable
  var ends: UnsafeMutablePointer<Int> {
    unsafe (storage + Self.innerSlotCount &* 8).assumingMemoryBound(to: Int.self)
  }

  /// Inner: each child's last key.
  @inlinable
  var childKeys: UnsafeMutablePointer<UInt64> {
    unsafe (storage + Self.innerSlotCount &* 16).assumingMemoryBound(to: UInt64.self)
  }

  // MARK: Making nodes

  /// An empty node; an inner node over leaves when `leafChildren`. (A factory, not an initializer:
  /// `ManagedBuffer` objects are made by `create`.)
  @inlinable
  static func make(leaf: Bool, keyed: Bool, leafChildren: Bool = false) -> TreeNode {
    let node = unsafe unsafeDowncast(
      create(minimumCapacity: leaf ? leafWordCount : innerWordCount) { _ in }, to: TreeNode.self)
    let storage = unsafe node.storage
    unsafe node.tail.bindMemory(to: TreeNodeHead.self, capacity: 1)
      .initialize(to: TreeNodeHead(isLeaf: leaf, isKeyed: keyed, hasLeafChildren: !leaf && leafChildren))
    node.initializeDigestSlot()
    if leaf {
      unsafe storage.bindMemory(to: UInt64.self, capacity: leafSlotCount)
      unsafe UnsafeMutableRawPointer(node.slots).bindMemory(to: Value.self, capacity: leafSlotCount)
    } else {
      unsafe storage.bindMemory(to: TreeNode.self, capacity: innerSlotCount)
      unsafe (storage + innerSlotCount &* 8).bindMemory(to: Int.self, capacity: innerSlotCount)
      unsafe (storage + innerSlotCount &* 16).bindMemory(to: UInt64.self, capacity: innerSlotCount)
    }
    return node
  }

  /// A leaf of `values` (at most `leafCapacity`), with `keys` (one per value) for a keyed tree.
  @inlinable
  static func make(values: some Collection<Value>, keys: (some Collection<UInt64>)?) -> TreeNode {
    let node = make(leaf: true, keyed: keys != nil)
    let slots = unsafe node.slots
    var count = 0
    for value in values {
      unsafe (slots + count).initialize(to: value)
      count &+= 1
    }
    node.width = count
    if let keys {
      let labels = unsafe node.labels
      var index = 0
      for key in keys {
        unsafe labels[index] = key
        index &+= 1
      }
    }
    return node
  }

  /// An inner node over `children` (at most `innerCapacity`); keyed when `keyed` (every child must then
  /// be keyed).
  @inlinable
  static func make(children: some Collection<TreeNode>, keyed: Bool) -> TreeNode {
    let node = make(leaf: false, keyed: keyed, leafChildren: children.first?.isLeaf ?? false)
    let childSlots = unsafe node.childSlots
    var index = 0
    for child in children {
      unsafe (childSlots + index).initialize(to: child)
      index &+= 1
    }
    node.width = index
    node.refresh(from: 0)
    return node
  }

  /// A copy of `other` that owns all its entries: its values copied (a leaf), or its children shared (an
  /// inner node), each retained. (``make(borrowing:)`` is the cheap copy a change of one entry makes.)
  @inlinable
  static func make(copying other: TreeNode) -> TreeNode {
    let node = make(leaf: other.isLeaf, keyed: other.isKeyed, leafChildren: other.hasLeafChildren)
    let count = other.width
    node.width = count
    if other.isLeaf {
      if other.isKeyed { unsafe node.labels.initialize(from: other.labels, count: count) }
      // A loop specialized for `Value`, not `initialize(from:count:)`: that goes through the runtime's
      // generic copy, a value-witness call per element (measured at a third of a leaf copy).
      let source = unsafe other.slots
      let slots = unsafe node.slots
      for index in 0..<count { unsafe (slots + index).initialize(to: source[index]) }
    } else {
      let source = unsafe other.childSlots
      let children = unsafe node.childSlots
      for index in 0..<count { unsafe (children + index).initialize(to: source[index]) }
      unsafe node.ends.initialize(from: other.ends, count: count)
      if other.isKeyed { unsafe node.childKeys.initialize(from: other.childKeys, count: count) }
    }
    return node
  }

  @inlinable
  deinit {
    // One call for the whole run of values. The deinit of a generic class is never specialized (the
    // runtime calls the one in its metadata), so a loop here paid a generic call per element: about 50
    // instructions each, a sixth of what dropping an undo step cost. Children are released one by one
    // without it (`releaseChildren(_:)`).
    unsafe freeCachedDigest(inTail: tail)
    if isBorrowing {
      releaseBorrowingEntries()
    } else if isLeaf {
      unsafe slots.deinitialize(count: width)
    } else {
      releaseChildren(Self.mask(width))
    }
  }

  // MARK: Reading

  /// The number of values in this subtree.
  @inlinable
  var count: Int { unsafe isLeaf ? width : (width > 0 ? ends[width &- 1] : 0) }

  /// Below this width a node is merged with, or refilled from, a sibling after a removal.
  @inlinable
  var minimumWidth: Int { isLeaf ? Self.leafCapacity / 4 : Self.innerCapacity / 4 }

  /// The key of entry `index`: a value's (leaf) or a child's last (inner).
  @inlinable
  func key(at index: Int) -> UInt64 { unsafe isLeaf ? labels[index] : childKeys[index] }

  /// The last key of this subtree; 0 when it is empty or unkeyed.
  @inlinable
  var lastKey: UInt64 { isKeyed && width > 0 ? key(at: width &- 1) : 0 }

  /// A leaf's values.
  @inlinable
  var values: UnsafeMutableBufferPointer<Value> {
    unsafe UnsafeMutableBufferPointer(start: slots, count: width)
  }

  /// An inner node's children.
  @inlinable
  var children: UnsafeMutableBufferPointer<TreeNode> {
    unsafe UnsafeMutableBufferPointer(start: childSlots, count: width)
  }

  /// Child `index`, for a descent that reads it next. When `prefetching`, every cache line of the child is
  /// requested at once, so that the loads of its head, its keys and the value found by them overlap
  /// instead of each waiting for the one before. In a tree bigger than the cache, that saves a memory round
  /// trip per level (see Docs/Architecture.md, "Prefetching a descent").
  @inlinable
  func descendingChild(_ index: Int, prefetching: Bool) -> UnmanagedNode<Value> {
    let child = unsafe unmanagedChild(index)
    if prefetching {
      unsafe child.prefetch(byteCount: hasLeafChildren ? Self.leafPrefetchBytes : Self.innerPrefetchBytes)
    }
    return unsafe child
  }

  /// The bytes of a leaf a descent prefetches: the object (its header, 16 bytes on 64-bit platforms) and
  /// its tail, at most 2 KB (32 lines): for a large `Value` the last values of a leaf are left to be read
  /// when needed.
  @inlinable
  static var leafPrefetchBytes: Int { Swift.min(2_048, 16 &+ leafWordCount &* 8) }

  /// The bytes of an inner node a descent prefetches: all of it.
  @inlinable
  static var innerPrefetchBytes: Int { 16 &+ innerWordCount &* 8 }

  /// Where a descent ended in this leaf.
  @inlinable
  func spot(base: Int, offset: Int) -> LeafSpot {
    unsafe LeafSpot(
      labels: labels, values: UnsafeMutableRawPointer(slots), width: width, base: base, offset: offset)
  }

  /// Child `index` (`0 ..< width`; inner nodes), retained for the caller.
  @inlinable
  func child(at index: Int) -> TreeNode { unsafe childSlots[index] }

  /// The number of values in children `0 ... index` (`0 ..< width`; inner nodes).
  @inlinable
  func end(ofChild index: Int) -> Int { unsafe ends[index] }

  /// The number of values before child `index`.
  @inlinable
  func start(ofChild index: Int) -> Int { unsafe index == 0 ? 0 : ends[index &- 1] }

  /// The child holding position `offset` (`0 ..< count`), and the position within that child.
  @inlinable
  func child(containing offset: Int) -> (index: Int, offset: Int) {
    // The first child whose end is past `offset`; the last child always is. A search without branches
    // on the data (the steps compile to conditional moves), which mispredict at every level otherwise.
    let ends = unsafe self.ends
    var low = 0
    var length = width
    while length > 1 {
      let half = length >> 1
      low = unsafe ends[low &+ half &- 1] <= offset ? low &+ half : low
      length &-= half
    }
    return unsafe (low, offset &- (low == 0 ? 0 : ends[low &- 1]))
  }

  /// The child an insertion at `offset` (`0 ... count`) goes into, and the position within it: the child
  /// holding `offset`, or the last child for an insertion at the end.
  @inlinable
  func child(forInsertionAt offset: Int) -> (index: Int, offset: Int) {
    offset == count ? (width &- 1, offset &- start(ofChild: width &- 1)) : child(containing: offset)
  }

  /// The first entry whose key is at least `key` (`width` when there is none).
  ///
  /// In two steps rather than a binary search: first the last key of each run of eight, then the keys of
  /// the one run that holds the answer. The first step's loads do not depend on each other, so in a
  /// node that is not in cache (most nodes of a big tree) their cache misses overlap, where a binary
  /// search waits for each one before it knows the next (five in a row for a node of 33 keys).
  @inlinable
  func firstIndex(ofKeyAtLeast key: UInt64) -> Int {
    let keys = unsafe isLeaf ? labels : childKeys
    let width = self.width
    var start = 0
    var last = 7
    while last < width {
      unsafe start &+= keys[last] < key ? 8 : 0
      last &+= 8
    }
    let end = Swift.min(width, start &+ 8)
    var index = start
    while unsafe index < end && keys[index] < key { index &+= 1 }
    return index
  }

  // MARK: Changing entries

  /// Makes child `index` referenced by this node alone and owner of all its entries, copying it if it
  /// is shared: what a change to the child's shape (an insertion, a removal) needs. This node must own
  /// its entries (see ``ownAll()``). The child's cached digest is marked reshaped: it is about to change.
  @inlinable
  func makeChildUnique(_ index: Int) {
    if unsafe !isKnownUniquelyReferenced(&childSlots[index]) {
      unsafe childSlots[index] = TreeNode.make(copying: childSlots[index])
    } else {
      let child = unsafe unmanagedChild(index)
      unsafe child.withNode { child in
        child.ownAll()
        child.markReshaped()
      }
    }
  }

  /// Recomputes `ends` (and the child keys, when keyed) from child `index` on.
  @inlinable
  func refresh(from index: Int) {
    var total = start(ofChild: index)
    for position in index..<width {
      let child = unsafe childSlots[position]
      total &+= child.count
      unsafe ends[position] = total
      if isKeyed { unsafe childKeys[position] = child.lastKey }
    }
  }

  /// Inserts `child` at `index` (inner nodes; room for one more than the capacity is always there).
  @inlinable
  func insertChild(_ child: TreeNode, at index: Int) {
    let moved = width &- index
    unsafe (childSlots + (index &+ 1)).moveInitialize(from: childSlots + index, count: moved)
    unsafe (childSlots + index).initialize(to: child)
    unsafe (ends + (index &+ 1)).moveInitialize(from: ends + index, count: moved)
    if isKeyed { unsafe (childKeys + (index &+ 1)).moveInitialize(from: childKeys + index, count: moved) }
    width &+= 1
  }

  /// Removes child `index` (inner nodes); `ends` after it still count it until refreshed.
  @inlinable
  func removeChild(at index: Int) {
    let moved = width &- index &- 1
    unsafe (childSlots + index).deinitialize(count: 1)
    unsafe (childSlots + index).moveInitialize(from: childSlots + (index &+ 1), count: moved)
    unsafe (ends + index).moveInitialize(from: ends + (index &+ 1), count: moved)
    if isKeyed { unsafe (childKeys + index).moveInitialize(from: childKeys + (index &+ 1), count: moved) }
    width &-= 1
  }

  /// Forgets the keys of this node (an unkeyed change to a keyed tree, by ``PersistentArray``).
  @inlinable
  func dropKeys() { isKeyed = false }
}

/// What a ``TreeNode`` keeps before its entries: its width and kind, and for a node made by
/// ``TreeNode/make(borrowing:)`` the node it borrows from and which entries are borrowed.
@unsafe
@usableFromInline
struct TreeNodeHead {
  @usableFromInline var width: Int
  @usableFromInline let isLeaf: Bool
  @usableFromInline var isKeyed: Bool
  /// An inner node whose children are leaves: a descent prefetches a child by its kind before reading it.
  /// Fixed when the node is made, since a node's height never changes.
  @usableFromInline let hasLeafChildren: Bool
  /// Bit `i` set: entry `i` is a bitwise copy of the lender's entry `i`, which the lender keeps alive;
  /// this node holds no reference of its own to it.
  @usableFromInline var borrowed: UInt64
  /// The node whose entries are borrowed, retained; `nil` for a node that owns every entry.
  @usableFromInline var lender: UnsafeMutableRawPointer?

  @inlinable
  init(isLeaf: Bool, isKeyed: Bool, hasLeafChildren: Bool) {
    unsafe (width, self.isLeaf, self.isKeyed, borrowed, lender) = (0, isLeaf, isKeyed, 0, nil)
    unsafe self.hasLeafChildren = hasLeafChildren
  }

  /// Where a node's cached digest is kept in its tail: after the head (see `TreeNode+Digest.swift`).
  @inlinable
  static var digestOffset: Int { 32 }
}

/// Where a descent of a ``PersistentTree`` ended: a leaf's keys and values, its width, the position of its
/// first value, and an offset in it. Not generic, so that returning it costs unspecialized code no type
/// metadata; the values are read with `values.assumingMemoryBound(to:)`.
@unsafe
@usableFromInline
struct LeafSpot {
  @usableFromInline let labels: UnsafeMutablePointer<UInt64>
  @usableFromInline let values: UnsafeMutableRawPointer
  @usableFromInline let width: Int
  /// The position of the leaf's first value in the tree.
  @usableFromInline let base: Int
  @usableFromInline var offset: Int

  @inlinable
  init(
    labels: UnsafeMutablePointer<UInt64>, values: UnsafeMutableRawPointer, width: Int, base: Int, offset: Int
  ) {
    unsafe (self.labels, self.values, self.width, self.base, self.offset) = (
      labels, values, width, base, offset
    )
  }

  /// Whether the value at `offset` has key `key`.
  @inlinable
  func holds(_ key: UInt64) -> Bool { unsafe offset < width && labels[offset] == key }
}
