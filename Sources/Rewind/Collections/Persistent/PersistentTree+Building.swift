extension PersistentTree {
  /// A tree of `values` (with `keys`, one per value and increasing, for a keyed tree), built bottom-up
  /// with nearly full nodes.
  /// - Complexity: O(n).
  @inlinable
  init(values: [Value], keys: [UInt64]?) {
    let leafCapacity = TreeNode<Value>.leafCapacity
    guard values.count > leafCapacity else {
      self.init(root: TreeNode.make(values: values, keys: keys))
      return
    }
    var level: [TreeNode<Value>] = []
    for range in Self.evenRanges(count: values.count, capacity: leafCapacity) {
      level.append(TreeNode.make(values: values[range], keys: keys.map { $0[range] }))
    }
    let innerCapacity = TreeNode<Value>.innerCapacity
    while level.count > 1 {
      var parents: [TreeNode<Value>] = []
      parents.reserveCapacity(level.count / innerCapacity &+ 1)
      for range in Self.evenRanges(count: level.count, capacity: innerCapacity) {
        parents.append(TreeNode.make(children: Array(level[range]), keyed: keys != nil))
      }
      level = parents
    }
    self.init(root: level[0])
  }

  /// `count` items cut into the fewest runs of at most `capacity`, of sizes differing by at most one.
  @inlinable
  static func evenRanges(count: Int, capacity: Int) -> [Range<Int>] {
    let runs = (count &+ capacity &- 1) / capacity
    let base = count / runs
    let extra = count % runs
    var ranges: [Range<Int>] = []
    ranges.reserveCapacity(runs)
    var start = 0
    for run in 0..<runs {
      let size = base &+ (run < extra ? 1 : 0)
      ranges.append(start..<(start &+ size))
      start &+= size
    }
    return ranges
  }

  /// The values in order.
  /// - Complexity: O(n).
  @inlinable
  var array: [Value] {
    if root.isLeaf { return unsafe Array(root.values) }
    var result: [Value] = []
    result.reserveCapacity(count)
    forEachLeaf { unsafe result.append(contentsOf: $0.values) }
    return result
  }

  /// The keys in order (keyed trees).
  @inlinable
  var allKeys: [UInt64] {
    var result: [UInt64] = []
    result.reserveCapacity(count)
    forEachLeaf { leaf in
      if leaf.isKeyed {
        unsafe result.append(contentsOf: UnsafeBufferPointer(start: leaf.labels, count: leaf.width))
      }
    }
    return result
  }

  /// Calls `body` with every leaf, left to right.
  @inlinable
  func forEachLeaf(_ body: (TreeNode<Value>) throws -> Void) rethrows {
    func visit(_ node: TreeNode<Value>) throws {
      if node.isLeaf {
        try body(node)
      } else {
        for index in 0..<node.width { try visit(node.child(at: index)) }
      }
    }
    try visit(root)
  }

  /// The values at `range`.
  /// - Complexity: O(log n + range.count).
  @inlinable
  func values(in range: Range<Int>) -> [Value] {
    var result: [Value] = []
    result.reserveCapacity(range.count)
    var iterator = Iterator(self, from: range.lowerBound)
    for _ in range {
      guard let value = iterator.next() else { break }
      result.append(value)
    }
    return result
  }
}
