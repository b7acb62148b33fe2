/// The arithmetic under every state fingerprint: two polynomial hashes modulo the Mersenne prime
/// 2⁶¹ − 1 over a stream of 64-bit words, each word first scrambled by a bijective mixer.
///
/// A lane holds `h = Σ xᵢ · r^(n−1−i) mod p` over the scrambled words `xᵢ`. That form is what lets a
/// persistent collection digest only what changed: the lanes of a concatenation are those of its parts,
/// `h(A ++ B) = h(A) · r^|B| + h(B)`, so a tree node combines its children's cached lanes whatever the
/// tree's shape, and two trees holding the same elements give the same digest however they were built.
/// Each node caches the lanes of its subtree (`TreeNode+Digest.swift`): a fingerprint after a one-row
/// edit digests the changed row's leaf and combines the lanes of the nodes on its path.
///
/// Not a cryptographic hash. A fingerprint only has to make two different states unlikely to look equal
/// by accident: for words that differ, each lane agrees with probability about 1/p, both lanes about
/// 2⁻¹²². Someone who controls the state could construct a collision, but whoever controls the state
/// controls the reducer and the log too; what makes recorded fingerprints trustworthy is the log's hash
/// chain (SHA-256, or HMAC-SHA-256), which covers the final values.
///
/// The constants are part of the log format (fingerprint algorithm 1): changing any of them changes every
/// fingerprint.
@usableFromInline
struct DigestLanes: Sendable, Hashable {
  /// The modulus, 2⁶¹ − 1.
  @usableFromInline static let prime: UInt64 = (1 << 61) - 1
  /// The evaluation points of the two lanes (fixed, below the prime).
  @usableFromInline static let radix: (UInt64, UInt64) = (0x0F3A_9D5C_2B71_E643, 0x1B6E_04A7_93D2_58C9)
  /// XORed into a word before it is scrambled, one per lane, so the lanes see different values.
  @usableFromInline static let salt: (UInt64, UInt64) = (0x6A09_E667_F3BC_C908, 0xBB67_AE85_84CA_A73B)

  /// The two hash values, each below the prime.
  @usableFromInline var first: UInt64
  @usableFromInline var second: UInt64
  /// The number of words absorbed.
  @usableFromInline var count: UInt64

  /// No words.
  @inlinable
  init() {
    (first, second, count) = (0, 0, 0)
  }

  /// Adds `word` at the end. This is the inner loop of every fingerprint (a row of a list is about 24
  /// words), so it is inlined and keeps no powers: `r^n`, which only a concatenation needs, is computed
  /// there from `count` (``power(of:_:)``). Keeping both powers up to date here cost each word two
  /// multiplications modulo the prime, about a third of its cost.
  @inlinable @inline(__always)
  mutating func absorb(_ word: UInt64) {
    first = Self.add(Self.multiply(first, Self.radix.0), Self.reduce(Self.scramble(word ^ Self.salt.0)))
    second = Self.add(Self.multiply(second, Self.radix.1), Self.reduce(Self.scramble(word ^ Self.salt.1)))
    count &+= 1
  }

  /// Adds the words of `other` at the end: the lanes of the concatenation,
  /// `h(A ++ B) = h(A) · r^|B| + h(B)`.
  @inlinable
  mutating func append(_ other: DigestLanes) {
    // `r^count` from the table for a leaf's lanes (at most 64 words): what an inner node combines most.
    let words = Int(truncatingIfNeeded: other.count)
    first = Self.add(Self.multiply(first, Self.power(0, words)), other.first)
    second = Self.add(Self.multiply(second, Self.power(1, words)), other.second)
    count &+= other.count
  }

  /// The lanes of `self` followed by `other`.
  @inlinable
  func appending(_ other: DigestLanes) -> DigestLanes {
    var copy = self
    copy.append(other)
    return copy
  }

  /// Replaces, in the lanes of a sequence of `elements` elements (two words each, as
  /// `CanonicalValue.append(element:to:)` adds them), the digest `old` of element `position` by `new`: in
  /// O(1), since a word's term is `x · r^e`, its exponent `e` fixed by its distance from the end.
  @inlinable
  mutating func replaceElement(
    at position: Int, of elements: Int, old: StateFingerprint, new: StateFingerprint
  ) {
    let exponent = (elements &- 1 &- position) &* 2  // the low word's; the high word's is one more
    first = Self.replacing(in: first, lane: 0, salt: Self.salt.0, old: old, new: new, exponent: exponent)
    second = Self.replacing(in: second, lane: 1, salt: Self.salt.1, old: old, new: new, exponent: exponent)
  }

