extension PersistentTree {
  /// A position in a tree for a walk from one end: the path from the root to the current value.
  @usableFromInline
  struct Cursor {
    @usableFromInline
    struct Frame {
      @usableFromInline var node: TreeNode<Value>
      /// The child being visited (inner nodes) or the current value (the leaf).
      @usableFromInline var index: Int

      @inlinable
      init(node: TreeNode<Value>, index: Int) {
        self.node = node
        self.index = index
      }
    }

    @usableFromInline var frames: [Frame] = []
    @usableFromInline let forward: Bool
    @usableFromInline var isAtEnd = false

    /// A cursor at the first value (`forward`) or the last.
    @inlinable
    init(_ tree: PersistentTree, forward: Bool) {
      self.forward = forward
      if tree.count == 0 {
        isAtEnd = true
        return
      }
      descend(from: tree.root)
    }

    /// The index a walk enters `node` at.
    @inlinable
    func entry(of node: TreeNode<Value>) -> Int { forward ? 0 : node.width &- 1 }

    @inlinable
    mutating func descend(from start: TreeNode<Value>) {
      var node = start
      while true {
        frames.append(Frame(node: node, index: entry(of: node)))
        if node.isLeaf { return }
        node = unsafe node.childSlots[entry(of: node)]
      }
    }

    /// The depth of the leaf frame.
    @inlinable
    var leafDepth: Int { frames.count &- 1 }

    /// The current value.
    @inlinable
    var value: Value { unsafe frames[leafDepth].node.slots[frames[leafDepth].index] }

    /// The smallest depth whose node begins (in the walk's direction) at the current value; `leafDepth + 1`
    /// when the current value is inside its leaf.
    @inlinable
    var alignedDepth: Int {
      var depth = leafDepth
      while depth >= 0 && frames[depth].index == entry(of: frames[depth].node) { depth &-= 1 }
      return depth &+ 1
    }

    /// The values left in the current leaf in the walk's direction, the current one included.
    @inlinable
    var remainingInLeaf: Int {
      forward ? frames[leafDepth].node.width &- frames[leafDepth].index : frames[leafDepth].index &+ 1
    }

    /// The address of the current value; the next ones in the walk's direction follow it (forward) or
    /// precede it, up to ``remainingInLeaf``.
    @inlinable
    var valuePointer: UnsafeMutablePointer<Value> {
      unsafe frames[leafDepth].node.slots + frames[leafDepth].index
    }

    /// Moves past `count` values of the current leaf (at most ``remainingInLeaf``).
    @inlinable
    mutating func advance(by count: Int) {
      guard count > 0 else { return }
      if count < remainingInLeaf {
        frames[leafDepth].index &+= forward ? count : -count
      } else {
        frames[leafDepth].index = forward ? frames[leafDepth].node.width &- 1 : 0
        skip(depth: frames.count)
      }
    }

    /// Moves past the subtree at `depth`, or past the current value when `depth` is `frames.count`.
    @inlinable
    mutating func skip(depth: Int) {
      var level = depth &- 1
      while level >= 0 {
        let next = frames[level].index &+ (forward ? 1 : -1)
        if next >= 0 && next < frames[level].node.width {
          frames[level].index = next
          frames.removeSubrange((level &+ 1)...)
          if !frames[level].node.isLeaf { unsafe descend(from: frames[level].node.childSlots[next]) }
          return
        }
        level &-= 1
      }
      isAtEnd = true
    }
  }

  /// How many values, from the front (`forward`) or the back, `self` and `other` have in common, up to
  /// `limit`: accepted by `same` (called with the two values and how many matched before them), or inside
  /// a subtree both share, which is stepped over without calling `same` (so `same` must accept a value
  /// and itself).
  ///
  /// - Complexity: O((s + 1) · log n), where s is the number of subtrees the walk steps over, plus the
  ///   values it compares one by one; for two versions of one tree that differ in one place,
  ///   O(fanout · log n).
  ///
  /// With a `budget`, gives up (returns `nil`) once more than `budget` values were compared one by one:
  /// little is shared, and a plain scan would be cheaper.
  @inlinable
  func sharedRun(
    with other: PersistentTree, forward: Bool, limit: Int, budget: Int = .max,
    same: (Value, Value, Int) -> Bool
  ) -> Int? {
    var budget = budget
    var mine = Cursor(self, forward: forward)
    var theirs = Cursor(other, forward: forward)
    var matched = 0
    walk: while matched < limit && !mine.isAtEnd && !theirs.isAtEnd {
      // The tallest subtree both trees have here, if it is one node: step over it whole.
      let myTop = mine.leafDepth &- mine.alignedDepth
      let theirTop = theirs.leafDepth &- theirs.alignedDepth
      var height = Swift.min(myTop, theirTop)
      while height >= 0 {
        let node = mine.frames[mine.leafDepth &- height].node
        if node === theirs.frames[theirs.leafDepth &- height].node && matched &+ node.count <= limit {
          mine.skip(depth: mine.leafDepth &- height)
          theirs.skip(depth: theirs.leafDepth &- height)
          matched &+= node.count
          continue walk
        }
        height &-= 1
      }
      // Nothing shared here: compare the values left in both leaves, in a plain loop.
      let run = Swift.min(mine.remainingInLeaf, theirs.remainingInLeaf, limit &- matched)
      budget &-= run
      if budget < 0 { return nil }
      let step = forward ? 1 : -1
      var myValue = unsafe mine.valuePointer
      var theirValue = unsafe theirs.valuePointer
      var compared = 0
      while compared < run, unsafe same(myValue.pointee, theirValue.pointee, matched &+ compared) {
        compared &+= 1
        unsafe myValue += step
        unsafe theirValue += step
      }
      mine.advance(by: compared)
      theirs.advance(by: compared)
      matched &+= compared
      if compared < run { break }
    }
    return matched
  }

  /// Whether both trees hold equal values in the same order, stepping over shared subtrees.
  /// - Complexity: O(1) for the same storage; for versions of one tree, proportional to what differs.
  @inlinable
  func elementsEqual(_ other: PersistentTree, by same: (Value, Value) -> Bool) -> Bool {
    if isIdentical(to: other) { return true }
    guard count == other.count else { return false }
    // Without a budget the walk never gives up, so it returns a count.
    return sharedRun(with: other, forward: true, limit: count) { mine, theirs, _ in same(mine, theirs) }
      == count
  }
}

extension PersistentTree.Cursor: @unchecked Sendable where Value: Sendable {}
extension PersistentTree.Cursor.Frame: @unchecked Sendable where Value: Sendable {}
