import Testing

@testable import RewindLog

/// HMAC-SHA-256 against every test case of RFC 4231 (section 4).
@Suite struct HMACTests {
  struct Vector: Sendable, CustomTestStringConvertible {
    var number: Int
    var key: [UInt8]
    var data: [UInt8]
    var mac: String
    var testDescription: String { "RFC 4231 test case \(number)" }
  }

  static let vectors: [Vector] = [
    Vector(
      number: 1, key: [UInt8](repeating: 0x0b, count: 20), data: Array("Hi There".utf8),
      mac: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
    Vector(
      number: 2, key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8),
      mac: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
    Vector(
      number: 3, key: [UInt8](repeating: 0xaa, count: 20), data: [UInt8](repeating: 0xdd, count: 50),
      mac: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
    Vector(
      number: 4, key: (1...25).map { UInt8($0) }, data: [UInt8](repeating: 0xcd, count: 50),
      mac: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
    // Test case 5 publishes only the first 128 bits of the output.
    Vector(
      number: 5, key: [UInt8](repeating: 0x0c, count: 20), data: Array("Test With Truncation".utf8),
      mac: "a3b6167473100ee06e0c796c2955552b"),
    Vector(
      number: 6, key: [UInt8](repeating: 0xaa, count: 131),
      data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
      mac: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    Vector(
      number: 7, key: [UInt8](repeating: 0xaa, count: 131),
      data: Array(
        ("This is a test using a larger than block-size key and a larger than block-size data. The key needs to "
          + "be hashed before being used by the HMAC algorithm.").utf8),
      mac: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
  ]

  @Test(arguments: vectors) func matchesRFC4231(_ vector: Vector) {
    let mac = HMACSHA256.authenticationCode(for: vector.data, key: vector.key).description
    #expect(mac.count == 64)
    if vector.mac.count < 64 {
      #expect(mac.hasPrefix(vector.mac))
    } else {
      #expect(mac == vector.mac)
    }
  }

  @Test(arguments: vectors) func incrementalUpdatesGiveTheSameMAC(_ vector: Vector) {
    let whole = HMACSHA256.authenticationCode(for: vector.data, key: vector.key)
    for split in [0, 1, vector.data.count / 2, vector.data.count] {
      var mac = HMACSHA256(key: vector.key)
      mac.update(vector.data[..<split])
      mac.update(vector.data[split...])
      #expect(mac.finalize() == whole, "split at \(split)")
    }
  }

  /// Keys one byte under, at and over the block size (the last is hashed first); MACs from Python's `hmac`.
  @Test(arguments: [
    (63, "74d80dfee2a537ad12b00165a35dfeb498c2769bcdb3b2254db92e30f2a356cc"),
    (64, "989094f1f2858298ee55755227e2ff4c5adb31e50f96278faea9d19b8abf1943"),
    (65, "33e4ba4e2e72fd9f63c2b182fd40ec99af1175cd62cc6800aabaf8e85c65866f"),
  ])
  func keysAroundTheBlockSize(length: Int, mac: String) {
    let key = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) }
    #expect(HMACSHA256.authenticationCode(for: Array("rewind".utf8), key: key).description == mac)
  }

  /// A MAC value keyed once and copied for each message, as ``ChainKey`` uses it, gives each message's MAC.
  @Test func oneKeyedValueCopiedForManyMessages() {
    let keyed = HMACSHA256(key: Self.vectors[3].key)
    for vector in Self.vectors {
      var mac = keyed
      mac.update(vector.data)
      #expect(mac.finalize() == HMACSHA256.authenticationCode(for: vector.data, key: Self.vectors[3].key))
    }
    var fourth = keyed
    fourth.update(Self.vectors[3].data)
    #expect(fourth.finalize().description == Self.vectors[3].mac)
  }

  @Test func chainKeyRejectsShortKeysAndBadHexAndHidesItsBytes() throws {
    #expect(throws: ChainKey.Problem.tooShort(length: 15)) {
      try ChainKey(bytes: [UInt8](repeating: 1, count: 15))
    }
    #expect(throws: ChainKey.Problem.notHexadecimal) { try ChainKey(hex: "abc") }
    #expect(throws: ChainKey.Problem.notHexadecimal) { try ChainKey(hex: String(repeating: "zz", count: 16)) }
    let hex = String(repeating: "a1", count: 32)
    let key = try ChainKey(hex: hex)
    #expect(key.hexadecimal == hex)
    #expect(try ChainKey(hex: hex.uppercased()) == key)
    #expect(!"\(key)".contains("a1a1"))
    #expect(!String(reflecting: key).contains("a1a1"))
    var dumped = ""
    dump(FileJournalOptions(chainKey: key), to: &dumped)
    #expect(!dumped.contains("161"), "dump shows no key bytes (0xa1 = 161): \(dumped)")
    #expect(ChainKey.random() != ChainKey.random())
  }
}
