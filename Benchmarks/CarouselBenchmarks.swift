import RewindComponents

/// `components/carousel-layout-<type>`: one tick of a running scroll animation followed by the full layout
/// of the visible items (transforms, projection, alpha, depth order), per second, for every type.
///
/// Fixture: 100 items of width 100 in 1024×768, wrapping as the type defaults, scrolling from item 10 to 40.
let carouselBenchmarks: @Sendable (Reporter) throws -> Void = { reporter in
  let iterations = 2_000
  for type in CarouselType.allCases {
    let reducer = CarouselReducer(customTransform: { offset, base in
      base.rotated(by: offset * 0.3, x: 0, y: 1, z: 0).translated(x: 0, y: 0, z: 150)
    })
    var start = CarouselState(
      numberOfItems: 100, itemWidth: 100, bounds: CarouselSize(width: 1024, height: 768), type: type)
    _ = reducer.reduce(into: &start, action: .tick(now: 0))
    _ = reducer.reduce(into: &start, action: .setCurrentItemIndex(10))
    _ = reducer.reduce(into: &start, action: .scrollToItem(40, animated: true))
    let seconds = medianSeconds(repetitions: 15) {
      var state = start
      var visible = 0
      for step in 0..<iterations {
        // Ticks spread over the 0.4 s animation, so every layout sees a new offset.
        _ = reducer.reduce(into: &state, action: .tick(now: 0.39 * Double(step) / Double(iterations)))
        visible &+= reducer.layout(of: state).count
      }
      blackHole(visible)
    }
    reporter.report(
      Measurement(
        name: "components/carousel-layout-\(type.slug)", unit: "layouts/s",
        median: Double(iterations) / seconds))
  }
}
