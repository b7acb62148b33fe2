import RewindTesting

/// The seeded generator of these tests: every failure can be replayed from its printed seed.
typealias TestRandom = SplitMix64

extension SplitMix64 {
  /// A uniform-enough integer in `0..<bound` (bound > 0), cheap enough for debug builds.
  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
