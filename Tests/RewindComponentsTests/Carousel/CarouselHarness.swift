import Rewind
import Testing

@testable import RewindComponents

/// Drives a carousel through its reducer and keeps every event in order.
struct CarouselHarness {
  var state: CarouselState
  var reducer = CarouselReducer()
  /// Every event of every action so far.
  var events: [CarouselEvent] = []
  /// How many actions returned a diagnostic.
  var diagnosticCount = 0

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
    if !effect.isNone { diagnosticCount += 1 }
    events += state.events
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
