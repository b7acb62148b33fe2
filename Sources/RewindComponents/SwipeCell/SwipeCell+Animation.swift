import Rewind

// MARK: Animation and clicks

extension SwipeCell {
  /// Upstream `setSwipeOffset(v, animation:completion:)`: interrupts the running animation (its completion
  /// gets `finished = false`), then jumps or starts animating from where the animation had got at `now`.
  ///
  /// A move is animated only with an animation, a finite `now`, and somewhere to go or something to do at
  /// its end; otherwise it jumps, and its completion runs at once.
  func setOffset(
    _ state: inout SwipeCellState, _ value: Double, animation: SwipeAnimation?,
    completion: SwipeCompletion = .none,
    at now: Double?
  ) -> Effect<SwipeCellAction> {
    let effect = interrupt(&state, at: now, finishing: false)
    guard let animation, let now, now.isFinite,
      state.bounced(value) != state.offset || completion != .none
    else {
      state.applyOffset(value)
      return effect.merge(with: complete(&state, completion, finished: true, now: now))
    }
    state.animationCount &+= 1
    state.animation = SwipeAnimationRun(
      id: state.animationCount, from: state.offset, to: value, animation: animation, start: now,
      completion: completion)
    // Upstream's overlay appears on the first frame that leaves 0; the frames are not events here, so the
    // overlay (and `willBeginSwiping`) come with the action that starts the move.
    let target = state.bounced(value)
    if !state.isOverlayShown && target != 0 && !state.buttons(SwipeDirection(offset: target)).isEmpty {
      state.isOverlayShown = true
      state.events.append(.willBeginSwiping)
    }
    return effect
  }

  /// Stops the running animation at display time `now`. When `now` is past its end it ends as it would have
  /// on its last frame; otherwise the offset stays where a frame at `now` showed it, and the completion is
  /// told `finishing` (upstream: true when a pan catches the cell, false when a new move replaces it).
  /// Without a time the animation stops where it started, as a jump that follows overrides it anyway.
  func interrupt(_ state: inout SwipeCellState, at now: Double?, finishing: Bool) -> Effect<SwipeCellAction> {
    guard let run = state.animation else { return .none }
    if let now, run.isFinished(at: now) { return finish(&state, run) }
    if let now {
      // The frame at `now`, applied as upstream's last frame before the stop: with reporting suppressed.
      state.applyOffset(run.value(at: now), emitting: false)
    }
    state.animation = nil
    return complete(&state, run.completion, finished: finishing, now: now)
  }

  /// The animation's end: its final offset applies, reported, and its completion runs.
  func finish(_ state: inout SwipeCellState, _ run: SwipeAnimationRun) -> Effect<SwipeCellAction> {
    state.animation = nil
    state.applyOffset(run.to)
    return complete(&state, run.completion, finished: true, now: run.end)
  }

  func complete(
    _ state: inout SwipeCellState, _ completion: SwipeCompletion, finished: Bool, now: Double?
  ) -> Effect<SwipeCellAction> {
    switch completion {
    case .none:
      return .none
    case .clickExpanded(let side, let index):
      guard finished, state.buttons(side).indices.contains(index) else { return .none }
      return click(&state, SwipeButtonTap(index: index, direction: side, fromExpansion: true), now: now)
    case .finishExpandSwipe:
      state.activeExpansion = nil
      return setOffset(&state, 0, animation: nil, at: nil)
    }
  }

  /// A button click: its own callback, then the app's handler; either asking to hide hides the cell.
  func click(_ state: inout SwipeCellState, _ tap: SwipeButtonTap, now: Double?) -> Effect<SwipeCellAction> {
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
      return setOffset(&state, 0, animation: nil, at: nil)
    }
    return hide(&state, animated: true, now: now)
  }
}
