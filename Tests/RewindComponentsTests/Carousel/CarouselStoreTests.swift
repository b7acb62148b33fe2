import Rewind
import RewindTestSupport
import RewindTesting
import Synchronization
import Testing

@testable import RewindComponents

/// The carousel inside a real store: actions become events, the motion timer ends motions, and replay
/// gives the same state.
@Suite("Carousel in a store")
struct CarouselStoreTests {
  @Test("Scrolling through a store, then replaying its actions")
  func storeAndReplay() {
    let store = Store(initialState: CarouselState(itemWidth: 200), reducer: CarouselReducer())
    let actions: [CarouselAction] = [
      .reload(count: 10, at: 0), .touchDown(at: 0.5), .dragBegan(translation: 0, at: 0.5),
      .dragChanged(translation: -150, velocity: -900, at: 0.55),
      .dragEnded(translation: -150, velocity: -900, at: 0.6), .tapItem(2, at: 1.5), .layout(at: 2),
    ]
    for action in actions { store.send(action) }
    #expect(store.state.currentItemIndex == 2)
    var replayed = CarouselState(itemWidth: 200)
    for action in actions { _ = CarouselReducer().reduce(into: &replayed, action: action) }
    #expect(replayed == store.state)
    store.cancelAllEffects()
  }

  @Test("A fling in a store: the timer ends it and its settle, caused by the release; no frames are logged")
  func flingThroughTheTimer() async throws {
    let clock = ManualClock()
    let store = Store(
      initialState: CarouselState(itemWidth: 200), reducer: CarouselReducer(),
      dependencies: { $0.clock = clock })
    // The display time and the clock agree here: both start at 0.
    store.send(.reload(count: 10, at: 0))
    #expect(await clock.waitForSleepers())
    await clock.advance(by: .milliseconds(400))
    #expect(await eventually { store.state.scrollAnimation == nil })
    await clock.advance(by: .milliseconds(600))
    store.send(.touchDown(at: 1))
    store.send(.dragBegan(translation: 0, at: 1))
    store.send(.dragChanged(translation: -100, velocity: -1200, at: 1.05))
    store.send(.dragEnded(translation: -100, velocity: -1200, at: 1.1))
    let fling = try #require(store.state.deceleration)
    let released = store.state
    #expect(await clock.waitForSleepers())
    // The timer sleeps from the release's display time to the fling's end; a hair more covers rounding.
    await clock.advance(by: .seconds(fling.duration) + .milliseconds(1))
    #expect(await eventually { store.state.deceleration == nil && store.state.scrollAnimation != nil })
    #expect(await clock.waitForSleepers())
    await clock.advance(by: .milliseconds(400))
    #expect(await eventually { store.state.scrollAnimation == nil })
    #expect(store.state.scrollOffset == released.scrollOffset(at: 10) && store.state.currentItemIndex == 3)
    #expect(store.runningEffectCount == 0)

    let events = try store.journal.events(in: 1...store.sequence)
    let finishes = events.filter { if case .animationFinished = $0.action { true } else { false } }
    // Three motion ends (the reload's settle, the fling, its settle); every other event is input.
    #expect(finishes.count == 3 && events.count == 8)
    let release = try #require(events.first { if case .dragEnded = $0.action { true } else { false } })
    #expect(release.metadata.source == .user)
    // The fling's end is caused by the release; the settle's end by the fling's end.
    #expect(finishes[1].metadata.source == .effect(cause: release.sequence))
    #expect(finishes[2].metadata.source == .effect(cause: finishes[1].sequence))
  }

  @Test("A touch ends the motion and stops its timer: nothing more is logged")
  func touchStopsTheTimer() async {
    let clock = ManualClock()
    let store = Store(
      initialState: CarouselState(itemWidth: 200), reducer: CarouselReducer(),
      dependencies: { $0.clock = clock })
    store.send(.scrollToItem(4, animated: true, at: 0))
    #expect(await clock.waitForSleepers())
    store.send(.touchDown(at: 0.1))
    #expect(store.state.scrollAnimation == nil)
    await clock.advance(by: .seconds(1))
    #expect(await eventually { store.runningEffectCount == 0 })
    #expect(store.sequence == 2)
  }

  @Test("Two carousels in one store keep their own timers")
  func twoCarousels() async throws {
    struct Pair: Equatable, Sendable {
      var first = CarouselState(numberOfItems: 10, itemWidth: 200, timerID: "first")
      var second = CarouselState(numberOfItems: 10, itemWidth: 200, timerID: "second")
    }
    enum PairAction: Equatable, Sendable {
      case first(CarouselAction)
      case second(CarouselAction)
    }
    let clock = ManualClock()
    let reducer = Reduce<Pair, PairAction> { state, action in
      switch action {
      case .first(let action):
        CarouselReducer().reduce(into: &state.first, action: action).map(PairAction.first)
      case .second(let action):
        CarouselReducer().reduce(into: &state.second, action: action).map(PairAction.second)
      }
    }
    let store = Store(initialState: Pair(), reducer: reducer, dependencies: { $0.clock = clock })
    store.send(.first(.scrollToItem(3, animated: true, at: 0)))
    store.send(.second(.scrollToItem(2, animated: true, at: 0)))
    #expect(await clock.waitForSleepers(2))
    await clock.advance(by: .milliseconds(400))
    #expect(
      await eventually {
        store.state.first.scrollAnimation == nil && store.state.second.scrollAnimation == nil
      })
    #expect(store.state.first.scrollOffset == 3 && store.state.second.scrollOffset == 2)
  }

  @Test("reloadItem swaps the view of a loaded index through the pool")
  func reloadItem() {
    var harness = CarouselHarness()
    harness.send(.reload(count: 10, at: 0))
    harness.clearEvents()
    harness.send(.reloadItem(1, at: 0))
    #expect(harness.events == [.unloadItem(index: 1), .loadItem(index: 1, placeholder: nil, reused: true)])
    #expect(harness.state.itemPoolSize == 0)
    harness.clearEvents()
    harness.send(.reloadItem(8, at: 0))
    #expect(harness.events.isEmpty)
  }
}

/// The example of Docs/Components.md (Carousel), kept compiling and running.
@Test("Docs/Components.md (Carousel) example")
func carouselDocsExample() {
  let reducer = CarouselReducer()
  let store = Store(
    initialState: CarouselState(
      itemWidth: 200, bounds: CarouselSize(width: 320, height: 480), type: .coverFlow),
    reducer: reducer)
  store.send(.reload(count: 10, at: 0))
  var loaded: [Int] = []
  for event in store.state.events {
    if case .loadItem(let index, _, _) = event { loaded.append(index) }
  }
  #expect(loaded == store.state.loadedIndices)
  store.send(.touchDown(at: 1))
  store.send(.dragBegan(translation: 0, at: 1))
  store.send(.dragChanged(translation: -120, velocity: -1500, at: 1.1))
  store.send(.dragEnded(translation: -120, velocity: -1500, at: 1.15))
  let now = 1.15 + 1.0 / 60
  let items = reducer.layout(of: store.state, at: now)
  #expect(items.count == store.state.numberOfVisibleItems)
  #expect(store.state.isAnimating(at: now))
  #expect(store.state.deceleration?.end == 4)
  let end = store.state.deceleration?.endTime ?? 0
  #expect(store.state.presentation(at: end).scrollAnimation?.duration == 0.01)
  store.cancelAllEffects()
}
