import Foundation
import Testing

@testable import RewindComponents

/// Parity cases for the pure geometry and index math (spec 2.17).
@Suite("Carousel geometry parity")
struct CarouselGeometryParityTests {
  func centre(_ m: Matrix4x4) -> (Double, Double, Double) { (m.m41, m.m42, m.m43) }

  @Test("IC-1 linear visible items")
  func ic1() {
    #expect(CarouselHarness().state.numberOfVisibleItems == 4)
  }

  @Test("IC-2 linear visible items with w = 100, capped by n")
  func ic2() {
    #expect(CarouselHarness(itemWidth: 100).state.numberOfVisibleItems == 6)
    #expect(CarouselHarness(count: 4, itemWidth: 100).state.numberOfVisibleItems == 4)
  }

  @Test("IC-3 coverFlow visible items")
  func ic3() {
    #expect(CarouselHarness(type: .coverFlow).state.numberOfVisibleItems == 9)
  }

  @Test("IC-4 rotary count and visible items")
  func ic4() {
    let rotary = CarouselHarness(type: .rotary).state
    #expect(rotary.circularCount == 10)
    #expect(rotary.numberOfVisibleItems == 10)
    #expect(CarouselHarness(type: .invertedRotary).state.numberOfVisibleItems == 5)
  }

  @Test("IC-6 invertedRotary centre at offset 1")
  func ic6() {
    let (x, y, z) = centre(CarouselHarness(type: .invertedRotary).state.transform(forOffset: 1))
    #expect(close(x, 180.901699) && close(y, 0) && close(z, 58.778525))
  }

  @Test("IC-7 cylinder centre, rotation and m33 at offset 1")
  func ic7() {
    let m = CarouselHarness(type: .cylinder).state.transform(forOffset: 1)
    let (x, y, z) = centre(m)
    #expect(close(x, 180.907577) && close(y, 0) && close(z, -58.770435))
    #expect(close(atan2(m.m31, m.m11), 0.628319))
    #expect(close(m.m33, 0.809017))
  }

  @Test("IC-8 wheel radius, centre at offset 1, visible items")
  func ic8() {
    let state = CarouselHarness(type: .wheel).state
    let (x, y, z) = centre(state.transform(forOffset: 1))
    #expect(close(200 * 1 * 10 / (2 * Double.pi), 318.309886))
    #expect(close(x, 187.097857) && close(y, 60.791779) && close(z, 0.01))
    #expect(state.numberOfVisibleItems == 6)
  }

  @Test("IC-9 wheel centre at offset 2.5")
  func ic9() {
    let (x, y, z) = centre(CarouselHarness(type: .wheel).state.transform(forOffset: 2.5))
    #expect(close(x, 318.309886) && close(y, 318.309886) && close(z, 0.025))
  }

  @Test(
    "IC-10 coverFlow position, depth and tilt",
    arguments: [
      (0.5, 70.0, -50.0, -0.706858), (2, 190, -100, -1.413717), (-0.25, -35, -25, 0.353429),
    ])
  func ic10(offset: Double, x: Double, z: Double, rotation: Double) {
    let m = CarouselHarness(type: .coverFlow).state.transform(forOffset: offset)
    #expect(close(m.m41, x) && close(m.m43, z))
    #expect(close(atan2(m.m31, m.m11), rotation))
  }

  @Test("IC-10 coverFlow projected position at offset 0.5")
  func ic10Projection() {
    let state = CarouselHarness(type: .coverFlow).state
    let projected = state.transform(forOffset: 0.5).projectedOrigin
    #expect(close(projected?.x, 63.636364))
    #expect(close(state.anchor.x, 160) && close(state.anchor.y, 240))
  }

  @Test("IC-12 timeMachine centres and alpha")
  func ic12() {
    let state = CarouselHarness(type: .timeMachine).state
    let back = state.transform(forOffset: -2)
    #expect(close(back.m41, -120) && close(back.m42, 0) && close(back.m43, -400))
    #expect(state.alpha(forOffset: -2) == 1)
    let front = state.transform(forOffset: 0.25)
    #expect(close(front.m41, 15) && close(front.m43, 50))
    #expect(close(state.alpha(forOffset: 0.25), 0.75))
  }

