// Evening out two siblings after a removal left one underfull.
extension TreeNode {
  /// Merges the underfull child `index` with a neighbour, or evens the two out when together they would
  /// not fit in one node; then brings `ends` and the keys up to date from there.
  @inlinable
  func rebalance(child index: Int) {
    let left = index > 0 ? index &- 1 : index
    let right = left &+ 1
    makeChildUnique(left)
    makeChildUnique(right)
    let a = unsafe childSlots[left]
    let b = unsafe childSlots[right]
    if !(isKeyed && a.isKeyed && b.isKeyed) {
      a.dropKeys()
      b.dropKeys()
    }
    let capacity = a.isLeaf ? Self.leafCapacity : Self.innerCapacity
    if a.width &+ b.width <= capacity {
      a.absorb(b)
      removeChild(at: right)
    } else {
      a.share(with: b)
    }
    refresh(from: left)
  }

  /// Moves every entry of `other`, a sibling of the same height referenced by its parent alone, to the
  /// end of this node, leaving `other` empty.
  @inlinable
  func absorb(_ other: TreeNode) {
    let moved = other.width
    if isLeaf {
      unsafe (slots + width).moveInitialize(from: other.slots, count: moved)
      if isKeyed { unsafe (labels + width).moveInitialize(from: other.labels, count: moved) }
      other.width = 0
      width &+= moved
    } else {
      let first = width
      unsafe (childSlots + width).moveInitialize(from: other.childSlots, count: moved)
      other.width = 0
      width &+= moved
      refresh(from: first)
    }
  }

  /// Moves entries between this node and `other`, its right sibling, so that each holds about half.
  @inlinable
  func share(with other: TreeNode) {
    let total = width &+ other.width
    let half = total / 2
    if width > half {
      // This node's tail goes to the front of `other`.
      let moved = width &- half
      if isLeaf {
        unsafe (other.slots + moved).moveInitialize(from: other.slots, count: other.width)
        unsafe other.slots.moveInitialize(from: slots + half, count: moved)
        if isKeyed {
          unsafe (other.labels + moved).moveInitialize(from: other.labels, count: other.width)
          unsafe other.labels.moveInitialize(from: labels + half, count: moved)
        }
      } else {
        unsafe (other.childSlots + moved).moveInitialize(from: other.childSlots, count: other.width)
        unsafe other.childSlots.moveInitialize(from: childSlots + half, count: moved)
      }
    } else {
      // The front of `other` goes to this node's tail.
      let moved = half &- width
      if isLeaf {
        unsafe (slots + width).moveInitialize(from: other.slots, count: moved)
        unsafe other.slots.moveInitialize(from: other.slots + moved, count: other.width &- moved)
        if isKeyed {
          unsafe (labels + width).moveInitialize(from: other.labels, count: moved)
          unsafe other.labels.moveInitialize(from: other.labels + moved, count: other.width &- moved)
        }
      } else {
        unsafe (childSlots + width).moveInitialize(from: other.childSlots, count: moved)
        unsafe other.childSlots.moveInitialize(from: other.childSlots + moved, count: other.width &- moved)
      }
    }
    width = half
    other.width = total &- half
    if !isLeaf {
      refresh(from: 0)
      other.refresh(from: 0)
    }
  }
}
