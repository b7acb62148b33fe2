import Foundation
import Testing

@testable import RewindComponents

/// Bad input has a defined outcome and never traps.
@Suite("Carousel bad input")
struct CarouselBadInputTests {
  @Test("Non-positive or non-finite item widths are ignored", arguments: [0.0, -5, .nan, .infinity])
  func itemWidth(width: Double) {
    var harness = CarouselHarness()
    harness.send(.setItemWidth(width, at: 0))
    #expect(harness.state.itemWidth == 200)
    #expect(harness.events.isEmpty)
  }

  @Test("A carousel created with a zero item width has no layout and refuses drags")
  func zeroWidthState() {
    var harness = CarouselHarness(itemWidth: 0)
    harness.send(.reload(count: 10, at: 0))
    #expect(harness.state.numberOfVisibleItems == 0)
    #expect(harness.reducer.layout(of: harness.state).isEmpty)
    harness.send(.dragBegan(translation: 0, at: 0))
    #expect(!harness.state.isDragging)
    harness.send(.setItemWidth(100, at: 0))
    #expect(harness.state.loadedIndices == Array(0...5))
  }

  @Test("Negative or non-finite bounds are ignored; zero bounds are valid")
  func bounds() {
    var harness = CarouselHarness()
    harness.send(.setBounds(CarouselSize(width: -1, height: 10), at: 0))
    harness.send(.setBounds(CarouselSize(width: .nan, height: 10), at: 0))
    #expect(harness.state.bounds == CarouselSize(width: 320, height: 480))
    harness.send(.setBounds(CarouselSize(width: 0, height: 0), at: 0))
    #expect(harness.state.numberOfVisibleItems == 2)
  }

  @Test(
    "Infinite or NaN velocities count as zero; NaN translations do not move",
    arguments: [
      Double.nan, .infinity, -.infinity,
    ])
  func velocities(value: Double) {
    var harness = CarouselHarness()
    harness.place(at: 2)
    harness.send(.dragBegan(translation: 0, at: 0))
    harness.send(.dragChanged(translation: value, velocity: value, at: 0.1))
    #expect(harness.state.scrollOffset == 2)
    #expect(harness.state.startVelocity == 0)
    harness.send(.dragEnded(translation: -20, velocity: value, at: 0.2))
    #expect(harness.state.deceleration == nil)
    #expect(harness.state.scrollOffset.isFinite)
  }

