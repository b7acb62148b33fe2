import Foundation
import Testing

@testable import RewindComponents

/// Spec 2.10–2.11's frame-stepped motion, transcribed on its own: a scroll animation or a fling stepped on
/// each tick, and the settle a fling's end starts on that tick. The sampled model must show its numbers.
struct CarouselTickReference {
  enum Phase: Equatable {
    case idle
    case scroll(start: Double, end: Double, duration: Double, startTime: Double)
    case fling(start: Double, end: Double, velocity: Double, duration: Double, startTime: Double)
  }

  /// The index math (pure functions of the state, checked by their own parity cases).
  var geometry: CarouselState
  var phase: Phase
  /// The ticks at which a phase ended.
  var ends: [Double] = []

  var offset: Double { geometry.scrollOffset }

  init(_ state: CarouselState) {
    geometry = state
    if let animation = state.scrollAnimation {
      phase = .scroll(
        start: animation.start, end: animation.end, duration: animation.duration,
        startTime: animation.startTime)
    } else if let fling = state.deceleration {
      phase = .fling(
        start: fling.start, end: fling.end, velocity: fling.velocity, duration: fling.duration,
        startTime: fling.startTime)
    } else {
      phase = .idle
    }
  }

  static func ease(_ t: Double) -> Double { t < 0.5 ? 0.5 * pow(t * 2, 3) : 0.5 * pow(t * 2 - 2, 3) + 1 }

  /// didScroll's first step: wrap, or clamp into range (the bounce range with bounces).
  mutating func scrollPass(_ x: Double) {
    let properties = geometry.properties
    if geometry.isWrapping || !properties.bounces {
      geometry.scrollOffset = geometry.clampedOffset(x)
    } else {
      let upper = Double(max(geometry.numberOfItems - 1, 0)) + properties.bounceDistance
      geometry.scrollOffset = min(max(x, -properties.bounceDistance), upper)
    }
  }

  mutating func tick(now: Double) {
    switch phase {
    case .idle:
      return
    case .scroll(let start, let end, let duration, let startTime):
      let time = min(1, (now - startTime) / duration)
      scrollPass(start + (end - start) * Self.ease(time))
      if time >= 1 {
        phase = .idle
        ends.append(now)
      }
    case .fling(let start, _, let velocity, let duration, let startTime):
      let time = min(duration, now - startTime)
      let acceleration = -velocity / duration
      scrollPass(start + velocity * time + 0.5 * acceleration * pow(time, 2))
      guard abs(time - duration) < 1e-6 else { return }
      ends.append(now)
      phase = .idle
      let properties = geometry.properties
      let x = geometry.scrollOffset
      let outOfRange = abs(x - geometry.clampedOffset(x)) > 1e-6
      guard (properties.scrollToItemBoundary || outOfRange) && geometry.autoscroll == 0 else { return }
      let current = geometry.currentItemIndex
      var target = x + geometry.minScrollDistance(from: x, to: Double(current))
      if !geometry.isWrapping { target = geometry.clampedOffset(target) }
      let duration = abs(x - Double(current)) < 1e-6 ? 0.01 : 0.4
      phase = .scroll(start: x, end: target, duration: duration, startTime: now)
    }
  }
}

/// The sampled motion model: the spec's numbers at any frame times, and geometry that does not depend on
/// when frames or events happened.
@Suite("Carousel sampling")
struct CarouselSamplingTests {
  /// A release at time 0 from `offset` at `velocity` items/s with random switches.
  static func randomRelease(_ random: inout CarouselRandom) -> CarouselHarness {
    var properties = CarouselProperties()
    properties.isPagingEnabled = Int.random(in: 0..<4, using: &random) == 0
    properties.stopAtItemBoundary = Bool.random(using: &random)
    properties.scrollToItemBoundary = Int.random(in: 0..<4, using: &random) != 0
    properties.bounces = Bool.random(using: &random)
    properties.decelerationRate = [0.95, 0.9, 0.99].randomElement(using: &random) ?? 0.95
    let wrap = Int.random(in: 0..<3, using: &random) == 0
    var harness = CarouselHarness(
      type: wrap ? .rotary : .linear, count: Int.random(in: 1...20, using: &random), properties: properties)
    let n = Double(harness.state.numberOfItems)
    harness.place(at: Double.random(in: (wrap ? 0 : -0.8)...(wrap ? n - 0.01 : n - 0.2), using: &random))
    harness.send(.dragBegan(translation: 0, at: 0))
    harness.send(.dragEnded(translation: 0, velocity: Double.random(in: -4000...4000, using: &random), at: 0))
    return harness
  }

