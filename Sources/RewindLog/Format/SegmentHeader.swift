/// The first bytes of every segment file: which log it belongs to, where it continues the chain, and
/// whether the chain is keyed.
///
/// Unkeyed (76 bytes), little-endian: magic "RWNDLOG\0" (8), format version (4), header size (4), log id
/// (16), first sequence number (8), chain value before the segment (32), masked CRC-32C of the preceding
/// bytes (4).
///
/// Keyed (112 bytes): the same fields, then flags (4; bit 0: the chain is HMAC-SHA-256 keyed) and the key
/// check value `HMAC-SHA-256(key, "rewind-key-check" ‖ log id)` (32), before the CRC.
///
/// The version also names the event record format: 3 (unkeyed) and 4 (keyed) hold records with a fixed
/// envelope (``EventRecord``); 1 and 2, written before that format, are refused with an error that says so.
struct SegmentHeader: Equatable {
  static let magic: [UInt8] = Array("RWNDLOG\0".utf8)
  static let unkeyedVersion: UInt32 = 3
  static let keyedVersion: UInt32 = 4
  /// Versions of the first record format (the whole `Event` through `Codable`), no longer read.
  static let formerVersions: ClosedRange<UInt32> = 1...2
  static let unkeyedSize = 76
  static let keyedSize = 112
  /// The smallest header: frames never start before this offset.
  static let minimumSize = unkeyedSize
  static let keyedFlag: UInt32 = 1

  var logID: [UInt8]
  var firstSequence: UInt64
  var previousChain: SHA256.Digest
  /// The key check value of a keyed log; `nil` for an unkeyed one.
  var keyCheck: SHA256.Digest?

  var isKeyed: Bool { keyCheck != nil }
  /// Where the first frame starts.
  var size: Int { isKeyed ? Self.keyedSize : Self.unkeyedSize }

  var encoded: [UInt8] {
    var writer = ByteWriter(capacity: size)
    writer.append(Self.magic)
    writer.u32(isKeyed ? Self.keyedVersion : Self.unkeyedVersion)
    writer.u32(UInt32(size))
    writer.append(logID)
    writer.u64(firstSequence)
    writer.append(previousChain)
    if let keyCheck {
      writer.u32(Self.keyedFlag)
      writer.append(keyCheck)
    }
    writer.u32(CRC32C.mask(CRC32C.checksum(writer.bytes)))
    return writer.bytes
  }

  /// Why a header did not parse.
  enum Problem: Error {
    case short, allZero, invalid(String)

    /// What is wrong, for an error message.
    var reason: String {
      switch self {
      case .short: "segment header incomplete"
      case .allZero: "segment header never written"
      case .invalid(let why): why
      }
    }
  }

  static func parse(_ bytes: [UInt8]) -> Result<SegmentHeader, Problem> {
    guard bytes.count >= minimumSize else {
      return .failure(bytes.allSatisfy { $0 == 0 } ? .allZero : .short)
    }
    if bytes[0..<minimumSize].allSatisfy({ $0 == 0 }) { return .failure(.allZero) }
    var reader = ByteReader(bytes, from: 0, end: min(bytes.count, keyedSize))
    do {
      guard Array(try reader.bytes(8)) == magic else { return .failure(.invalid("not a Rewind log segment")) }
      let version = try reader.u32()
      let declaredSize = try reader.u32()
      let size: Int
      switch version {
      case unkeyedVersion: size = unkeyedSize
      case keyedVersion: size = keyedSize
      case formerVersions:
        return .failure(
          .invalid(
            "format version \(version) was written by an older Rewind, whose event records this one does not read"
          ))
      default: return .failure(.invalid("unsupported format version \(version)"))
      }
      guard declaredSize == UInt32(size) else { return .failure(.invalid("unexpected header size")) }
      guard bytes.count >= size else { return .failure(.short) }
      let stored = CRC32C.unmask(
        UInt32(bytes[size - 4]) | UInt32(bytes[size - 3]) << 8 | UInt32(bytes[size - 2]) << 16
          | UInt32(bytes[size - 1]) << 24)
      guard CRC32C.checksum(bytes[0..<(size - 4)]) == stored else {
        return .failure(.invalid("segment header checksum mismatch"))
      }
      let logID = Array(try reader.bytes(16))
      let first = try reader.u64()
      let chain = SHA256.Digest(bytes: Array(try reader.bytes(32)))
      var keyCheck: SHA256.Digest?
      if version == keyedVersion {
        let flags = try reader.u32()
        guard flags == keyedFlag else { return .failure(.invalid("unsupported segment flags \(flags)")) }
        keyCheck = SHA256.Digest(bytes: Array(try reader.bytes(32)))
      }
      return .success(
        SegmentHeader(logID: logID, firstSequence: first, previousChain: chain, keyCheck: keyCheck))
    } catch {
      return .failure(.short)
    }
  }

  /// The chain value a log starts from: a hash of its id, so frames of another log never link.
  static func genesisChain(logID: [UInt8]) -> SHA256.Digest {
    SHA256.hash(Array("rewind-log-genesis".utf8) + logID)
  }

  /// How segment files are named.
  private static let naming = NumberedFileName(prefix: "segment-", suffix: ".log")

  /// "segment-00000000000000000001.log" for first sequence 1.
  static func fileName(firstSequence: UInt64) -> String { naming.name(firstSequence) }

  /// The first sequence number in a segment file name, or nil for other files.
  static func firstSequence(fromFileName name: String) -> UInt64? { naming.number(in: name) }
}
