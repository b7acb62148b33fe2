import Testing

@testable import RewindComponents

/// The delegate event sequences of spec 2.14.
@Suite("Carousel event orders")
struct CarouselEventOrderTests {
  /// Ticks at 60 Hz from `start` until nothing moves.
  func settle(_ harness: inout CarouselHarness, from start: Double) {
    var time = start
    var steps = 0
    while harness.state.needsTicks, steps < 600 {
      time += 1.0 / 60
      steps += 1
      harness.send(.tick(now: time))
    }
    #expect(!harness.state.needsTicks)
  }

  /// The events without `didScroll` and index changes, which repeat per frame.
  func milestones(_ events: [CarouselEvent]) -> [CarouselEvent] {
    events.filter {
      switch $0 {
      case .didScroll, .currentItemIndexDidChange: false
      default: $0.isDelegateEvent
      }
    }
  }

  @Test("Drag and fling: dragging, deceleration, then the realign animation")
  func dragAndFling() {
    var harness = CarouselHarness()
    harness.send(.tick(now: 0))
    harness.place(at: 2)
    harness.send(.touchDown)
    harness.send(.dragBegan(translation: 0))
    harness.send(.dragChanged(translation: -50, velocity: -1200))
    harness.send(.dragChanged(translation: -100, velocity: -1200))
    #expect(
      harness.delegateEvents == [.willBeginDragging, .didScroll, .didScroll, .currentItemIndexDidChange(3)])
    harness.send(.dragEnded(translation: -100, velocity: -1200))
    settle(&harness, from: 0)
    #expect(
      milestones(harness.events) == [
        .willBeginDragging, .didEndDragging(willDecelerate: true), .willBeginDecelerating,
        .didEndDecelerating,
        .willBeginScrollingAnimation, .didEndScrollingAnimation,
      ])
    let decelerating = harness.delegateEvents.split(separator: .willBeginDecelerating)[1]
    #expect(decelerating.first == .didScroll)
    #expect(harness.state.scrollOffset == 5 && harness.state.currentItemIndex == 5)
  }

  @Test("Slow drag and release: a settle animation")
  func slowDrag() {
    var harness = CarouselHarness()
    harness.send(.tick(now: 0))
    harness.place(at: 2)
    harness.send(.touchDown)
    harness.send(.dragBegan(translation: 0))
    harness.send(.dragChanged(translation: -60, velocity: -100))
    harness.send(.dragEnded(translation: -60, velocity: -100))
    settle(&harness, from: 0)
    #expect(
      milestones(harness.events) == [
        .willBeginDragging, .didEndDragging(willDecelerate: false), .willBeginScrollingAnimation,
        .didEndScrollingAnimation,
      ])
    #expect(harness.state.scrollOffset == 2)
  }

  @Test("Tap a non-current item: scroll, select, frames, end")
  func tapNonCurrent() {
    var harness = CarouselHarness()
    harness.send(.tick(now: 0))
    harness.place(at: 2)
    harness.send(.tapItem(4))
    settle(&harness, from: 0)
    let events = harness.delegateEvents
    #expect(Array(events.prefix(3)) == [.willBeginScrollingAnimation, .didSelectItem(4), .didScroll])
    #expect(events.last == .didEndScrollingAnimation)
    #expect(events.contains(.currentItemIndexDidChange(3)) && events.contains(.currentItemIndexDidChange(4)))
    #expect(harness.state.scrollOffset == 4)
  }

  @Test("Tap the current item: a zero-length scroll and select (#525)")
  func tapCurrent() {
    var harness = CarouselHarness()
    harness.send(.tick(now: 0))
    harness.place(at: 2)
    harness.send(.tapItem(2))
    settle(&harness, from: 0)
    #expect(
      harness.delegateEvents == [.willBeginScrollingAnimation, .didSelectItem(2), .didEndScrollingAnimation])
  }

  @Test("Reload: a settle animation even without movement, and the index change (#686)")
  func reload() {
    var harness = CarouselHarness(count: 0)
    harness.send(.tick(now: 0))
    harness.send(.reload(count: 10))
    settle(&harness, from: 0)
    #expect(
      harness.delegateEvents == [
        .currentItemIndexDidChange(0), .willBeginScrollingAnimation, .didEndScrollingAnimation,
      ]
        || harness.delegateEvents == [
          .willBeginScrollingAnimation, .currentItemIndexDidChange(0), .didEndScrollingAnimation,
        ])
    #expect(harness.state.loadedIndices == [0, 1, 2, 3])
  }

  @Test("A tap selects only when the filter allows it")
  func shouldSelect() {
    var harness = CarouselHarness()
    harness.reducer = CarouselReducer(shouldSelectItem: { $0 != 4 })
    harness.place(at: 2)
    harness.send(.tapItem(4))
    #expect(harness.delegateEvents.isEmpty)
    harness.send(.tapItem(3))
    #expect(harness.delegateEvents == [.willBeginScrollingAnimation, .didSelectItem(3)])
  }

  @Test("A tap at a point hits the frontmost item there")
  func tapAtPoint() {
    var harness = CarouselHarness()
    harness.place(at: 2)
    // Linear, w = 200: item 3 is centred at x = 160 + 200.
    harness.send(.tapAt(CarouselVector(x: 360, y: 240)))
    #expect(harness.delegateEvents == [.willBeginScrollingAnimation, .didSelectItem(3)])
  }
}