  @Test(
    "Flings and their settles, sampled at frame times, show the tick model's offsets",
    arguments: [(UInt64(1), 60.0), (2, 120.0), (3, 30.0), (0xF11E, 0)])
  func flingsMatchTheTickModel(seed: UInt64, rate: Double) {
    var random = CarouselRandom(seed: seed)
    for trial in 0..<300 {
      let harness = Self.randomRelease(&random)
      let released = harness.state
      guard released.deceleration != nil || released.scrollAnimation != nil else { continue }
      var reference = CarouselTickReference(released)
      var time = 0.0
      var frames = 0
      // A rate of 0 means irregular frames, 1–40 ms apart.
      while reference.phase != .idle, frames < 2_000 {
        time += rate > 0 ? 1 / rate : Double.random(in: 0.001...0.04, using: &random)
        frames += 1
        reference.tick(now: time)
        let sampled = released.scrollOffset(at: time)
        let context = "seed \(seed), trial \(trial), frame \(frames) at \(time)"
        if reference.ends.isEmpty {
          // Until the first motion ends the two are the same closed form: the same number.
          guard sampled == reference.offset else {
            Issue.record("\(context): sampled \(sampled), ticked \(reference.offset)")
            return
          }
        }
      }
      let context = "seed \(seed), trial \(trial)"
      // Both rest on the same offset; the settle after a fling starts at the fling's exact end, which the
      // tick model only sees on the next frame: the sampled ends are at most one frame earlier.
      let final = released.scrollOffset(at: time + 1)
      #expect(close(final, reference.offset, tolerance: 1e-9), "\(context): \(final) vs \(reference.offset)")
      var settled = harness
      settled.settle()
      #expect(settled.state.scrollOffset == final, "\(context)")
      #expect(!released.isAnimating(at: time + 1), "\(context)")
      let frame = rate > 0 ? 1 / rate : 0.04
      let sampledEnds = [released.deceleration?.endTime, released.scrollAnimation?.endTime].compactMap { $0 }
      if let firstEnd = sampledEnds.first, let tickEnd = reference.ends.first {
        #expect(firstEnd <= tickEnd + 1e-6 && tickEnd - firstEnd < frame + 1e-9, "\(context)")
      }
    }
  }

  @Test("Programmatic scrolls sampled at any frame times show the tick model's offsets exactly")
  func scrollsMatchTheTickModel() {
    var random = CarouselRandom(seed: 7)
    for trial in 0..<300 {
      let wrap = Bool.random(using: &random)
      var harness = CarouselHarness(
        type: wrap ? .cylinder : .coverFlow, count: Int.random(in: 1...30, using: &random))
      harness.place(at: Double(Int.random(in: 0..<harness.state.numberOfItems, using: &random)))
      let start = Double.random(in: 0...100, using: &random)
      harness.send(.scrollToItem(Int.random(in: -40...40, using: &random), animated: true, at: start))
      let state = harness.state
      var reference = CarouselTickReference(state)
      var time = start
      while reference.phase != .idle {
        time += Double.random(in: 0.001...0.05, using: &random)
        reference.tick(now: time)
        let sampled = state.scrollOffset(at: time)
        guard sampled == reference.offset else {
          Issue.record("trial \(trial) at \(time): sampled \(sampled), ticked \(reference.offset)")
          return
        }
      }
    }
  }