  /// Lane `lane`'s value `hash` with the element `old`, whose low word has exponent `exponent`, replaced by
  /// `new`: `hash + (x(new.high) − x(old.high)) · r^(e+1) + (x(new.low) − x(old.low)) · r^e`, where
  /// `x(w)` is the term a word `w` adds to a lane salted `salt`.
  @inlinable @inline(__always)
  static func replacing(
    in hash: UInt64, lane: Int, salt: UInt64, old: StateFingerprint, new: StateFingerprint, exponent: Int
  ) -> UInt64 {
    func difference(_ new: UInt64, _ old: UInt64) -> UInt64 {
      add(reduce(scramble(new ^ salt)), prime &- reduce(scramble(old ^ salt)))
    }
    let high = multiply(difference(new.high, old.high), power(lane, exponent &+ 1))
    let low = multiply(difference(new.low, old.low), power(lane, exponent))
    return add(hash, add(high, low))
  }

  /// `r^exponent` for lane `lane` (0 or 1): from a table for the exponents of a leaf's words.
  @inlinable
  static func power(_ lane: Int, _ exponent: Int) -> UInt64 {
    if exponent < Self.powerTableSize { return DigestPowers.table[lane &* Self.powerTableSize &+ exponent] }
    return power(of: lane == 0 ? radix.0 : radix.1, UInt64(exponent))
  }

  /// The exponents the table holds: every word of a leaf of up to 64 elements.
  @inlinable static var powerTableSize: Int { 128 }

  /// The 128-bit digest of a value whose canonical words these are, tagged `tag` (the kind of value).
  @inlinable
  func digest(tag: UInt64) -> StateFingerprint {
    let high = Self.scramble(first ^ (tag &* 0x9E37_79B9_7F4A_7C15) ^ (count << 3))
    let low = Self.scramble(second ^ Self.scramble(high ^ tag))
    return StateFingerprint(high: high, low: low)
  }

  // MARK: Arithmetic

  /// A bijective 64-bit mixer with full avalanche (the finalizer of SplitMix64).
  @inlinable @inline(__always)
  static func scramble(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// `base^exponent mod p`, by squaring: about 2 log₂(exponent) multiplications.
  @inlinable
  static func power(of base: UInt64, _ exponent: UInt64) -> UInt64 {
    var result: UInt64 = 1
    var square = base
    var remaining = exponent
    while remaining != 0 {
      if remaining & 1 != 0 { result = multiply(result, square) }
      remaining >>= 1
      if remaining != 0 { square = multiply(square, square) }
    }
    return result
  }

  /// `value mod p`, for any 64-bit value.
  @inlinable @inline(__always)
  static func reduce(_ value: UInt64) -> UInt64 {
    let folded = (value & prime) &+ (value >> 61)
    return folded >= prime ? folded &- prime : folded
  }

  /// `(a + b) mod p` for `a, b < p`.
  @inlinable @inline(__always)
  static func add(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let sum = a &+ b
    return sum >= prime ? sum &- prime : sum
  }

  /// `(a · b) mod p` for `a, b < p`: the 122-bit product folded on 2⁶¹ ≡ 1.
  @inlinable @inline(__always)
  static func multiply(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let product = a.multipliedFullWidth(by: b)
    // product = high · 2⁶⁴ + low ≡ 8 · high + (low >> 61) + (low & p)   (mod p); high < 2⁵⁸.
    let sum = (product.low & prime) &+ (product.low >> 61) &+ (product.high << 3)
    return reduce(sum)
  }
}

/// `r^0 … r^127` of each lane's radix, the first lane's then the second's: the weights of a leaf's words.
@usableFromInline
enum DigestPowers {
  @usableFromInline static let table: [UInt64] = {
    var table: [UInt64] = []
    table.reserveCapacity(2 * DigestLanes.powerTableSize)
    for radix in [DigestLanes.radix.0, DigestLanes.radix.1] {
      var power: UInt64 = 1
      for _ in 0..<DigestLanes.powerTableSize {
        table.append(power)
        power = DigestLanes.multiply(power, radix)
      }
    }
    return table
  }()
}
