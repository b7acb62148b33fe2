import Rewind
import Testing

@Suite struct RandomGeneratorTests {
  @Test func seededDrawsSplitMix64sSequence() {
    // The published first outputs of SplitMix64 from seed 0.
    let generator = RandomGenerator.seeded(0)
    #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
    #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
    #expect(generator.next() == 0x06C4_5D18_8009_454F)
    #expect(RandomGenerator.seeded(0).next() == 0xE220_A839_7B1D_CDAF, "each generator counts on its own")
  }

  @Test(arguments: [0, 1, 2, 99] as [UInt64])
  func integersStayInTheirRangeAndReachEveryValue(seed: UInt64) {
    let generator = RandomGenerator.seeded(seed)
    for (lower, upper) in [(-3, 3), (0, 1), (1, 6), (Int.max - 2, Int.max), (Int.min, Int.min + 2)] {
      var seen: Set<Int> = []
      for _ in 0..<400 {
        let value = generator.int(in: lower...upper)
        #expect((lower...upper).contains(value), "seed \(seed)")
        seen.insert(value)
        let open = generator.int(in: lower..<upper)
        #expect((lower..<upper).contains(open), "seed \(seed)")
      }
      #expect(seen.count == upper - lower + 1, "seed \(seed): every value of \(lower)...\(upper) drawn")
    }
    for _ in 0..<100 {
      _ = generator.int(in: Int.min...Int.max)
      let unit = generator.double()
      #expect(unit >= 0 && unit < 1, "seed \(seed)")
    }
  }

  @Test func helpersTurnBitsIntoNumbersTheSameWayInEveryBuild() {
    #expect(RandomGenerator.constant(0).double() == 0)
    #expect(RandomGenerator.constant(.max).double() == 1 - 0x1p-53)
    #expect(RandomGenerator.constant(1 << 63).bool())
    #expect(!RandomGenerator.constant((1 << 63) - 1).bool())
    // Multiply-high: the top of 2⁶⁴ · bound, so the bits' fraction picks the value.
    #expect(RandomGenerator.constant(1 << 63).int(in: 0..<10) == 5)
    #expect(RandomGenerator.constant(.max).int(in: 1...6) == 6)
    // A generator that is not random is not drawn from forever.
    #expect(RandomGenerator.constant(0).int(in: 1...5) == 1)
  }

  @Test func servesTheStandardLibraryAsARandomNumberGenerator() {
    var generator = RandomGenerator.seeded(3)
    let shuffled = (0..<20).shuffled(using: &generator)
    #expect(shuffled.sorted() == Array(0..<20))
    var again = RandomGenerator.seeded(3)
    #expect((0..<20).shuffled(using: &again) == shuffled)
  }
}