  /// A frame's view after `action` at `middle`, then at `end`, against the frame at `end` directly.
  func expectSameFrame(
    _ state: CarouselState, through action: CarouselAction?, end: Double, context: String
  ) {
    var through = state
    if let action { _ = CarouselReducer().reduce(into: &through, action: action) }
    let direct = state.presentation(at: end)
    let stepped = through.presentation(at: end)
    let offsetsAgree = abs(direct.scrollOffset - stepped.scrollOffset) <= 1e-9
    let togglesAgree = abs(direct.toggle - stepped.toggle) <= 1e-6
    let motionsAgree =
      direct.scrollAnimation == stepped.scrollAnimation && direct.deceleration == stepped.deceleration
    if !(offsetsAgree && togglesAgree && motionsAgree) {
      Issue.record(
        """
        \(context): at \(end) directly \(direct.scrollOffset), toggle \(direct.toggle), \
        \(String(describing: direct.scrollAnimation)) \(String(describing: direct.deceleration)); \
        through \(String(describing: action)): \(stepped.scrollOffset), toggle \(stepped.toggle), \
        \(String(describing: stepped.scrollAnimation)) \(String(describing: stepped.deceleration))
        """)
    }
  }

  @Test(
    "A frame does not depend on when earlier frames or events were taken",
    arguments: [UInt64(11), 12, 13, 0xDA7E])
  func framesAreIndependentOfSampling(seed: UInt64) {
    var random = CarouselRandom(seed: seed)
    let reducer = CarouselReducer()
    var state = CarouselState(numberOfItems: 8, itemWidth: 200, type: .coverFlow2)
    _ = reducer.reduce(into: &state, action: .layout(at: 0))
    var time = 0.0
    for step in 0..<600 {
      let action = CarouselPropertyTests.randomAction(&random, state: state, time: &time)
      _ = reducer.reduce(into: &state, action: action)
      let middle = state.time + Double.random(in: 0...0.5, using: &random)
      let end = middle + Double.random(in: 0...0.5, using: &random)
      let context = "seed \(seed), step \(step) after \(action)"
      // A frame at `middle` first, or an event at `middle` that changes nothing, or the timer's end.
      expectSameFrame(state.presentation(at: middle), through: nil, end: end, context: context)
      expectSameFrame(state, through: .reloadItem(Int.min, at: middle), end: end, context: context)
      if let id = state.runningAnimationID, let due = state.runningAnimationEndTime, due <= end {
        expectSameFrame(state, through: .animationFinished(id: id), end: end, context: context)
      }
    }
  }

  @Test("Sampling is pure: the same state and time give the same frame, and the state is unchanged")
  func samplingIsPure() {
    var harness = CarouselHarness(type: .coverFlow2)
    harness.place(at: 2)
    harness.send(.dragBegan(translation: 0, at: 0))
    harness.send(.dragEnded(translation: -90, velocity: -2400, at: 0.05))
    let state = harness.state
    let first = state.layout(at: 0.2)
    #expect(state.layout(at: 0.2) == first)
    #expect(harness.state == state)
    #expect(harness.reducer.layout(of: state, at: 0.2) == first)
    // Before the state's time a frame shows the state's time.
    #expect(state.layout(at: -5) == state.layout(at: state.time))
  }

  @Test("Cover Flow 2's toggle follows the centre item at any sampled time while a fling runs")
  func toggleDuringFling() throws {
    var harness = CarouselHarness(type: .coverFlow2)
    harness.place(at: 2)
    harness.send(.dragBegan(translation: 0, at: 0))
    harness.send(.dragEnded(translation: 0, velocity: -1200, at: 0))
    let fling = try #require(harness.state.deceleration)
    for time in stride(from: 0.01, to: fling.duration, by: 0.01) {
      let frame = harness.state.presentation(at: time)
      let offset = frame.offset(forItem: frame.currentItemIndex)
      let clamped = max(-1, min(1, offset))
      let expected =
        offset > 0 ? (offset <= 0.5 ? -clamped : 1 - clamped) : (offset > -0.5 ? -clamped : -1 - clamped)
      #expect(frame.toggle == expected, "at \(time)")
    }
  }

