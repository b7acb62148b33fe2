import RewindTesting
import Testing

@testable import RewindLog

/// SHA-256 beyond the FIPS 180-4 examples in ChecksumTests, run with every engine this processor has (the
/// portable Swift rounds, and the x86 SHA instructions where present): the FIPS examples again, NIST CAVP
/// short messages, every length 0...300 against ``ReferenceSHA256``, seeded messages checked against an
/// independent implementation (Python's `hashlib`), and updates of random sizes, so the block buffering and
/// the finishing blocks are covered.
@Suite struct SHA256Tests {
  struct Vector: Sendable, CustomTestStringConvertible {
    var message: [UInt8]
    var digest: String
    var testDescription: String { "\(message.count) bytes" }
  }

  /// `(i * 7 + 3) mod 256` for i in 0..<count: lengths around the 55/56-byte padding limit and block ends.
  static func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) } }

  static let vectors: [Vector] = [
    // NIST CAVP SHA256ShortMsg.rsp, Len = 8 and Len = 32.
    Vector(message: [0xbd], digest: "68325720aabd7c82f30f554b313d0570c95accbb7dc4b5aae11204c08ffe732b"),
    Vector(
      message: [0xc9, 0x8c, 0x8e, 0x55],
      digest: "7abc22c0ae5af26ce93dbb94433a0e0b2e119d014f8e7f65bd56c61ccccd9504"),
    Vector(message: pattern(55), digest: "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b"),
    Vector(message: pattern(56), digest: "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27"),
    Vector(message: pattern(63), digest: "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055"),
    Vector(message: pattern(64), digest: "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241"),
    Vector(message: pattern(65), digest: "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e"),
    Vector(message: pattern(119), digest: "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e"),
    Vector(message: pattern(120), digest: "7836b787757e95e58b3ca5aec90b1b004e8deba1e50e9675af9cabf1a13a04b5"),
    Vector(message: pattern(127), digest: "a8d23e75d936f303d248888d9b165ee543f4cbafcad3c9dd2a79bd84faa11d07"),
    Vector(message: pattern(128), digest: "d2742f1f4ac6bb7ca2b239ee18402ba8b3f9f8e652d2a72973c2b9ba11c08cf6"),
  ]

  /// The digest of `message` by `engine` in one update.
  static func hash(_ message: some Collection<UInt8>, engine: SHA256.Engine) -> SHA256.Digest {
    var hasher = SHA256(engine: engine)
    hasher.update(message)
    return hasher.finalize()
  }

  @Test func theFastestEngineIsUsedByDefaultAndPortableIsAlwaysThere() {
    #expect(SHA256.Engine.available.first == .portable)
    #expect(SHA256.Engine.fastest == SHA256.Engine.available.last)
    print("SHA-256 engines on this processor: \(SHA256.Engine.available)")
  }

  @Test(
    arguments: SHA256.Engine.available,
    [
      ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
      ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
      (
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
      ),
      (
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
      ),
    ])
  func fipsExamples(engine: SHA256.Engine, example: (message: String, digest: String)) {
    #expect(Self.hash(Array(example.message.utf8), engine: engine).description == example.digest)
  }

  @Test(arguments: SHA256.Engine.available, vectors) func matchesReferenceDigests(
    engine: SHA256.Engine, vector: Vector
  ) {
    #expect(Self.hash(vector.message, engine: engine).description == vector.digest)
    var bytewise = SHA256(engine: engine)
    for byte in vector.message { bytewise.update(CollectionOfOne(byte)) }
    #expect(bytewise.finalize().description == vector.digest)
  }

  /// Every length across the padding limit and several blocks: one update, two updates split at every
  /// third byte, and the reference implementation agree.
  @Test(arguments: SHA256.Engine.available) func everyLengthUpTo300MatchesTheReference(engine: SHA256.Engine)
  {
    let message = Self.seededMessage(seed: 300, count: 300)
    for length in 0...300 {
      let prefix = Array(message[..<length])
      let expected = ReferenceSHA256.hash(prefix)
      #expect(Self.hash(prefix, engine: engine).bytes == expected, "\(engine), length \(length)")
      for split in stride(from: 0, through: length, by: 3) {
        var hasher = SHA256(engine: engine)
        hasher.update(prefix[..<split])
        hasher.update(prefix[split...])
        #expect(hasher.finalize().bytes == expected, "\(engine), length \(length), split \(split)")
      }
    }
  }

  /// The engines compress the same blocks into the same state, many blocks at once included.
  @Test(arguments: [7, 8, 9] as [UInt64]) func enginesAgreeOnManyBlocks(seed: UInt64) {
    let message = Self.seededMessage(seed: seed, count: 64 * 40 + Int(seed))
    let digests = SHA256.Engine.available.map { Self.hash(message, engine: $0) }
    #expect(Set(digests).count == 1, "seed \(seed)")
    #expect(digests.first?.bytes == ReferenceSHA256.hash(message), "seed \(seed)")
  }

  /// The low byte of each SplitMix64 output: a message Python can rebuild to check the digest.
  static func seededMessage(seed: UInt64, count: Int) -> [UInt8] {
    var random = SplitMix64(seed: seed)
    return (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
  }

  @Test func seededMessageMatchesAnIndependentImplementation() {
    let message = Self.seededMessage(seed: 2026, count: 3000)
    #expect(
      SHA256.hash(message).description == "d3f6351af15bb4c2af3e19ad3fbb7082573296b7685ebfb6e2ca2292d494adc1")
    let key = (0..<32).map { UInt8($0) }
    #expect(
      HMACSHA256.authenticationCode(for: message, key: key).description
        == "8897e93fe3a8ccb6647f57ea91e428936e395ceee657e4d9f42d6141731e072d")
  }

  @Test(arguments: SHA256.Engine.available) func oneMillionAsInOneUpdate(engine: SHA256.Engine) {
    let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
    #expect(
      Self.hash(message, engine: engine).description
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// Updates of random sizes (empty, a few bytes, several blocks), some through a collection without
  /// contiguous storage, give the digest of one update.
  @Test(arguments: SHA256.Engine.available, [1, 2, 3, 4, 5, 2026] as [UInt64])
  func randomChunksEqualOneUpdate(engine: SHA256.Engine, seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let message = Self.seededMessage(seed: seed, count: Int.random(in: 0...5000, using: &random))
    let expected = SHA256.hash(message)
    var hasher = SHA256(engine: engine)
    var mac = HMACSHA256(key: Self.seededMessage(seed: seed, count: 40))
    var start = 0
    while start < message.count {
      let size =
        Bool.random(using: &random)
        ? Int.random(in: 0...70, using: &random) : Int.random(in: 0...300, using: &random)
      let chunk = message[start..<min(message.count, start + size)]
      if Int.random(in: 0..<4, using: &random) == 0 {
        hasher.update(chunk.lazy.map { $0 })
      } else {
        chunk.withUnsafeBytes { hasher.update($0) }
      }
      mac.update(chunk)
      start += chunk.count
    }
    #expect(hasher.finalize() == expected, "\(engine), seed \(seed), \(message.count) bytes")
    let expectedMAC = HMACSHA256.authenticationCode(
      for: message, key: Self.seededMessage(seed: seed, count: 40))
    #expect(mac.finalize() == expectedMAC, "seed \(seed), \(message.count) bytes")
  }

  @Test func digestRoundTripsItsBytesAndCompares() {
    let digest = SHA256.hash(Array("abc".utf8))
    let bytes = digest.bytes
    #expect(bytes.count == 32 && bytes.first == 0xba && bytes.last == 0xad)
    #expect(SHA256.Digest(bytes: bytes) == digest)
    #expect(SHA256.Digest(bytes: bytes[...]).description == digest.description)
    #expect(digest.withUnsafeBytes { Array($0) } == bytes)
    var changed = bytes
    changed[31] ^= 1
    #expect(SHA256.Digest(bytes: changed) != digest)
    #expect(Set([digest, SHA256.Digest(bytes: bytes), SHA256.Digest(bytes: changed)]).count == 2)
    #expect(SHA256.Digest(hexadecimal: digest.description) == digest)
  }
}
