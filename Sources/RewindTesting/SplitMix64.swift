/// A small, fast, seedable random number generator (Steele, Lea and Flood's SplitMix64), so that randomized
/// tests and benchmarks run the same inputs every time and a failure can be replayed from its seed.
///
/// ```swift
/// var random = SplitMix64(seed: 2026)
/// let size = Int.random(in: 0...300, using: &random)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator whose sequence is fixed by `seed`.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
