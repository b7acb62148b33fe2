import Rewind
import RewindComponents

/// Drives a swipe cell reducer directly and collects every emitted event, for parity tests.
///
/// Display time is explicit: actions that carry a time are sent at ``now``, and a test samples geometry
/// with `state.offset(at:)` or `state.presentation(at:)` as a view would, without sending anything.
struct SwipeDriver {
  var state: SwipeCellState
  var reducer: SwipeCell
  var events: [SwipeEvent] = []
  var panBase = 0.0
  /// The display time of the actions the driver sends.
  var now = 100.0

  init(_ state: SwipeCellState = .fixture, reducer: SwipeCell = SwipeCell()) {
    self.state = state
    self.reducer = reducer
  }

  mutating func send(_ action: SwipeCellAction) {
    _ = reducer.reduce(into: &state, action: action)
    events += state.events
  }

  /// Begins a pan and moves it so that the raw offsets are `offsets`, in order.
  mutating func pan(_ offsets: Double..., location: SwipeVector = .zero) {
    let first = offsets.first ?? 0
    panBase = first >= 0 ? 1 : -1
    send(.panBegan(translation: SwipeVector(x: panBase), location: location, at: now))
    for offset in offsets { move(to: offset) }
  }

  /// Moves the current pan so that the raw offset is `offset`.
  mutating func move(to offset: Double) {
    send(.panChanged(translation: SwipeVector(x: offset - state.panStartOffset + panBase), at: now))
  }

  mutating func release(velocity: Double = 0) {
    send(.panEnded(translation: .zero, velocity: SwipeVector(x: velocity), at: now))
  }

  /// Ends the running animation as its timer does: one `animationFinished` for its id.
  mutating func finishAnimation() {
    guard let run = state.animation else { return }
    send(.animationFinished(id: run.id))
  }
}

extension SwipeCellState {
  /// Spec fixture: W = 320, right buttons A (60) and B (90) → S_R = 180, left button L (80) → S_L = 80, and
  /// distinguishable animation durations (show 0.31, hide 0.32, stretch 0.33).
  static var fixture: SwipeCellState {
    var state = SwipeCellState(
      left: [SwipeButton(title: "L", width: 80)],
      right: [SwipeButton(title: "A", width: 60), SwipeButton(title: "B", width: 90)], cellWidth: 320)
    for side in [\SwipeCellState.leftSettings, \SwipeCellState.rightSettings] {
      state[keyPath: side].showAnimation.duration = 0.31
      state[keyPath: side].hideAnimation.duration = 0.32
      state[keyPath: side].stretchAnimation.duration = 0.33
    }
    return state
  }
}

func approx(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { Swift.abs(a - b) <= tolerance }
