import Testing

@testable import RewindComponents

/// Parity cases for scrolling, dragging, flinging and the item set (spec 2.17). Motion is checked by
/// sampling the state at the times the spec's ticks name: no frame is ever sent.
@Suite("Carousel physics parity")
struct CarouselPhysicsParityTests {
  /// A carousel placed at `offset` that releases a drag with `velocity` items/s at time 0.
  func release(
    at offset: Double, itemsPerSecond velocity: Double, properties: CarouselProperties = CarouselProperties()
  ) -> CarouselHarness {
    var harness = CarouselHarness(properties: properties)
    harness.place(at: offset)
    harness.send(.dragBegan(translation: 0, at: 0))
    // startVelocity = −V·factor·scrollSpeed/w with w = 200 and factor 1 in range.
    harness.send(.dragEnded(translation: 0, velocity: -velocity * 200, at: 0))
    return harness
  }

  @Test("IC-19 scrollByNumberOfItems from 2.3", arguments: [(1, 0.7), (-1, -0.3), (0, -0.3)])
  func ic19(items: Int, delta: Double) throws {
    var harness = CarouselHarness()
    harness.place(at: 2.3)
    harness.send(.scrollByItems(items, animated: true, at: 0))
    let animation = try #require(harness.state.scrollAnimation)
    #expect(close(animation.end - animation.start, delta))
  }

  @Test("IC-20 animated scroll eases from 2 to 3 in 0.4 s, sampled")
  func ic20() {
    var harness = CarouselHarness()
    harness.place(at: 2)
    harness.send(.scrollToItem(3, animated: true, at: 10))
    #expect(harness.delegateEvents == [.willBeginScrollingAnimation])
    #expect(harness.state.runningAnimationEndTime == 10.4)
    let state = harness.state
    for (time, expected) in [(10.1, 2.0625), (10.2, 2.5), (10.3, 2.9375)] {
      #expect(close(state.scrollOffset(at: time), expected))
      #expect(state.isAnimating(at: time))
    }
    #expect(state.scrollOffset(at: 10.4) == 3 && !state.isAnimating(at: 10.4))
    // Sampling sent nothing; the end is one event, from the timer.
    #expect(harness.state == state)
    harness.clearEvents()
    harness.run(until: 10.4)
    #expect(harness.state.scrollOffset == 3 && harness.state.time == 10.4)
    #expect(harness.delegateEvents == [.didScroll, .currentItemIndexDidChange(3), .didEndScrollingAnimation])
    #expect(harness.state.scrollAnimation == nil)
  }

  @Test(
    "IC-21 drag moves by translation over width, times the multiplier", arguments: [(1.0, 0.5), (2.0, 1.0)])
  func ic21(multiplier: Double, moved: Double) {
    var harness = CarouselHarness(options: CarouselOptions(offsetMultiplier: multiplier))
    harness.place(at: 2)
    harness.send(.dragBegan(translation: 0, at: 0))
    harness.send(.dragChanged(translation: -100, velocity: 0, at: 0.1))
    #expect(close(harness.state.scrollOffset, 2 + moved))
  }

  @Test("IC-22 drag velocity becomes items per second")
  func ic22() {
    var harness = CarouselHarness()
    harness.place(at: 2)
    harness.send(.dragBegan(translation: 0, at: 0))
    harness.send(.dragChanged(translation: 0, velocity: -600, at: 0.1))
    #expect(harness.state.startVelocity == 3)
  }

  @Test("IC-23 rubber band past the start")
  func ic23() {
    var harness = CarouselHarness()
    harness.place(at: -0.4)
    harness.send(.dragBegan(translation: 0, at: 0))
    harness.send(.dragChanged(translation: 100, velocity: 0, at: 0.1))
    #expect(close(harness.state.scrollOffset, -0.7))
  }

  @Test("Deceleration distance is evaluated in upstream order (section 5)")
  func decelerationDistanceOrder() {
    #expect(CarouselHarness().state.decelerationDistance(velocity: 6) == 1.9999999999999984)
  }

  @Test("IC-25 fling with paging stops at the next boundary, sampled")
  func ic25() throws {
    var properties = CarouselProperties()
    properties.isPagingEnabled = true
    var harness = release(at: 3.2, itemsPerSecond: 6, properties: properties)
    let fling = try #require(harness.state.deceleration)
    #expect(fling.end == 4)
    #expect(close(fling.end - fling.start, 0.8))
    #expect(close(fling.duration, 0.266667))
    #expect(close(harness.state.scrollOffset(at: 0.25), 3.996875))
    #expect(harness.state.runningAnimationEndTime == fling.duration)
    // At its end the fling realigns: already on 4, so upstream's 0.01 s legacy settle.
    harness.clearEvents()
    harness.run(until: fling.duration)
    #expect(close(harness.state.scrollOffset, 4))
    #expect(harness.delegateEvents.suffix(2) == [.didEndDecelerating, .willBeginScrollingAnimation])
    #expect(harness.state.scrollAnimation?.duration == 0.01)
  }

