import Rewind

/// Coordinates a table of swipe cells: only one open unless the open cell allows multiple swipe, the
/// touch-to-dismiss overlay, and cancelling another row's drag when a pan begins.
public struct SwipeTable<Row: SwipeTableRow>: Reducer, Sendable {
  /// The reducer every row's cell runs.
  public var cell: SwipeCell

  /// Creates the coordinator around `cell`.
  public init(cell: SwipeCell = SwipeCell()) {
    self.cell = cell
  }

  /// Applies `action` to `state`; see the type's documentation for the rules.
  public func reduce(into state: inout SwipeTableState<Row>, action: SwipeTableAction<Row.ID>) -> Effect<SwipeTableAction<Row.ID>> {
    state.events.removeAll(keepingCapacity: true)
    switch action {
    case .row(let addressed):
      return rowAction(&state, id: addressed.id, action: addressed.action)
    case .touchDown(let rowID, let location):
      return touchDown(&state, rowID: rowID, location: location)
    case .tick(let now):
      // Display order, not Set order: Set iteration differs between processes and replay must not.
      // (No copy of `rows` is held here: it would make the next row mutation copy the whole array.)
      var ids: [(index: Int, id: Row.ID)] = []
      for id in state.animatingRowIDs {
        if let index = state.rows.index(id: id) { ids.append((index, id)) }
      }
      ids.sort { $0.index < $1.index }
      var effect = Effect<SwipeTableAction<Row.ID>>.none
      for entry in ids { effect = effect.merge(with: send(&state, id: entry.id, .tick(now: now))) }
      return effect
    case .closeAll(let animated):
      var effect = Effect<SwipeTableAction<Row.ID>>.none
      for id in state.openRowIDs { effect = effect.merge(with: send(&state, id: id, .hide(animated: animated))) }
      return effect
    }
  }

  func rowAction(_ state: inout SwipeTableState<Row>, id: Row.ID, action: SwipeCellAction) -> Effect<SwipeTableAction<Row.ID>> {
    guard let index = state.rows.index(id: id) else {
      return .diagnostic(
        Diagnostic(kind: .elementMissing, message: "SwipeTable received \(action) for row \(id), which is not in the table"))
    }
    var effect = Effect<SwipeTableAction<Row.ID>>.none
    if case .panBegan = action {
      if state.swallowedRowID == id { return .none }
      if !state.rows[index].swipe.allowsMultipleSwipe, let dragging = state.draggingRowID, dragging != id {
        effect = send(&state, id: dragging, .cancelGesture)
      }
    }
    return effect.merge(with: send(&state, id: id, action))
  }

  func touchDown(_ state: inout SwipeTableState<Row>, rowID: Row.ID?, location: SwipeVector) -> Effect<SwipeTableAction<Row.ID>> {
    var consumed = false
    var hidden: [Row.ID] = []
    var effect = Effect<SwipeTableAction<Row.ID>>.none
    for id in state.openRowIDs where id != rowID {
      guard let open = state.rows[id: id]?.swipe, !open.allowsMultipleSwipe else { continue }
      // Asked once per touch, unlike UIKit's repeated hit tests.
      if cell.shouldHideOnTap(location) {
        hidden.append(id)
        effect = effect.merge(with: send(&state, id: id, .hide(animated: true)))
      }
      consumed = consumed || !open.touchOnDismissSwipe
    }
    state.lastTouch = SwipeTouchOutcome(consumed: consumed, hiddenRowIDs: hidden)
    state.swallowedRowID = consumed ? rowID : nil
    return effect
  }

  /// Runs `action` on row `id` and updates the bookkeeping for that row only.
  func send(_ state: inout SwipeTableState<Row>, id: Row.ID, _ action: SwipeCellAction) -> Effect<SwipeTableAction<Row.ID>> {
    guard let index = state.rows.index(id: id) else { return .none }
    let cell = self.cell
    // Only flags come out, so no copy of the row's arrays outlives the update.
    let (effect, swipe) = state.rows.updateElement(at: index) { row in
      (cell.reduce(into: &row.swipe, action: action), RowFlags(row.swipe))
    }
    for event in state.rows[index].swipe.events { state.events.append(SwipeRowEvent(id: id, event: event)) }
    var hideOthers = Effect<SwipeTableAction<Row.ID>>.none
    if swipe.isOverlayShown {
      if !state.openRowIDs.contains(id) {
        // One open row at a time: a row that opens (by gesture, programmatically, or on an animation
        // frame) hides the others, unless it allows multiple swipe.
        if !swipe.allowsMultipleSwipe {
          for other in state.openRowIDs { hideOthers = hideOthers.merge(with: send(&state, id: other, .hide(animated: true))) }
        }
        state.openRowIDs.append(id)
      }
    } else {
      state.openRowIDs.removeAll { $0 == id }
    }
    if swipe.isGestureActive {
      state.draggingRowID = id
    } else if state.draggingRowID == id {
      state.draggingRowID = nil
    }
    if swipe.isAnimating {
      state.animatingRowIDs.insert(id)
    } else {
      state.animatingRowIDs.remove(id)
    }
    return effect.map { .row(IdentifiedAction(id: id, action: $0)) }.merge(with: hideOthers)
  }
}

/// The parts of a row's swipe state the table's bookkeeping reads.
private struct RowFlags {
  var isOverlayShown: Bool
  var allowsMultipleSwipe: Bool
  var isGestureActive: Bool
  var isAnimating: Bool

  init(_ swipe: SwipeCellState) {
    isOverlayShown = swipe.isOverlayShown
    allowsMultipleSwipe = swipe.allowsMultipleSwipe
    isGestureActive = swipe.isGestureActive
    isAnimating = swipe.animation != nil
  }
}