  @Test("IC-13 invertedTimeMachine centre, alpha 0, not loaded")
  func ic13() {
    var harness = CarouselHarness(type: .invertedTimeMachine)
    let m = harness.state.transform(forOffset: -2)
    #expect(close(m.m41, -120) && close(m.m43, 400))
    #expect(harness.state.alpha(forOffset: -2) == 0)
    harness.place(at: 2)
    #expect(!harness.state.loadedIndices.contains(0))
    #expect(harness.state.loadedIndices.contains(2))
  }

  @Test("IC-14 fade options")
  func ic14() {
    let options = CarouselOptions(fadeMin: -1, fadeMax: 1, fadeRange: 1, fadeMinAlpha: 0.2)
    let state = CarouselHarness(options: options).state
    #expect(close(state.alpha(forOffset: 1.5), 0.6))
    #expect(close(state.alpha(forOffset: 3), 0.2))
  }

  @Test("IC-15 offsetForItem with and without wrap")
  func ic15() {
    var wrapped = CarouselHarness(options: CarouselOptions(wrap: true))
    wrapped.place(at: 9.2)
    #expect(close(wrapped.state.offset(forItem: 0), 0.8))
    #expect(close(wrapped.state.offset(forItem: 4), 4.8))
    #expect(close(wrapped.state.offset(forItem: 5), -4.2))
    var plain = CarouselHarness()
    plain.place(at: 9.2)
    #expect(close(plain.state.offset(forItem: 0), -9.2))
  }

  @Test("IC-16 clampedOffset with and without wrap")
  func ic16() {
    let wrapped = CarouselHarness(count: 5, options: CarouselOptions(wrap: true)).state
    #expect(wrapped.clampedOffset(-0.5) == 4.5)
    #expect(wrapped.clampedOffset(7.25) == 2.25)
    let plain = CarouselHarness(count: 5).state
    #expect(plain.clampedOffset(-0.5) == 0)
    #expect(plain.clampedOffset(7.25) == 4)
  }

  @Test("IC-17 currentItemIndex rounds half away from zero")
  func ic17() {
    var state = CarouselHarness(count: 5).state
    state.scrollOffset = 2.5
    #expect(state.currentItemIndex == 3)
    state.scrollOffset = -0.5
    #expect(state.currentItemIndex == 0)
    state.options.wrap = true
    #expect(state.currentItemIndex == 4)
  }

  @Test("IC-18 minScrollDistance when wrapping, ties go direct")
  func ic18() {
    let state = CarouselHarness(options: CarouselOptions(wrap: true)).state
    #expect(state.minScrollDistance(fromIndex: 1, toIndex: 9) == -2)
    #expect(state.minScrollDistance(fromIndex: 9, toIndex: 1) == 2)
    #expect(state.minScrollDistance(fromIndex: 0, toIndex: 5) == 5)
    #expect(state.minScrollDistance(from: 0, to: 5) == 5)
  }

  @Test("IC-33 visible window at both ends")
  func ic33() {
    var harness = CarouselHarness(itemWidth: 100)
    #expect(harness.state.numberOfVisibleItems == 6)
    harness.place(at: 0)
    #expect(harness.state.visibleWindow == Array(0...5))
    harness.place(at: 9)
    #expect(harness.state.visibleWindow == Array(4...9))
  }

  @Test("IC-35 placeholders P = 4, n = 3")
  func ic35() {
    let state = CarouselHarness(count: 3, placeholders: 4).state
    #expect([-2, -1, 3, 4].map { state.placeholderNumber(forIndex: $0) } == [0, 1, 2, 3])
    #expect(state.minimumWindowIndex == -2 && state.maximumWindowIndex == 4)
    #expect(state.placeholderNumber(forIndex: 1) == nil)
  }

  @Test("IC-36 (corrected) odd placeholder count maps every number once")
  func ic36() {
    let state = CarouselHarness(count: 3, placeholders: 3).state
    // Upstream maps index 3 to 1 again and never asks for 2; corrected here.
    #expect([-2, -1, 3].map { state.placeholderNumber(forIndex: $0) } == [0, 1, 2])
  }

  @Test("IC-43 rotary count truncates 5π")
  func ic43() {
    var state = CarouselHarness(type: .rotary, count: 40, itemWidth: 100).state
    state.bounds = CarouselSize(width: 500, height: 480)
    #expect(state.circularCount == 15)
    state.bounds = CarouselSize(width: 1024, height: 480)
    #expect(state.circularCount == 30)
  }
}
