/// A persistent B+-tree of values addressed by position (and, in a keyed tree, by key): the storage of
/// ``PersistentArray`` and ``IdentifiedArray``.
///
/// A value of this type is a reference to a root node. Copying it is O(1); the first mutation of a copy
/// copies the nodes on the path to what it changes, O(log n) of them, and shares everything else with the
/// original. Values live in leaves of up to `TreeNode.leafCapacity` contiguous elements; a tree of one leaf
/// is a plain contiguous buffer.
///
/// Descents hold nodes without retaining them, through ``UnmanagedNode``: every node below the root is kept
/// alive by its parent for as long as the tree is (rules 1 and 2 there), so retaining them again, level by
/// level, would only cost time (a third of a lookup, measured).
@usableFromInline
struct PersistentTree<Value> {
  @usableFromInline var root: TreeNode<Value>

  /// An empty tree.
  @inlinable
  init() { root = TreeNode.make(leaf: true, keyed: true) }

  @inlinable
  init(root: TreeNode<Value>) { self.root = root }

  /// The number of values.
  @inlinable
  var count: Int { root.count }

  /// Whether a descent prefetches each node it is about to read (`TreeNode.descendingChild(_:prefetching:)`):
  /// not in a tree of fewer than 4,096 values, whose nodes mostly sit in the processor's caches already,
  /// where the requests would only add instructions (139 per edit by id of 1,000 rows, callgrind).
  @inlinable
  var prefetches: Bool { count >= 4_096 }

  /// Whether both trees are the same storage (then they are equal without looking further).
  @inlinable
  func isIdentical(to other: Self) -> Bool { root === other.root }

  // MARK: Descending

  /// The leaf reached from the root by `choose`, which is given each inner node on the way and returns
  /// the index of the child to step into (updating the caller's state), or `nil` to give up; `leaf` is
  /// then given the leaf.
  ///
  /// Nodes are passed as opaque pointers, borrowed from the tree that holds them: retaining each node on
  /// the way cost more than the search itself, and the results are of non-generic types (a raw pointer, a
  /// ``LeafSpot``), so that code not specialized for the element type (a generic reducer in another
  /// module) looks up no type metadata on each call, which had doubled such a caller's cost.
  @inlinable
  func descend(
    choosing choose: (TreeNode<Value>) -> Int?, leaf: (TreeNode<Value>) -> LeafSpot
  ) -> LeafSpot? {
    let prefetching = prefetches
    var current = unsafe UnmanagedNode(root)
    while true {
      var gaveUp = false
      let next = unsafe current.withNode { node -> UnmanagedNode<Value>? in
        if node.isLeaf { return nil }
        guard let index = choose(node) else {
          gaveUp = true
          return nil
        }
        return unsafe node.descendingChild(index, prefetching: prefetching)
      }
      if gaveUp { return nil }
      guard let next = unsafe next else { break }
      unsafe current = next
    }
    return unsafe current.withNode(leaf)
  }

  /// The leaf holding position `position` (`0 ..< count`).
  @inlinable
  func spot(containing position: Int) -> LeafSpot {
    var offset = position
    var base = 0
    return unsafe descend(
      choosing: { node in
        let (index, inner) = node.child(containing: offset)
        base &+= offset &- inner
        offset = inner
        return index
      },
      leaf: { unsafe $0.spot(base: base, offset: offset) }
    ).unsafelyUnwrapped
  }

  /// The leaf that may hold `key`, with `offset` at the first key there at least `key`; `nil` when every
  /// key of the tree is smaller.
  @inlinable
  func spot(forKey key: UInt64) -> LeafSpot? {
    var base = 0
    return unsafe descend(
      choosing: { node in
        let index = node.firstIndex(ofKeyAtLeast: key)
        if index == node.width { return nil }
        base &+= node.start(ofChild: index)
        return index
      },
      leaf: { unsafe $0.spot(base: base, offset: $0.firstIndex(ofKeyAtLeast: key)) })
  }

  /// Like ``spot(forKey:)``, making every node on the path referenced by this tree alone first, and the
  /// value at the spot the leaf's own, so that it may be changed in place.
  @inlinable
  mutating func uniqueSpot(forKey key: UInt64) -> LeafSpot? {
    makeRootWritable()
    var base = 0
    return unsafe descend(
      choosing: { node in
        let index = node.firstIndex(ofKeyAtLeast: key)
        if index == node.width { return nil }
        base &+= node.start(ofChild: index)
        node.invalidateDigest()
        node.makeChildWritable(index)
        return index
      },
      leaf: { leaf in
        let offset = leaf.firstIndex(ofKeyAtLeast: key)
        if offset < leaf.width { leaf.ownEntry(offset) }
        return unsafe leaf.spot(base: base, offset: offset)
      })
  }

