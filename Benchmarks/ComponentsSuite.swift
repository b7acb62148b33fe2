/// Suite `components`: headless UI components through the store. Each component file adds its
/// benchmarks to the list below.
let componentsSuite = Suite(name: "components", summary: "swipe cell and carousel reducers") { reporter in
  for benchmark in componentBenchmarks { try benchmark(reporter) }
}

/// The component benchmarks, run in order by suite `components`.
let componentBenchmarks: [@Sendable (Reporter) throws -> Void] = [swipeBenchmarks, carouselBenchmarks]
