import Rewind

/// Coordinates a table of swipe cells: only one open unless the open cell allows multiple swipe, the
/// touch-to-dismiss overlay, and cancelling another row's drag when a pan begins.
///
/// Each row's animation ends with one `.row(id, .animationFinished(id:))`, sent by a timer effect the
/// table schedules per row (named by the row's id), so the end is an event caused by the action that
/// started the animation. A view samples the rows in ``SwipeTableState/animatingRowIDs`` at each frame.
public struct SwipeTable<Row: SwipeTableRow>: Reducer, Sendable {
  /// The reducer every row's cell runs.
  public var cell: SwipeCell

  /// Creates the coordinator around `cell`.
  public init(cell: SwipeCell = SwipeCell()) {
    self.cell = cell
  }

  /// Applies `action` to `state`; see the type's documentation for the rules.
  public func reduce(into state: inout SwipeTableState<Row>, action: SwipeTableAction<Row.ID>) -> Effect<
    SwipeTableAction<Row.ID>
  > {
    state.events.removeAll(keepingCapacity: true)
    defer { state.checkInvariantsIfEnabled() }
    switch action {
    case .row(let addressed):
      return rowAction(&state, id: addressed.id, action: addressed.action)
    case .touchDown(let rowID, let location, let now):
      return touchDown(&state, rowID: rowID, location: location, now: now)
    case .resumeAnimations(let now):
      var effect = Effect<SwipeTableAction<Row.ID>>.none
      for id in animatingRowIDsInDisplayOrder(state) {
        effect = effect.merge(with: send(&state, id: id, .resumeAnimation(at: now), at: now))
      }
      return effect
    case .closeAll(let animated, let now):
      var effect = Effect<SwipeTableAction<Row.ID>>.none
      // An animating row that is not open yet (or any more) is stopped too, so nothing moves afterwards.
      var ids = state.openRowIDs
      for id in animatingRowIDsInDisplayOrder(state) where !ids.contains(id) { ids.append(id) }
      for id in ids {
        effect = effect.merge(with: send(&state, id: id, .hide(animated: animated, at: now), at: now))
      }
      return effect
    }
  }

  func rowAction(_ state: inout SwipeTableState<Row>, id: Row.ID, action: SwipeCellAction) -> Effect<
    SwipeTableAction<Row.ID>
  > {
    guard let index = state.rows.index(id: id) else {
      return .diagnostic(
        Diagnostic(
          kind: .elementMissing,
          message: "SwipeTable received \(action) for row \(id), which is not in the table"))
    }
    var effect = Effect<SwipeTableAction<Row.ID>>.none
    if case .panBegan = action {
      if state.swallowedRowID == id { return .none }
      if !state.rows[index].swipe.allowsMultipleSwipe, let dragging = state.draggingRowID, dragging != id,
        let now = action.time
      {
        effect = send(&state, id: dragging, .cancelGesture(at: now), at: now)
      }
    }
    return effect.merge(with: send(&state, id: id, action, at: action.time))
  }

  func touchDown(
    _ state: inout SwipeTableState<Row>, rowID: Row.ID?, location: SwipeVector, now: Double
  ) -> Effect<SwipeTableAction<Row.ID>> {
    var consumed = false
    var hidden: [Row.ID] = []
    var effect = Effect<SwipeTableAction<Row.ID>>.none
    for id in state.openRowIDs where id != rowID {
      guard let open = state.rows[id: id]?.swipe, !open.allowsMultipleSwipe else { continue }
      // Asked once per touch, unlike UIKit's repeated hit tests.
      if cell.shouldHideOnTap(location) {
        hidden.append(id)
        effect = effect.merge(with: send(&state, id: id, .hide(animated: true, at: now), at: now))
      }
      consumed = consumed || !open.touchOnDismissSwipe
    }
    state.lastTouch = SwipeTouchOutcome(consumed: consumed, hiddenRowIDs: hidden)
    state.swallowedRowID = consumed ? rowID : nil
    return effect
  }

  /// Runs `action` on row `id` and updates the bookkeeping for that row only; `now` is the display time
  /// of the table action, when it has one (other rows that must close then close animated from it).
  func send(
    _ state: inout SwipeTableState<Row>, id: Row.ID, _ action: SwipeCellAction, at now: Double?
  ) -> Effect<SwipeTableAction<Row.ID>> {
    guard let index = state.rows.index(id: id) else { return .none }
    let cell = self.cell
    // Only flags come out, so no copy of the row's arrays outlives the update.
    let (effect, swipe, before) = state.rows.updateElement(at: index) { row in
      let before = row.swipe.animation?.id
      return (cell.reduceWithoutTimer(into: &row.swipe, action: action), RowFlags(row.swipe), before)
    }
    for event in state.rows[index].swipe.events { state.events.append(SwipeRowEvent(id: id, event: event)) }
    var hideOthers = Effect<SwipeTableAction<Row.ID>>.none
    if swipe.isOverlayShown {
      if !state.openRowIDs.contains(id) {
        // One open row at a time: a row that opens (by gesture, programmatically, or on an animation
        // frame) hides the others, unless it allows multiple swipe.
        if !swipe.allowsMultipleSwipe {
          for other in state.openRowIDs {
            let hide = SwipeCellAction.hide(animated: now?.isFinite ?? false, at: now ?? 0)
            hideOthers = hideOthers.merge(with: send(&state, id: other, hide, at: now))
          }
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
    if swipe.animationID != nil {
      state.animatingRowIDs.insert(id)
    } else {
      state.animatingRowIDs.remove(id)
    }
    var timer = Effect<SwipeTableAction<Row.ID>>.none
    let resumes: Bool = if case .resumeAnimation = action { true } else { false }
    if swipe.animationID != before || resumes {
      let timerID = SwipeRowTimerID(rowID: id)
      if let run = state.rows[index].swipe.animation {
        let finished = SwipeTableAction<Row.ID>.row(
          IdentifiedAction(id: id, action: .animationFinished(id: run.id)))
        timer = ComponentTimer.finish(run, at: now ?? run.start, send: finished, id: timerID)
      } else {
        // Ended early: its timer would only send an ignored finish (harmless when the timer sent it).
        timer = .cancel(id: timerID)
      }
    }
    return effect.map { .row(IdentifiedAction(id: id, action: $0)) }.merge(with: timer).merge(
      with: hideOthers)
  }

  /// The animating rows in display order (a Set's order differs between processes; replay must not).
  func animatingRowIDsInDisplayOrder(_ state: SwipeTableState<Row>) -> [Row.ID] {
    var ids: [(index: Int, id: Row.ID)] = []
    for id in state.animatingRowIDs {
      if let index = state.rows.index(id: id) { ids.append((index, id)) }
    }
    ids.sort { $0.index < $1.index }
    return ids.map(\.id)
  }
}

/// Names the animation timer of one row of a swipe table among a store's effects.
struct SwipeRowTimerID<ID: Hashable & Sendable>: Hashable, Sendable {
  var rowID: ID
}

/// The parts of a row's swipe state the table's bookkeeping reads.
private struct RowFlags {
  var isOverlayShown: Bool
  var allowsMultipleSwipe: Bool
  var isGestureActive: Bool
  var animationID: Int?

  init(_ swipe: SwipeCellState) {
    isOverlayShown = swipe.isOverlayShown
    allowsMultipleSwipe = swipe.allowsMultipleSwipe
    isGestureActive = swipe.isGestureActive
    animationID = swipe.animation?.id
  }
}
