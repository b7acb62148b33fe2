import RewindDiff
import Testing

/// 100,000 random pairs (60,000 flat, 40,000 sectioned) split across seeds so they run in parallel.
/// Every failure names its seed and pair number; rerun one seed to replay it.
@Suite("Random pairs")
struct PropertyTests {
  static let flatSeeds: [UInt64] = [
    0xF1A7_0001, 0xF1A7_0002, 0xF1A7_0003, 0xF1A7_0004, 0xF1A7_0005, 0xF1A7_0006,
  ]
  static let sectionedSeeds: [UInt64] = [0x5EC7_0001, 0x5EC7_0002, 0x5EC7_0003, 0x5EC7_0004]
  static let pairsPerSeed = 10_000

  @Test("flat: applying reproduces the target and every stage passes the validator", arguments: flatSeeds)
  func flat(seed: UInt64) {
    var generator = PairGenerator(seed: seed)
    var failures = 0
    for pair in 0..<Self.pairsPerSeed {
      let (source, target) = generator.flatPair()
      if let problem = flatProblem(source: source, target: target) {
        failures += 1
        Issue.record("seed \(seed) pair \(pair): \(problem)\nsource \(source)\ntarget \(target)")
        if failures >= 3 { return }
      }
    }
    print("RewindDiff property test: flat seed \(seed): \(Self.pairsPerSeed) pairs checked")
  }

  @Test(
    "sectioned: applying reproduces the target and every stage passes the validator",
    arguments: sectionedSeeds)
  func sectioned(seed: UInt64) {
    var generator = PairGenerator(seed: seed)
    var failures = 0
    for pair in 0..<Self.pairsPerSeed {
      let (source, target) = generator.sectionedPair()
      if let problem = sectionedProblem(source: source, target: target) {
        failures += 1
        Issue.record("seed \(seed) pair \(pair): \(problem)\nsource \(source)\ntarget \(target)")
        if failures >= 3 { return }
      }
    }
    print("RewindDiff property test: sectioned seed \(seed): \(Self.pairsPerSeed) pairs checked")
  }
}
