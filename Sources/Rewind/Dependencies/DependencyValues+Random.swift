extension DependencyValues {
  /// Makes random numbers: the system's generator live; in tests, a `TestStore` draws from
  /// ``RandomGenerator/seeded(_:)`` with seed 0, so numbers are predictable.
  ///
  /// A recorded dependency: a reducer may draw from it while it reduces, and the store records the bits
  /// of each draw with the event, so that every replay of the event draws the same (see
  /// ``RecordedDraw``):
  ///
  /// ```swift
  /// @Dependency(\.random) var random
  /// // …
  /// case .shuffle:
  ///   state.deck = state.deck.sorted { _, _ in random.bool() }
  /// case .roll:
  ///   state.die = random.int(in: 1...6)
  /// ```
  public var random: RandomGenerator {
    get { recordedGenerators?.random ?? self[RandomGeneratorKey.self] }
    set { self[RandomGeneratorKey.self] = newValue }
  }
}

/// Makes random numbers: 64 bits at a time from ``next()``, and ``int(in:)-(Range<Int>)``, ``double()``
/// and ``bool()`` built on them.
///
/// The helpers turn the bits into numbers the same way in every build (documented below), so a replay of a
/// recorded event by a later build reads the same numbers from the same recorded bits. As a
/// `RandomNumberGenerator` it also serves the standard library (`array.shuffled(using: &generator)`), whose
/// algorithms may draw a different number of times in another Swift version: a replay by such a build
/// reports the draws its events lack (``UnrecordedDraw``).
public struct RandomGenerator: RandomNumberGenerator, Sendable {
  private let generate: @Sendable () -> UInt64

  /// Creates a generator that asks `generate` for each 64 bits.
  public init(_ generate: @escaping @Sendable () -> UInt64) { self.generate = generate }

  /// 64 random bits; while a store reduces, recorded with the event (or, replaying, the recorded ones).
  public func next() -> UInt64 {
    if let session = DrawSession.current { return session.drawRandom(generate) }
    return generate()
  }

  /// A number in `range`, uniformly: Lemire's multiply-and-reject on ``next()`` (one draw, more only in
  /// the rare case it rejects one: with probability below width / 2⁶⁴).
  /// - Precondition: `range` is not empty.
  public func int(in range: Range<Int>) -> Int {
    precondition(!range.isEmpty, "RandomGenerator.int(in:): the range is empty")
    let width = UInt64(UInt(bitPattern: range.upperBound &- range.lowerBound))
    return range.lowerBound &+ Int(truncatingIfNeeded: below(width))
  }

  /// A number in `range`, uniformly, as ``int(in:)-(Range<Int>)`` does; the whole of `Int` takes one
  /// draw as it is.
  public func int(in range: ClosedRange<Int>) -> Int {
    let width = UInt64(UInt(bitPattern: range.upperBound &- range.lowerBound))
    if width == .max { return range.lowerBound &+ Int(truncatingIfNeeded: next()) }
    return range.lowerBound &+ Int(truncatingIfNeeded: below(width + 1))
  }

  /// A number in `0..<1`, uniformly on a grid of 2⁻⁵³: the top 53 bits of one draw.
  public func double() -> Double { Double(next() >> 11) * 0x1p-53 }

  /// `true` or `false`, evenly: the top bit of one draw.
  public func bool() -> Bool { next() >> 63 == 1 }

  /// A number in `0..<bound` (bound > 0), without bias. A generator rejected 16 times in a row (one that
  /// is not random, such as ``constant(_:)``) has its last draw taken anyway rather than drawn forever.
  private func below(_ bound: UInt64) -> UInt64 {
    var product = next().multipliedFullWidth(by: bound)
    if product.low < bound {
      let threshold = (0 &- bound) % bound
      var rejected = 0
      while product.low < threshold, rejected < 16 {
        product = next().multipliedFullWidth(by: bound)
        rejected += 1
      }
    }
    return product.high
  }

  /// The system's generator.
  public static var live: RandomGenerator {
    RandomGenerator {
      var system = SystemRandomNumberGenerator()
      return system.next()
    }
  }

  /// A new generator of SplitMix64's sequence from `seed`: each access makes its own sequence.
  public static func seeded(_ seed: UInt64) -> RandomGenerator {
    let state = Locked<UInt64>(seed)
    return RandomGenerator {
      let current = state.withLock { state in
        defer { state &+= 0x9E37_79B9_7F4A_7C15 }
        return state
      }
      return DrawSession.splitMix(current)
    }
  }

  /// Always `bits`.
  public static func constant(_ bits: UInt64) -> RandomGenerator { RandomGenerator { bits } }
}

/// The key of ``DependencyValues/random``.
public enum RandomGeneratorKey: DependencyKey {
  /// ``RandomGenerator/live``.
  public static var liveValue: RandomGenerator { .live }
  /// Fails the test when called, then returns 0.
  public static var testValue: RandomGenerator {
    RandomGenerator {
      DependencyValues.current.reportUnimplemented(
        "Unimplemented: random was called; override it (a TestStore uses RandomGenerator.seeded(0))")
      return 0
    }
  }
}