  @Test("The toggle settle after a drag runs on without frames and ends at 0")
  func toggleSettleAfterDrag() {
    var harness = CarouselHarness(type: .coverFlow2)
    harness.place(at: 2)
    harness.send(.dragBegan(translation: 0, at: 0))
    // Past the half-item boundary: the current item changes at this event, so the toggle flips to −1.
    harness.send(.dragChanged(translation: -120, velocity: 0, at: 0.1))
    #expect(
      harness.state.currentItemIndex == 3 && harness.state.toggle == -1 && harness.state.toggleTime == 0.1)
    let state = harness.state
    // Dragging still: the toggle settles over 0.4 s (v = 0) from the change.
    #expect(close(state.toggle(at: 0.2), CarouselEasing.easeInOut(0.25) - 1, tolerance: 1e-12))
    #expect(state.isAnimating(at: 0.2))
    #expect(state.toggle(at: 0.5) == 0 && !state.isAnimating(at: 0.5))
  }

  @Test("A settle after a drag holds Cover Flow 2's toggle at ±1 from the exact crossing, then settles it")
  func toggleThroughASettle() throws {
    var properties = CarouselProperties()
    // A rate of 0 makes the fling distance v/60: 3 items/s does not fling but moves on to the next item.
    properties.decelerationRate = 0
    var harness = CarouselHarness(type: .coverFlow2, properties: properties)
    harness.place(at: 2)
    harness.send(.dragBegan(translation: 0, at: 0))
    // Cover Flow drags twice as far: −40 pt moves 0.4 items.
    harness.send(.dragEnded(translation: -40, velocity: -600, at: 0.1))
    let settle = try #require(harness.state.scrollAnimation)
    #expect(close(settle.start, 2.4) && settle.end == 3 && harness.state.didDrag)
    // 2.4 + 0.6·ease(p) passes 2.5 at ease(p) = 1/6.
    let crossing = 0.1 + CarouselEasing.inverseEaseInOut(1.0 / 6) * 0.4
    let state = harness.state
    #expect(state.toggle(at: crossing + 0.01) == -1 && state.toggle(at: 0.49) == -1)
    let duration = state.toggleDuration
    #expect(close(duration, 0.2 + 0.2 / 3, tolerance: 1e-12))
    for time in [0.51, 0.52, 0.55] {
      let expected = CarouselEasing.easeInOut(min(1, (time - crossing) / duration)) - 1
      #expect(close(state.toggle(at: time), expected, tolerance: 1e-9), "at \(time)")
    }
    harness.run(until: 0.5)
    #expect(close(harness.state.toggleTime, crossing, tolerance: 1e-12))
  }

  @Test("Autoscroll is a function of the time since it started")
  func autoscroll() {
    var harness = CarouselHarness(type: .rotary)
    harness.place(at: 2)
    harness.send(.setAutoscroll(0.5, at: 10))
    let state = harness.state
    #expect(close(state.scrollOffset(at: 11), 1.5))
    #expect(close(state.scrollOffset(at: 14), 0))
    // Wrapping: on past item 0 to the last items.
    #expect(close(state.scrollOffset(at: 15), 9.5))
    #expect(state.isAnimating(at: 100))
    // Without wrapping it rests at 0, and a view may stop drawing.
    var plain = CarouselHarness()
    plain.place(at: 2)
    plain.send(.setAutoscroll(1, at: 0))
    #expect(plain.state.scrollOffset(at: 5) == 0)
    #expect(plain.state.isAnimating(at: 1) && !plain.state.isAnimating(at: 5))
    // A drag pauses it where it was; release resumes it from there.
    plain.send(.dragBegan(translation: 0, at: 0.5))
    #expect(plain.state.scrollOffset == 1.5 && plain.state.scrollOffset(at: 3) == 1.5)
    plain.send(.dragEnded(translation: 0, velocity: 0, at: 1))
    #expect(close(plain.state.scrollOffset(at: 1.25), 1.25))
  }
}
