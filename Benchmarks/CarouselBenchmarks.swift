import Foundation
import RewindComponents

/// `components/carousel-frame-<type>-n=<N>`: what a view pays per display frame, in µs: the layout of the
/// visible items (offset, transforms, projection, alpha, depth order) sampled at the frame's time from a
/// state holding a running 0.4 s scroll, for every type. Nothing is sent per frame.
///
/// Fixture: N items (100, and 10,000 for an app-sized list) of width 100 in 1024×768, wrapping as the
/// type defaults, scrolling from item 10 to 40; 2,000 frames spread over the scroll.
///
/// `components/carousel-fling-frame-n=10000`: the same per frame of a whole gesture: a Cover Flow fling
/// and the settle after it, sampled at 60 Hz until the carousel rests.
///
/// `REWIND_BENCH_CAROUSEL_ONLY=<type>:<N>` runs only that frame benchmark, once: for
/// `valgrind --tool=callgrind --toggle-collect='*sampleCarouselFrames*'`, whose instruction count over
/// 2 × 2,000 frames (a warm-up and the run) is exactly repeatable.
let carouselBenchmarks: @Sendable (Reporter) throws -> Void = { reporter in
  let only = ProcessInfo.processInfo.environment["REWIND_BENCH_CAROUSEL_ONLY"]
  let frames = 2_000
  for count in [100, 10_000] {
    for type in CarouselType.allCases {
      if let only, only != "\(type.slug):\(count)" { continue }
      let reducer = CarouselReducer(customTransform: { offset, base in
        base.rotated(by: offset * 0.3, x: 0, y: 1, z: 0).translated(x: 0, y: 0, z: 150)
      })
      var start = CarouselState(
        numberOfItems: count, itemWidth: 100, bounds: CarouselSize(width: 1024, height: 768), type: type)
      _ = reducer.reduce(into: &start, action: .setCurrentItemIndex(10, at: 0))
      _ = reducer.reduce(into: &start, action: .scrollToItem(40, animated: true, at: 0))
      // Frames spread over the 0.4 s scroll, so every layout sees a new offset.
      let times = (0..<frames).map { 0.39 * Double($0) / Double(frames) }
      let seconds = medianSeconds(repetitions: only == nil ? 15 : 1) {
        blackHole(sampleCarouselFrames(start, reducer: reducer, at: times))
      }
      reporter.report(
        Measurement(
          name: "components/carousel-frame-\(type.slug)-n=\(count)", unit: "µs",
          median: seconds / Double(frames) * 1e6))
    }
  }
  guard only == nil else { return }

  let reducer = CarouselReducer()
  var flung = CarouselState(
    numberOfItems: 10_000, itemWidth: 100, bounds: CarouselSize(width: 1024, height: 768), type: .coverFlow)
  _ = reducer.reduce(into: &flung, action: .setCurrentItemIndex(5_000, at: 0))
  _ = reducer.reduce(into: &flung, action: .dragBegan(translation: 0, at: 0))
  _ = reducer.reduce(into: &flung, action: .dragChanged(translation: -80, velocity: -4000, at: 0.05))
  _ = reducer.reduce(into: &flung, action: .dragEnded(translation: -80, velocity: -4000, at: 0.06))
  var times: [Double] = []
  var time = 0.06
  while flung.isAnimating(at: time) {
    time += 1.0 / 60
    times.append(time)
  }
  let seconds = medianSeconds(repetitions: 15) {
    blackHole(sampleCarouselFrames(flung, reducer: reducer, at: times))
  }
  reporter.report(
    Measurement(
      name: "components/carousel-fling-frame-n=10000", unit: "µs",
      median: seconds / Double(times.count) * 1e6))
}

/// The frame loop a view runs: sample the layout at each frame's time. Returns the items drawn.
@inline(never)
func sampleCarouselFrames(_ state: CarouselState, reducer: CarouselReducer, at times: [Double]) -> Int {
  var drawn = 0
  for time in times { drawn &+= reducer.layout(of: state, at: time).count }
  return drawn
}
