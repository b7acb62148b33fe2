import Rewind

// MARK: Animation and clicks

extension SwipeCell {
  /// Upstream `setSwipeOffset(v, animation:completion:)`: interrupts the running animation (its completion
  /// gets `finished = false`), then jumps or starts animating.
  func setOffset(
    _ state: inout SwipeCellState, _ value: Double, animation: SwipeAnimation?, completion: SwipeCompletion = .none
  ) -> Effect<SwipeCellAction> {
    var effect = Effect<SwipeCellAction>.none
    if let running = state.animation {
      state.animation = nil
      effect = complete(&state, running.completion, finished: false)
    }
    guard let animation else {
      state.applyOffset(value)
      return effect.merge(with: complete(&state, completion, finished: true))
    }
    state.animation = SwipeAnimationRun(
      from: state.offset, to: value, animation: animation, start: nil, completion: completion)
    return effect
  }

  /// One display frame: the first tick fixes the start, so it always yields `from`.
  func tick(_ state: inout SwipeCellState, now: Double) -> Effect<SwipeCellAction> {
    guard var run = state.animation, now.isFinite else { return .none }
    let start = run.start ?? now
    run.start = start
    let elapsed = Swift.max(0, now - start)
    let duration = run.animation.duration.isFinite ? run.animation.duration : 0
    let done = duration <= 0 || elapsed / duration >= 1
    state.animation = done ? nil : run
    state.applyOffset(run.animation.easing.value(elapsed: elapsed, duration: duration, from: run.from, to: run.to))
    return done ? complete(&state, run.completion, finished: true) : .none
  }

  func complete(_ state: inout SwipeCellState, _ completion: SwipeCompletion, finished: Bool) -> Effect<SwipeCellAction> {
    switch completion {
    case .none:
      return .none
    case .clickExpanded(let side, let index):
      guard finished, state.buttons(side).indices.contains(index) else { return .none }
      return click(&state, SwipeButtonTap(index: index, direction: side, fromExpansion: true))
    case .finishExpandSwipe:
      state.activeExpansion = nil
      return setOffset(&state, 0, animation: nil)
    }
  }

  /// A button click: its own callback, then the app's handler; either asking to hide hides the cell.
  func click(_ state: inout SwipeCellState, _ tap: SwipeButtonTap) -> Effect<SwipeCellAction> {
    var autoHide = false
    if let callback = state.buttons(tap.direction)[tap.index].callbackAutoHide {
      state.events.append(.buttonCallback(index: tap.index, direction: tap.direction))
      autoHide = callback
    }
    state.events.append(.buttonTapped(tap))
    autoHide = tappedButton(tap) || autoHide
    guard autoHide else { return .none }
    if tap.fromExpansion {
      state.activeExpansion = nil
      return setOffset(&state, 0, animation: nil)
    }
    return hide(&state, animated: true)
  }
}