  /// The address of the value whose key is exactly `key` (keyed trees, unique keys), every node on the
  /// path made referenced by this tree alone first, so that the value may be changed or moved out in
  /// place; `nil` when no value has that key. The address is valid until the tree is next changed.
  ///
  /// What an edit by id costs after the id index gave the label: one descent that reads only keys and
  /// child pointers (not the counts a position needs).
  @inlinable
  mutating func uniqueSlot(forKey key: UInt64) -> UnsafeMutablePointer<Value>? {
    makeRootWritable()
    let prefetching = prefetches
    // A plain loop rather than `descend(choosing:leaf:)`: its leaf closure was not inlined here.
    var current = unsafe UnmanagedNode(root)
    var slot: UnsafeMutablePointer<Value>?
    while let next = unsafe current.withNode({ node -> UnmanagedNode<Value>? in
      let index = node.firstIndex(ofKeyAtLeast: key)
      if node.isLeaf {
        if unsafe index < node.width && node.labels[index] == key {
          node.ownEntry(index)
          unsafe slot = node.slots + index
        }
        return nil
      }
      if index == node.width { return nil }
      node.invalidateDigest()
      node.makeChildWritable(index)
      return unsafe node.descendingChild(index, prefetching: prefetching)
    }) {
      unsafe current = next
    }
    return unsafe slot
  }

  /// Like ``spot(containing:)``, making every node on the path referenced by this tree alone first, and
  /// the value at `position` the leaf's own.
  @inlinable
  mutating func uniqueSpot(containing position: Int) -> LeafSpot {
    makeRootWritable()
    var offset = position
    var base = 0
    return unsafe descend(
      choosing: { node in
        let (index, inner) = node.child(containing: offset)
        base &+= offset &- inner
        offset = inner
        node.invalidateDigest()
        node.makeChildWritable(index)
        return index
      },
      leaf: { leaf in
        leaf.ownEntry(offset)
        return unsafe leaf.spot(base: base, offset: offset)
      }
    ).unsafelyUnwrapped
  }

  // MARK: Reading

  /// The value at `position`.
  /// - Complexity: O(log n).
  @inlinable
  subscript(position: Int) -> Value { unsafe pointer(to: position).pointee }

  /// The address of the value at `position`, valid while the tree is neither changed nor released: for
  /// reading a value in place.
  /// - Complexity: O(log n).
  @inlinable
  func pointer(to position: Int) -> UnsafeMutablePointer<Value> {
    let spot = unsafe spot(containing: position)
    return unsafe spot.values.assumingMemoryBound(to: Value.self) + spot.offset
  }

  /// The key of the value at `position` (keyed trees).
  /// - Complexity: O(log n).
  @inlinable
  func key(at position: Int) -> UInt64 {
    let spot = unsafe spot(containing: position)
    return unsafe spot.labels[spot.offset]
  }

  /// The position of the first value whose key is at least `key` (`count` when there is none).
  /// - Complexity: O(log n).
  @inlinable
  func lowerBound(key: UInt64) -> Int {
    guard let spot = unsafe spot(forKey: key) else { return count }
    return unsafe spot.base &+ spot.offset
  }

  /// The position of the value whose key is exactly `key` (keyed trees, unique keys).
  /// - Complexity: O(log n).
  @inlinable
  func position(ofKey key: UInt64) -> Int? {
    guard let spot = unsafe spot(forKey: key), unsafe spot.holds(key) else { return nil }
    return unsafe spot.base &+ spot.offset
  }

  /// The address of the value whose key is exactly `key` (keyed trees; with repeated keys, the first),
  /// valid while the tree is neither changed nor released.
  /// - Complexity: O(log n).
  @inlinable
  func pointer(toKey key: UInt64) -> UnsafeMutablePointer<Value>? {
    // A plain loop that sums no positions, like `uniqueSlot(forKey:)`: what every lookup by id runs.
    let prefetching = prefetches
    var current = unsafe UnmanagedNode(root)
    var slot: UnsafeMutablePointer<Value>?
    while let next = unsafe current.withNode({ node -> UnmanagedNode<Value>? in
      let index = node.firstIndex(ofKeyAtLeast: key)
      if node.isLeaf {
        if unsafe index < node.width && node.labels[index] == key { unsafe slot = node.slots + index }
        return nil
      }
      return index == node.width ? nil : unsafe node.descendingChild(index, prefetching: prefetching)
    }) {
      unsafe current = next
    }
    return unsafe slot
  }