  @Test("Out-of-range indices clamp, or wrap, without trapping", arguments: [Int.min, -100, 100, Int.max])
  func indices(index: Int) {
    for wrap in [false, true] {
      var harness = CarouselHarness(options: CarouselOptions(wrap: wrap))
      harness.send(.scrollToItem(index, animated: true, at: 0))
      harness.send(.reloadItem(index, at: 0.2))
      harness.run(until: 0.4)
      harness.send(.scrollByItems(index, animated: false, at: 0.4))
      harness.send(.scrollByItems(index, animated: true, at: 0.4))
      harness.send(.reloadItem(index, at: 1))
      harness.send(.setCurrentItemIndex(index, at: 1))
      harness.send(.tapItem(index, at: 1))
      harness.send(.insertItem(index, at: 1))
      harness.send(.removeItem(index, at: 1))
      let state = harness.state
      #expect((0..<state.numberOfItems).contains(state.currentItemIndex))
      #expect(state.scrollOffset.isFinite)
      if wrap { #expect(state.scrollOffset >= 0 && state.scrollOffset < Double(state.numberOfItems)) }
    }
  }

  @Test("Removing from an empty carousel is ignored with a diagnostic")
  func removeFromEmpty() {
    var harness = CarouselHarness(count: 0)
    harness.send(.removeItem(0, at: 0))
    #expect(harness.diagnosticCount == 1)
    #expect(harness.state.numberOfItems == 0)
  }

  @Test("Huge counts are clamped to 2^40 and never overflow")
  func hugeCounts() {
    for type in CarouselType.allCases {
      var harness = CarouselHarness(type: type)
      harness.send(.reload(count: Int.max, placeholders: Int.max, at: 0))
      #expect(harness.state.numberOfItems == 1 << 40)
      harness.send(.scrollToItem(Int.max, animated: false, at: 0))
      harness.send(.insertItem(Int.max, at: 0))
      harness.send(.removeItem(Int.min, at: 0))
      #expect(harness.state.currentItemIndex >= 0)
      #expect(harness.reducer.layout(of: harness.state).count == harness.state.loadedIndices.count)
    }
  }

  @Test("Negative counts reload as empty")
  func negativeCounts() {
    var harness = CarouselHarness()
    harness.send(.reload(count: -3, placeholders: -2, at: 0))
    #expect(harness.state.numberOfItems == 0 && harness.state.numberOfPlaceholders == 0)
    #expect(harness.state.currentItemIndex == -1)
  }

  @Test("Count changes during a scroll animation: it runs on, clamped into the new range, and ends once")
  func countChangeDuringAnimation() {
    var harness = CarouselHarness()
    harness.place(at: 0)
    harness.send(.scrollToItem(9, animated: true, at: 0))
    for _ in 0..<7 { harness.send(.removeItem(9, at: 0.1)) }
    #expect(harness.state.numberOfItems == 3)
    // Sampled frames clamp into the new range, as the scroll pass does.
    #expect(harness.state.scrollOffset(at: 0.3) <= 3)
    harness.send(.reloadItem(0, at: 0.3))
    #expect(harness.state.currentItemIndex >= 0 && harness.state.currentItemIndex < 3)
    harness.run(until: 0.4)
    harness.send(.layout(at: 0.4))
    harness.run(until: 0.8)
    #expect(harness.state.scrollOffset == 2)
    let ends = harness.delegateEvents.filter { $0 == .didEndScrollingAnimation }.count
    let begins = harness.delegateEvents.filter { $0 == .willBeginScrollingAnimation }.count
    #expect(begins == ends)
  }

  @Test("NaN times count as the latest time; time never moves backwards")
  func times() {
    var harness = CarouselHarness()
    harness.place(at: 2)
    harness.send(.reloadItem(0, at: 5))
    harness.send(.scrollToItem(4, animated: true, at: .nan))
    #expect(harness.state.time == 5 && harness.state.scrollAnimation?.startTime == 5)
    harness.send(.touchDown(at: 1))
    #expect(harness.state.time == 5 && harness.state.scrollOffset == 2)
    // A frame before the state's time, or at NaN, shows the state's time.
    #expect(harness.state.scrollOffset(at: .nan) == 2 && harness.state.scrollOffset(at: -1) == 2)
    #expect(harness.state.scrollOffset(at: .infinity) == 2)
  }

  @Test("A finish for a motion that is not running is ignored, and so is one while a drag pauses it")
  func strayFinishes() {
    var harness = CarouselHarness()
    harness.place(at: 2)
    harness.send(.animationFinished(id: 7))
    #expect(harness.events.isEmpty && harness.state.time == 0)
    harness.send(.dragBegan(translation: 0, at: 0))
    harness.send(.scrollToItem(5, animated: true, at: 0.1))
    let paused = harness.state
    #expect(paused.runningAnimationID != nil && paused.runningAnimationEndTime == nil)
    #expect(paused.scrollOffset(at: 3) == 2)
    harness.send(.animationFinished(id: paused.runningAnimationID ?? 0))
    var unchanged = paused
    unchanged.events = []
    #expect(harness.state == unchanged)
    // The release ends the paused scroll: the release decides what comes next.
    harness.clearEvents()
    harness.send(.dragEnded(translation: 0, velocity: 0, at: 0.2))
    #expect(
      harness.delegateEvents == [
        .didEndScrollingAnimation, .didEndDragging(willDecelerate: false), .willBeginScrollingAnimation,
      ])
  }

  @Test("A deceleration rate of 1 flings to the end, or not at all when wrapping")
  func decelerationRateOne() {
    var properties = CarouselProperties()
    properties.decelerationRate = 1
    var plain = CarouselHarness(properties: properties)
    plain.place(at: 2)
    plain.send(.dragBegan(translation: 0, at: 0))
    plain.send(.dragEnded(translation: 0, velocity: -1200, at: 0))
    #expect(plain.state.deceleration?.end == 10)
    var wrapped = CarouselHarness(options: CarouselOptions(wrap: true), properties: properties)
    wrapped.place(at: 2)
    wrapped.send(.dragBegan(translation: 0, at: 0))
    wrapped.send(.dragEnded(translation: 0, velocity: -1200, at: 0))
    #expect(wrapped.state.deceleration == nil)
    #expect(wrapped.state.scrollAnimation != nil)
  }

  @Test("Degenerate options stay finite or are clamped", arguments: CarouselType.allCases)
  func degenerateOptions(type: CarouselType) {
    var harness = CarouselHarness(type: type)
    harness.send(.setOptions(CarouselOptions(visibleItems: .nan, count: 0, fadeRange: 0), at: 0))
    #expect(harness.state.circularCount >= 1)
    #expect(harness.state.numberOfVisibleItems >= 0)
    for item in harness.reducer.layout(of: harness.state) {
      #expect(item.alpha.isFinite)
    }
  }

  @Test("Non-finite offsets are ignored")
  func offsets() {
    var harness = CarouselHarness()
    harness.place(at: 3)
    harness.send(.setScrollOffset(.nan, at: 0))
    harness.send(.scrollToOffset(.infinity, animated: true, at: 0))
    #expect(harness.state.scrollOffset == 3)
    #expect(harness.events.isEmpty)
  }
}