  @Test("IC-26 fling without stopAtItemBoundary, then a realign, sampled")
  func ic26() throws {
    var properties = CarouselProperties()
    properties.stopAtItemBoundary = false
    var harness = release(at: 3.2, itemsPerSecond: 6, properties: properties)
    let fling = try #require(harness.state.deceleration)
    #expect(close(fling.end, 5.2))
    #expect(close(fling.duration, 0.666667))
    let released = harness.state
    #expect(close(released.scrollOffset(at: 0.25), 4.41875))
    #expect(close(released.scrollOffset(at: fling.duration), 5.2))
    // A frame sampled past the fling's end already shows the realign that follows it.
    #expect(close(released.scrollOffset(at: fling.duration + 0.2), 5.1))
    #expect(close(released.scrollOffset(at: fling.duration + 0.4), 5))
    harness.clearEvents()
    harness.run(until: fling.duration)
    #expect(close(harness.state.scrollOffset, 5.2))
    #expect(harness.delegateEvents.suffix(2) == [.didEndDecelerating, .willBeginScrollingAnimation])
    let realign = try #require(harness.state.scrollAnimation)
    #expect(realign.duration == 0.4 && close(realign.end, 5) && realign.startTime == fling.duration)
    harness.run(until: fling.duration + 0.4)
    #expect(close(harness.state.scrollOffset, 5))
    #expect(harness.delegateEvents.last == .didEndScrollingAnimation)
  }

  @Test(
    "IC-28 fling past the start, with and without bounces",
    arguments: [
      (true, -1.0, -1.3, 0.577778), (false, 0.0, -0.3, 0.133333),
    ])
  func ic28(bounces: Bool, end: Double, travel: Double, duration: Double) throws {
    var properties = CarouselProperties()
    properties.bounces = bounces
    let harness = release(at: 0.3, itemsPerSecond: -4.5, properties: properties)
    let fling = try #require(harness.state.deceleration)
    #expect(
      close(fling.end, end) && close(fling.end - fling.start, travel) && close(fling.duration, duration))
  }

  @Test("IC-29 release at 2 items/s does not fling")
  func ic29() throws {
    var harness = CarouselHarness()
    harness.place(at: 3.3)
    harness.send(.dragBegan(translation: 0, at: 0))
    harness.send(.dragEnded(translation: 0, velocity: -400, at: 0))
    #expect(harness.state.startVelocity == 2)
    #expect(
      harness.delegateEvents == [
        .willBeginDragging, .didEndDragging(willDecelerate: false), .willBeginScrollingAnimation,
      ])
    let settle = try #require(harness.state.scrollAnimation)
    #expect(close(settle.end, 3) && settle.duration == 0.4)
  }

  @Test("IC-30 paging release exactly on a boundary gives the legacy 0.01 s scroll")
  func ic30() throws {
    var properties = CarouselProperties()
    properties.isPagingEnabled = true
    let harness = release(at: 4, itemsPerSecond: 2.5, properties: properties)
    #expect(harness.state.deceleration == nil)
    #expect(
      harness.delegateEvents == [
        .willBeginDragging, .didEndDragging(willDecelerate: false), .willBeginScrollingAnimation,
      ])
    let settle = try #require(harness.state.scrollAnimation)
    #expect(settle.duration == 0.01 && settle.end == 4)
  }

  @Test("IC-31 ease-in-out", arguments: [(0.1, 0.004), (0.25, 0.0625), (0.5, 0.5), (0.75, 0.9375)])
  func ic31(time: Double, value: Double) {
    #expect(close(CarouselEasing.easeInOut(time), value, tolerance: 1e-12))
  }

  @Test("IC-32 toggle duration", arguments: [(0.0, 0.4), (0.5, 0.4), (2, 0.3), (5, 0.24)])
  func ic32(velocity: Double, duration: Double) {
    var state = CarouselHarness().state
    state.startVelocity = velocity
    #expect(close(state.toggleDuration, duration, tolerance: 1e-12))
  }

  @Test("IC-37 reload with no items, then layout")
  func ic37() {
    var harness = CarouselHarness()
    harness.send(.reload(count: 0, at: 0))
    harness.send(.layout(at: 0))
    #expect(harness.state.scrollOffset == -1)
    #expect(harness.state.currentItemIndex == -1)
  }

  @Test("IC-38 currentItemIndex = 10 with 5 items")
  func ic38() {
    var harness = CarouselHarness(count: 5)
    harness.send(.setCurrentItemIndex(10, at: 0))
    #expect(harness.state.scrollOffset == 5)
    #expect(harness.state.currentItemIndex == 4)
  }

  @Test("IC-39 remove keeps the index centred, evaluated with the new count")
  func ic39() {
    var last = CarouselHarness(count: 5)
    last.place(at: 4)
    last.send(.removeItem(4, at: 0))
    #expect(last.state.scrollOffset == 3)
    #expect(last.delegateEvents.contains(.currentItemIndexDidChange(3)))
    var middle = CarouselHarness(count: 5)
    middle.place(at: 2)
    middle.send(.removeItem(2, at: 0))
    #expect(middle.state.scrollOffset == 2)
    #expect(
      !middle.delegateEvents.contains { if case .currentItemIndexDidChange = $0 { true } else { false } })
  }

  @Test("IC-41 tap a non-current item")
  func ic41() {
    var harness = CarouselHarness()
    harness.place(at: 2)
    harness.send(.tapItem(4, at: 0))
    #expect(harness.delegateEvents == [.willBeginScrollingAnimation, .didSelectItem(4)])
  }

  @Test("IC-42 layout pass when already aligned still animates 0.4 s")
  func ic42() {
    var harness = CarouselHarness()
    harness.place(at: 3)
    harness.send(.layout(at: 0))
    #expect(harness.delegateEvents == [.willBeginScrollingAnimation])
    #expect(harness.state.isAnimating(at: 0.2))
    harness.run(until: 0.39)
    #expect(harness.state.scrollAnimation != nil)
    harness.run(until: 0.4)
    #expect(harness.delegateEvents == [.willBeginScrollingAnimation, .didEndScrollingAnimation])
  }
}