  /// The position of the first value with key `key` that `matches` accepts: for keys that may repeat
  /// (hashes), which sit next to each other.
  /// - Complexity: O(log n + r) for r values with that key.
  @inlinable
  func firstPosition(ofKey key: UInt64, where matches: (Value) -> Bool) -> Int? {
    guard var spot = unsafe spot(forKey: key) else { return nil }
    let values = unsafe spot.values.assumingMemoryBound(to: Value.self)
    while unsafe spot.offset < spot.width {
      guard unsafe spot.labels[spot.offset] == key else { return nil }
      if unsafe matches(values[spot.offset]) { return unsafe spot.base &+ spot.offset }
      unsafe spot.offset &+= 1
    }
    // Equal keys that run on into the next leaf: colliding hashes only.
    var position = unsafe spot.base &+ spot.offset
    while position < count, self.key(at: position) == key {
      if matches(self[position]) { return position }
      position &+= 1
    }
    return nil
  }

  // MARK: Changing values in place

  /// Makes the root referenced by this tree alone and owner of all its entries, so that its shape may
  /// change; its cached digest is marked reshaped.
  @inlinable
  mutating func makeRootUnique() {
    if !isKnownUniquelyReferenced(&root) {
      root = TreeNode.make(copying: root)
    } else {
      root.ownAll()
      root.markReshaped()
    }
  }

  /// Makes the root referenced by this tree alone, by a borrowing copy (see `TreeNode+Borrowing`) if it
  /// is shared: what changing one value in place needs.
  @inlinable
  mutating func makeRootWritable() {
    if !isKnownUniquelyReferenced(&root) { root = TreeNode.make(borrowing: root) }
  }

  /// Runs `body` on the value at `position`, in place when the path to it is not shared.
  /// - Complexity: O(log n), plus copying the shared nodes on the path (O(log n) of them).
  @inlinable
  mutating func update<R>(at position: Int, _ body: (inout Value) throws -> R) rethrows -> R {
    let spot = unsafe uniqueSpot(containing: position)
    return unsafe try body(&spot.values.assumingMemoryBound(to: Value.self)[spot.offset])
  }

  /// Runs `body` on the value whose key is `key` (keyed trees, unique keys); `nil` when there is none.
  /// - Complexity: O(log n), plus copying the shared nodes on the path.
  @inlinable
  mutating func update<R>(key: UInt64, _ body: (inout Value) throws -> R) rethrows -> R? {
    guard let spot = unsafe uniqueSpot(forKey: key), unsafe spot.holds(key) else { return nil }
    return unsafe try body(&spot.values.assumingMemoryBound(to: Value.self)[spot.offset])
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
      root = TreeNode.make(children: [root, sibling], keyed: key != nil)
    }
  }

  /// Removes and returns the value at `position`; `keyed` keeps the keys of a keyed tree up to date, and
  /// false makes the changed nodes unkeyed.
  /// - Complexity: O(log n).
  @inlinable
  @discardableResult
  mutating func remove(at position: Int, keyed: Bool) -> Value {
    makeRootUnique()
    let removed = root.remove(at: position, keyed: keyed, vacated: false)
    while !root.isLeaf && root.width == 1 { root = unsafe root.childSlots[0] }
    return unsafe removed.unsafelyUnwrapped
  }

  /// Removes the slot at `position`, whose value was already moved out (keyed trees).
  /// - Complexity: O(log n).
  @inlinable
  mutating func removeVacated(at position: Int) {
    makeRootUnique()
    _ = root.remove(at: position, keyed: true, vacated: true)
    while !root.isLeaf && root.width == 1 { root = unsafe root.childSlots[0] }
  }

  /// Removes every value.
  @inlinable
  mutating func removeAll() { root = TreeNode.make(leaf: true, keyed: true) }
}

// Nodes are never changed while shared (see ``TreeNode``), so a tree whose values are `Sendable` may be
// sent: `ManagedBuffer`, which nodes are made of, is not `Sendable` itself, hence unchecked.
extension PersistentTree: @unchecked Sendable where Value: Sendable {}
