import Rewind

extension SwipeTableState: InvariantChecking {
  /// Traps when an action left the table's bookkeeping unlike its rows: the open, animating and dragging
  /// rows must be exactly the rows in those states, and each row's cell consistent. The reducer checks
  /// after every action (``InvariantChecking/checkInvariantsIfEnabled()``). O(rows).
  @usableFromInline
  package func _checkInvariants() {
    precondition(Set(openRowIDs).count == openRowIDs.count, "open rows repeat: \(openRowIDs)")
    for row in rows {
      let swipe = row.swipe
      swipe._checkInvariants()
      precondition(swipe.isOverlayShown == openRowIDs.contains(row.id), "row \(row.id): overlay vs open rows")
      precondition(
        (swipe.animation != nil) == animatingRowIDs.contains(row.id), "row \(row.id): animating rows")
      precondition(!swipe.isGestureActive || draggingRowID == row.id, "row \(row.id): dragging row")
    }
    precondition(animatingRowIDs.allSatisfy { rows.index(id: $0) != nil }, "animating rows not in the table")
    precondition(openRowIDs.allSatisfy { rows.index(id: $0) != nil }, "open rows not in the table")
  }
}
