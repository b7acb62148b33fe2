import Rewind
import Testing

@testable import RewindComponents

/// The carousel inside a real store: actions become events, and replay gives the same state.
@Suite("Carousel in a store")
struct CarouselStoreTests {
  @Test("Scrolling through a store, then replaying its actions")
  func storeAndReplay() {
    let store = Store(initialState: CarouselState(itemWidth: 200), reducer: CarouselReducer())
    let actions: [CarouselAction] = [
      .tick(now: 0), .reload(count: 10), .tick(now: 0.4), .touchDown, .dragBegan(translation: 0),
      .dragChanged(translation: -150, velocity: -900), .dragEnded(translation: -150, velocity: -900),
      .tick(now: 0.5), .tick(now: 1.0), .tick(now: 1.5), .tapItem(2), .tick(now: 2),
    ]
    for action in actions { store.send(action) }
    #expect(store.state.currentItemIndex == 2)
    var replayed = CarouselState(itemWidth: 200)
    for action in actions { _ = CarouselReducer().reduce(into: &replayed, action: action) }
    #expect(replayed == store.state)
  }

  @Test("reloadItem swaps the view of a loaded index through the pool")
  func reloadItem() {
    var harness = CarouselHarness()
    harness.send(.reload(count: 10))
    harness.clearEvents()
    harness.send(.reloadItem(1))
    #expect(harness.events == [.unloadItem(index: 1), .loadItem(index: 1, placeholder: nil, reused: true)])
    #expect(harness.state.itemPoolSize == 0)
    harness.clearEvents()
    harness.send(.reloadItem(8))
    #expect(harness.events.isEmpty)
  }
}

/// The example of Docs/Carousel.md, kept compiling and running.
@Test("Docs/Carousel.md example")
func carouselDocsExample() {
  let reducer = CarouselReducer()
  let store = Store(
    initialState: CarouselState(
      itemWidth: 200, bounds: CarouselSize(width: 320, height: 480), type: .coverFlow),
    reducer: reducer)
  store.send(.tick(now: 0))
  store.send(.reload(count: 10))
  var loaded: [Int] = []
  for event in store.state.events {
    if case .loadItem(let index, _, _) = event { loaded.append(index) }
  }
  #expect(loaded == store.state.loadedIndices)
  store.send(.touchDown)
  store.send(.dragBegan(translation: 0))
  store.send(.dragChanged(translation: -120, velocity: -1500))
  store.send(.dragEnded(translation: -120, velocity: -1500))
  store.send(.tick(now: 1.0 / 60))
  let items = reducer.layout(of: store.state)
  #expect(items.count == store.state.numberOfVisibleItems)
  #expect(store.state.deceleration != nil)
}
