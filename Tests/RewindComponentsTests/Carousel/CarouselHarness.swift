import Testing

@testable import Rewind
@testable import RewindComponents

/// Drives a carousel through its reducer and keeps every event in order.
///
/// The reducer's timer effect is not run here: ``run(until:)`` plays its part, sending
/// `.animationFinished(id:)` when a motion's end time passes, as the timer would. Tests with a store and a
/// manual clock run the real timer.
struct CarouselHarness {
  var state: CarouselState
  var reducer = CarouselReducer()
  /// Every event of every action so far.
  var events: [CarouselEvent] = []
  /// How many actions returned a diagnostic.
  var diagnosticCount = 0
  /// How many actions scheduled a timer (a `.run` effect).
  var timerCount = 0

  /// The spec's fixture (2.17): bounds 320×480, item width 200, 10 items, no placeholders, defaults.
  init(
    type: CarouselType = .linear, count: Int = 10, placeholders: Int = 0, itemWidth: Double = 200,
    options: CarouselOptions = CarouselOptions(), properties: CarouselProperties = CarouselProperties()
  ) {
    state = CarouselState(
      numberOfItems: count, numberOfPlaceholders: placeholders, itemWidth: itemWidth,
      bounds: CarouselSize(width: 320, height: 480), type: type, options: options, properties: properties)
  }

  mutating func send(_ action: CarouselAction) {
    let effect = reducer.reduce(into: &state, action: action)
    for item in effect.items {
      switch item {
      case .diagnostic: diagnosticCount += 1
      case .run: timerCount += 1
      case .send, .cancel, .endLifetimes: break
      }
    }
    events += state.events
  }

  /// Plays the timer up to display time `time`: every motion whose end passes by then is finished, in
  /// order, with `.animationFinished(id:)`.
  mutating func run(until time: Double) {
    for _ in 0..<16 {
      guard let id = state.runningAnimationID, let end = state.runningAnimationEndTime, end <= time else {
        return
      }
      send(.animationFinished(id: id))
    }
    Issue.record("more than 16 motions ended by \(time)")
  }

  /// Plays the timer until nothing runs; returns the time the last motion ended.
  @discardableResult
  mutating func settle() -> Double {
    for _ in 0..<16 {
      guard let id = state.runningAnimationID, state.runningAnimationEndTime != nil else { return state.time }
      send(.animationFinished(id: id))
    }
    Issue.record("more than 16 motions in a row")
    return state.time
  }

  /// Places the carousel at `offset` without events, as if it had settled there.
  mutating func place(at offset: Double) {
    state.scrollOffset = offset
    state.previousScrollOffset = offset
    state.previousItemIndex = state.currentItemIndex
    state.updateLoadedItems()
    state.events = []
  }

  /// The delegate events so far, without load, unload, insert and remove notices.
  var delegateEvents: [CarouselEvent] { events.filter(\.isDelegateEvent) }

  mutating func clearEvents() { events = [] }
}

extension CarouselEvent {
  var isDelegateEvent: Bool {
    switch self {
    case .loadItem, .unloadItem, .itemInserted, .itemRemoved: false
    default: true
    }
  }
}

func close(_ a: Double, _ b: Double, tolerance: Double = 1e-6) -> Bool { abs(a - b) <= tolerance }

func close(_ a: Double?, _ b: Double, tolerance: Double = 1e-6) -> Bool {
  guard let a else { return false }
  return abs(a - b) <= tolerance
}
