import Testing

@testable import RewindLog

@Suite struct ChecksumTests {
  @Test func crc32cMatchesPublishedVectors() {
    // RFC 3720 appendix B.4 and the customary check value.
    #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
    #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
    #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
    #expect(CRC32C.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
    #expect(CRC32C.checksum((0..<32).reversed().map { UInt8($0) }) == 0x113F_DB5C)
    #expect(CRC32C.checksum([UInt8]()) == 0)
  }

  @Test func crc32cIsTheSameForEverySplitAndAlignment() {
    var random = TestRandom(seed: 7)
    let bytes = (0..<300).map { _ in UInt8.random(in: 0...255, using: &random) }
    // Bytewise reference.
    var reference: UInt32 = ~0
    for byte in bytes {
      reference ^= UInt32(byte)
      for _ in 0..<8 { reference = reference & 1 != 0 ? (reference >> 1) ^ 0x82F6_3B78 : reference >> 1 }
    }
    reference = ~reference
    for start in 0..<9 {
      for split in stride(from: start, through: bytes.count, by: 37) {
        let first = bytes[start..<split].withUnsafeBytes { CRC32C.checksum($0) }
        let whole = bytes[split...].withUnsafeBytes { CRC32C.checksum($0, continuing: first) }
        let expected = start == 0 ? reference : CRC32C.checksum(Array(bytes[start...]))
        #expect(whole == expected, "start \(start) split \(split)")
      }
    }
  }

  /// The processor's instruction, where it is used, and the tables give the same checksums, for every
  /// length to 70 bytes at every alignment to 8, continuing from random values.
  @Test func theInstructionAgreesWithTheTables() {
    var random = TestRandom(seed: 29)
    let bytes = (0..<80).map { _ in UInt8.random(in: 0...255, using: &random) }
    bytes.withUnsafeBytes { all in
      for start in 0..<8 {
        for count in 0...70 {
          let slice = UnsafeRawBufferPointer(rebasing: all[start..<(start + count)])
          let from = UInt32.random(in: 0...UInt32.max, using: &random)
          #expect(
            CRC32C.checksum(slice, continuing: from) == CRC32C.tableChecksum(slice, continuing: from),
            "start \(start), \(count) bytes, instruction used: \(CRC32C.usesInstruction)")
        }
      }
    }
  }

  @Test func maskRoundTrips() {
    for value: UInt32 in [0, 1, 0xE306_9283, .max, 0x8000_0000] {
      #expect(CRC32C.unmask(CRC32C.mask(value)) == value)
      #expect(CRC32C.mask(value) != value)
    }
  }

  @Test(arguments: [
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
  func sha256MatchesNISTVectors(message: String, digest: String) {
    #expect(SHA256.hash(Array(message.utf8)).description == digest)
  }

  @Test func sha256OfOneMillionAs() {
    var hasher = SHA256()
    let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
    for _ in 0..<1000 { hasher.update(chunk) }
    #expect(
      hasher.finalize().description == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test func sha256IsTheSameForEverySplit() {
    let message = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let expected = SHA256.hash(message)
    for split in 0...message.count {
      var hasher = SHA256()
      hasher.update(message[0..<split])
      hasher.update(message[split...])
      #expect(hasher.finalize() == expected, "split \(split)")
    }
  }
}
