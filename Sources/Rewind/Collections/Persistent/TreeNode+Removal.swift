// Removal from a subtree: what `PersistentTree.remove(at:keyed:)` runs below the root. A child it leaves
// underfull is merged with or refilled from a neighbour (`TreeNode+Rebalancing.swift`).
extension TreeNode {
  /// Removes from this subtree, which must be referenced by its parent alone; the value, unless the slot
  /// was `vacated` (its value already moved out).
  @inlinable
  func remove(at offset: Int, keyed: Bool, vacated: Bool) -> Value? {
    if !keyed { dropKeys() }
    if isLeaf {
      let removed: Value? = unsafe vacated ? nil : (slots + offset).move()
      unsafe (slots + offset).moveInitialize(from: slots + (offset &+ 1), count: width &- offset &- 1)
      if isKeyed {
        unsafe (labels + offset).moveInitialize(from: labels + (offset &+ 1), count: width &- offset &- 1)
      }
      width &-= 1
      return removed
    }
    let (index, inner) = child(containing: offset)
    makeChildUnique(index)
    let child = unsafe childSlots[index]
    let removed = child.remove(at: inner, keyed: keyed, vacated: vacated)
    if child.count == 0 && width > 1 {
      // An emptied child goes (its parent keeps at least one child; the tree's root collapses).
      removeChild(at: index)
      refresh(from: index)
    } else if child.width < child.minimumWidth && width > 1 {
      rebalance(child: index)
    } else {
      for position in index..<width { unsafe ends[position] &-= 1 }
      if isKeyed { unsafe childKeys[index] = child.lastKey }
    }
    return removed
  }
}
