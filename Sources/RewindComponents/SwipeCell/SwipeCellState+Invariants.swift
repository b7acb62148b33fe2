// Internal invariants, checked after every action only in builds with -DREWIND_CHECK_INVARIANTS.
extension SwipeCellState {
  /// Asserts what every action must leave true; a failure is a bug in the swipe cell, not bad input.
  func _checkInvariants() {
    #if REWIND_CHECK_INVARIANTS
      assert(offset.isFinite, "swipe offset \(offset)")
      if let animation {
        // The running animation is the latest one started, so its timer's finish is the only one honoured.
        assert(animation.id == animationCount, "animation \(animation.id) of \(animationCount) started")
        assert(
          animation.start.isFinite && animation.from.isFinite && animation.to.isFinite,
          "animation \(animation)")
      }
      assert(activeExpansion == nil || isOverlayShown || animation != nil, "expansion without overlay")
    #endif
  }
}

extension SwipeTableState {
  /// Asserts that the table's bookkeeping matches its rows: the open, animating and dragging rows are
  /// exactly the rows in those states. O(rows); only with -DREWIND_CHECK_INVARIANTS.
  func _checkInvariants() {
    #if REWIND_CHECK_INVARIANTS
      assert(Set(openRowIDs).count == openRowIDs.count, "open rows repeat: \(openRowIDs)")
      for row in rows {
        let swipe = row.swipe
        swipe._checkInvariants()
        assert(swipe.isOverlayShown == openRowIDs.contains(row.id), "row \(row.id): overlay vs open rows")
        assert((swipe.animation != nil) == animatingRowIDs.contains(row.id), "row \(row.id): animating rows")
        assert(!swipe.isGestureActive || draggingRowID == row.id, "row \(row.id): dragging row")
      }
      assert(animatingRowIDs.allSatisfy { rows.index(id: $0) != nil }, "animating rows not in the table")
      assert(openRowIDs.allSatisfy { rows.index(id: $0) != nil }, "open rows not in the table")
    #endif
  }
}
