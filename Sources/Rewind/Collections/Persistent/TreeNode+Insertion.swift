// Insertion into a subtree, and the split of a node it overfills: what `PersistentTree.insert` runs below
// the root; and the change of one key, what `IdentifiedArray` runs to relabel before an insertion.
extension TreeNode {
  /// Gives the value at `offset` of this subtree the key `key`, which must keep the keys in order; the
  /// subtree must be referenced by its parent alone.
  @inlinable
  func setKey(_ key: UInt64, at offset: Int) {
    if isLeaf {
      unsafe labels[offset] = key
      return
    }
    let (index, inner) = child(containing: offset)
    makeChildUnique(index)
    unsafe childSlots[index].setKey(key, at: inner)
    unsafe childKeys[index] = childSlots[index].lastKey
  }

  /// Inserts into this subtree, which must be referenced by its parent alone.
  /// - Returns: a new right sibling when this node had to split.
  @inlinable
  func insert(_ value: Value, key: UInt64?, at offset: Int, atEnd: Bool) -> TreeNode? {
    if isLeaf {
      // Room for one more is always allocated: shift, place, then split if over capacity.
      unsafe (slots + (offset &+ 1)).moveInitialize(from: slots + offset, count: width &- offset)
      unsafe (slots + offset).initialize(to: value)
      if let key, isKeyed {
        unsafe (labels + (offset &+ 1)).moveInitialize(from: labels + offset, count: width &- offset)
        unsafe labels[offset] = key
      } else {
        dropKeys()
      }
      width &+= 1
      return width > Self.leafCapacity ? split(atEnd: atEnd) : nil
    }
    if key == nil { dropKeys() }
    let (index, inner) = child(forInsertionAt: offset)
    makeChildUnique(index)
    if let sibling = unsafe childSlots[index].insert(value, key: key, at: inner, atEnd: atEnd) {
      insertChild(sibling, at: index &+ 1)
      refresh(from: index)
    } else {
      for position in index..<width { unsafe ends[position] &+= 1 }
      if isKeyed { unsafe childKeys[index] = childSlots[index].lastKey }
    }
    return width > Self.innerCapacity ? split(atEnd: atEnd) : nil
  }

  /// Splits an overfull node in two and returns the right half. A node that grew by appending at the very
  /// end of the tree keeps its full capacity and hands on one entry, so that a list built by appending
  /// ends up with full nodes.
  @inlinable
  func split(atEnd: Bool) -> TreeNode {
    let right = TreeNode.make(leaf: isLeaf, keyed: isKeyed, leafChildren: hasLeafChildren)
    let keep = atEnd ? (isLeaf ? Self.leafCapacity : Self.innerCapacity) : width / 2
    let moved = width &- keep
    if isLeaf {
      unsafe right.slots.moveInitialize(from: slots + keep, count: moved)
      if isKeyed { unsafe right.labels.moveInitialize(from: labels + keep, count: moved) }
      right.width = moved
      width = keep
    } else {
      unsafe right.childSlots.moveInitialize(from: childSlots + keep, count: moved)
      right.width = moved
      width = keep
      right.refresh(from: 0)
    }
    return right
  }
}
