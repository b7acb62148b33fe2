extension PersistentTree {
  /// Builds a tree of a known number of values handed over one at a time, in order: what decoding a
  /// collection needs. Values go straight into leaves of the sizes ``init(values:keys:)`` gives, and the
  /// inner levels are built once the last leaf is full; no value is inserted, copied twice or kept in an
  /// intermediate array.
  ///
  /// Memory grows with the values appended, not with the count announced: a leaf is allocated when its
  /// first value arrives, so a decoder told of a million values by damaged input allocates only for the
  /// values it actually reads before failing.
  @usableFromInline
  struct Builder {
    /// The values the tree will hold.
    @usableFromInline let count: Int
    @usableFromInline let keyed: Bool
    /// The number of leaves, and how the values are spread over them: `base` each, one more for the first
    /// `extra`.
    @usableFromInline let leafCount: Int
    @usableFromInline let base: Int
    @usableFromInline let extra: Int
    /// The leaves filled so far, and the one being filled.
    @usableFromInline var leaves: [TreeNode<Value>] = []
    @usableFromInline var leaf: TreeNode<Value>?
    /// How many values the current leaf takes.
    @usableFromInline var leafTarget = 0
    /// The values appended so far.
    @usableFromInline var appended = 0

    /// A builder of a tree of `count` values, each with a key when `keyed` (a keyed tree's keys must
    /// increase).
    @inlinable
    init(count: Int, keyed: Bool) {
      self.count = Swift.max(0, count)
      self.keyed = keyed
      let capacity = TreeNode<Value>.leafCapacity
      leafCount = Swift.max(1, (self.count &+ capacity &- 1) / capacity)
      base = self.count / leafCount
      extra = self.count % leafCount
    }

    /// Whether every announced value has been appended.
    @inlinable
    var isComplete: Bool { appended == count }

    /// The leaf the next value goes into, started when the previous one is full.
    @inlinable
    mutating func currentLeaf() -> TreeNode<Value> {
      if let leaf, leaf.width < leafTarget { return leaf }
      if let leaf { leaves.append(leaf) }
      let next = TreeNode<Value>.make(leaf: true, keyed: keyed)
      leafTarget = base &+ (leaves.count < extra ? 1 : 0)
      leaf = next
      return next
    }

    /// Appends `value` (with `key`, in a keyed tree) after the values appended so far.
    /// - Precondition: fewer than `count` values were appended.
    @inlinable
    mutating func append(_ value: consuming Value, key: UInt64 = 0) {
      precondition(appended < count, "PersistentTree.Builder: more values than announced")
      let node = currentLeaf()
      let index = node.width
      unsafe (node.slots + index).initialize(to: value)
      if keyed { unsafe node.labels[index] = key }
      node.width = index &+ 1
      appended &+= 1
    }

    /// The tree of the values appended.
    /// - Precondition: all `count` values were appended.
    @inlinable
    consuming func finish() -> PersistentTree {
      precondition(appended == count, "PersistentTree.Builder: \(appended) of \(count) values appended")
      if let leaf { leaves.append(leaf) }
      guard !leaves.isEmpty else { return PersistentTree(root: TreeNode.make(leaf: true, keyed: keyed)) }
      var level = leaves
      leaves = []
      let innerCapacity = TreeNode<Value>.innerCapacity
      while level.count > 1 {
        var parents: [TreeNode<Value>] = []
        parents.reserveCapacity(level.count / innerCapacity &+ 1)
        for range in PersistentTree.evenRanges(count: level.count, capacity: innerCapacity) {
          parents.append(TreeNode.make(children: level[range], keyed: keyed))
        }
        level = parents
      }
      return PersistentTree(root: level[0])
    }
  }
}
