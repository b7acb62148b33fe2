/// The first bytes of every segment file: which log it belongs to and where it continues the chain.
///
/// Layout (76 bytes, little-endian): magic "RWNDLOG\0" (8), format version (4), header size (4), log id
/// (16), first sequence number (8), chain value before the segment (32), masked CRC-32C of the preceding
/// 72 bytes (4).
struct SegmentHeader: Equatable {
  static let magic: [UInt8] = Array("RWNDLOG\0".utf8)
  static let version: UInt32 = 2
  static let size = 76

  var logID: [UInt8]
  var firstSequence: UInt64
  var previousChain: SHA256.Digest

  var encoded: [UInt8] {
    var writer = ByteWriter(capacity: Self.size)
    writer.append(Self.magic)
    writer.u32(Self.version)
    writer.u32(UInt32(Self.size))
    writer.append(logID)
    writer.u64(firstSequence)
    writer.append(previousChain.bytes)
    writer.u32(CRC32C.mask(CRC32C.checksum(writer.bytes)))
    return writer.bytes
  }

  /// Why a header did not parse.
  enum Problem: Error { case short, allZero, invalid(String) }

  static func parse(_ bytes: [UInt8]) -> Result<SegmentHeader, Problem> {
    guard bytes.count >= size else { return .failure(bytes.allSatisfy { $0 == 0 } ? .allZero : .short) }
    let header = Array(bytes[0..<size])
    if header.allSatisfy({ $0 == 0 }) { return .failure(.allZero) }
    var reader = ByteReader(header)
    do {
      let stored = CRC32C.unmask(UInt32(header[72]) | UInt32(header[73]) << 8 | UInt32(header[74]) << 16 | UInt32(header[75]) << 24)
      guard CRC32C.checksum(header[0..<72]) == stored else { return .failure(.invalid("segment header checksum mismatch")) }
      guard Array(try reader.bytes(8)) == magic else { return .failure(.invalid("not a Rewind log segment")) }
      let version = try reader.u32()
      guard version == Self.version else { return .failure(.invalid("unsupported format version \(version)")) }
      guard try reader.u32() == UInt32(size) else { return .failure(.invalid("unexpected header size")) }
      let logID = Array(try reader.bytes(16))
      let first = try reader.u64()
      let chain = SHA256.Digest(bytes: Array(try reader.bytes(32)))
      return .success(SegmentHeader(logID: logID, firstSequence: first, previousChain: chain))
    } catch {
      return .failure(.short)
    }
  }

  /// The chain value a log starts from: a hash of its id, so frames of another log never link.
  static func genesisChain(logID: [UInt8]) -> SHA256.Digest {
    SHA256.hash(Array("rewind-log-genesis".utf8) + logID)
  }

  /// "segment-00000000000000000001.log" for first sequence 1.
  static func fileName(firstSequence: UInt64) -> String {
    let digits = String(firstSequence)
    return "segment-" + String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".log"
  }

  /// The first sequence number in a segment file name, or nil for other files.
  static func firstSequence(fromFileName name: String) -> UInt64? {
    guard name.hasPrefix("segment-"), name.hasSuffix(".log") else { return nil }
    return UInt64(name.dropFirst(8).dropLast(4))
  }
}
