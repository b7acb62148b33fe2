/// One group commit on disk.
///
/// Layout (little-endian): masked CRC-32C (4) of everything after it; body length (4); then the body:
/// type (1, `1` = events), flags (1), reserved (2), event count (4), first sequence number (8), commit time
/// in nanoseconds since 1970 (8), the event records, and the 32-byte chain value
/// `SHA-256(previous chain ‖ frame bytes from the length field to the end of the records)`, or
/// `HMAC-SHA-256(key, …)` of the same bytes in a keyed log.
/// Each record is a varint length and an ``EventRecord``.
enum Frame {
  static let prefixSize = 8
  static let fixedBodySize = 24
  static let chainSize = 32
  static let minimumBodySize = fixedBodySize + chainSize
  /// Bounds the allocation a damaged length field could cause.
  static let maximumBodySize = 16 << 20
  /// Groups are cut before their records pass this size, well under the maximum.
  static let targetRecordBytes = 1 << 20
  static let eventsType: UInt8 = 1

  /// The bytes of a frame holding `records` (each already length-prefixed) and its chain value.
  static func build(
    records: [UInt8], count: UInt32, firstSequence: UInt64, commitTime: Int64, previousChain: SHA256.Digest,
    key: ChainKey? = nil
  ) -> (bytes: [UInt8], chain: SHA256.Digest) {
    var writer = ByteWriter(capacity: prefixSize + fixedBodySize + records.count + chainSize)
    writer.u32(0)
    appendHashed(
      records: records, count: count, firstSequence: firstSequence, commitTime: commitTime, to: &writer)
    let chain = chainValue(previous: previousChain, hashed: writer.bytes[4...], key: key)
    writer.append(chain)
    writer.patchU32(CRC32C.mask(CRC32C.checksum(writer.bytes[4...])), at: 0)
    return (writer.bytes, chain)
  }

  /// Appends the bytes a frame's chain value covers: the length field (counting the chain value that
  /// follows), the fixed body fields and the `records` (each already length-prefixed).
  static func appendHashed(
    records: some Collection<UInt8>, count: UInt32, firstSequence: UInt64, commitTime: Int64,
    to writer: inout ByteWriter
  ) {
    writer.u32(UInt32(fixedBodySize + records.count + chainSize))
    writer.u8(eventsType)
    writer.u8(0)
    writer.u16(0)
    writer.u32(count)
    writer.u64(firstSequence)
    writer.u64(UInt64(bitPattern: commitTime))
    writer.append(records)
  }

  /// The chain step: SHA-256, or HMAC-SHA-256 under `key` in a keyed log.
  static func chainValue(previous: SHA256.Digest, hashed: ArraySlice<UInt8>, key: ChainKey? = nil)
    -> SHA256.Digest
  {
    if let key {
      var mac = key.mac
      previous.withUnsafeBytes { mac.update($0) }
      mac.update(hashed)
      return mac.finalize()
    }
    var hasher = SHA256()
    previous.withUnsafeBytes { hasher.update($0) }
    hasher.update(hashed)
    return hasher.finalize()
  }

  /// A frame that passed its checksum and whose body is well formed.
  struct Parsed {
    var offset: Int
    var totalSize: Int
    var count: UInt32
    var firstSequence: UInt64
    var commitTime: Int64
    /// Byte ranges of the records' contents (after their length prefixes).
    var records: [Range<Int>]
    var storedChain: SHA256.Digest
    /// The bytes the chain value covers.
    var hashed: Range<Int>
  }

  /// What was found at an offset.
  enum Parse {
    case frame(Parsed)
    /// Fewer bytes than the header, or a length running past the end: the writer stopped mid-frame.
    case incomplete
    /// Nothing but zero bytes from here on: preallocated or never-written space.
    case zeros
    /// A length outside the allowed bounds.
    case badLength
    /// The checksum does not match.
    case badChecksum
    /// The checksum matches but the contents do not make sense: not a torn write.
    case malformed(String)

    var reason: String {
      switch self {
      case .frame: "valid frame"
      case .incomplete: "incomplete frame"
      case .zeros: "zero-filled tail"
      case .badLength: "frame length out of bounds"
      case .badChecksum: "frame checksum mismatch"
      case .malformed(let why): why
      }
    }
  }

  static func parse(_ bytes: [UInt8], at offset: Int, detectZeros: Bool = true) -> Parse {
    let remaining = bytes.count - offset
    if detectZeros {
      let looksEmpty = bytes[offset..<min(bytes.count, offset + prefixSize)].allSatisfy { $0 == 0 }
      if looksEmpty && bytes[offset...].allSatisfy({ $0 == 0 }) { return .zeros }
    }
    guard remaining >= prefixSize else { return .incomplete }
    var reader = ByteReader(bytes, from: offset)
    guard let storedCRC = try? reader.u32(), let length = try? reader.u32() else { return .incomplete }
    guard length >= minimumBodySize, length <= maximumBodySize else { return .badLength }
    guard Int(length) <= remaining - prefixSize else { return .incomplete }
    let end = offset + prefixSize + Int(length)
    guard CRC32C.checksum(bytes[(offset + 4)..<end]) == CRC32C.unmask(storedCRC) else { return .badChecksum }
    do {
      var body = ByteReader(bytes, from: offset + prefixSize, end: end - chainSize)
      let type = try body.u8()
      guard type == eventsType else { return .malformed("unknown frame type \(type)") }
      _ = try body.u8()
      _ = try body.u16()
      let count = try body.u32()
      let first = try body.u64()
      let time = Int64(bitPattern: try body.u64())
      // A record takes more than two bytes, which bounds the ranges allocated below.
      guard count > 0, Int(count) <= body.remaining / 2 else { return .malformed("bad event count \(count)") }
      var records: [Range<Int>] = []
      records.reserveCapacity(Int(count))
      for _ in 0..<count {
        let size = try body.length()
        let start = body.offset
        _ = try body.bytes(size)
        records.append(start..<(start + size))
      }
      guard body.isAtEnd else { return .malformed("bytes after the last event record") }
      return .frame(
        Parsed(
          offset: offset, totalSize: prefixSize + Int(length), count: count, firstSequence: first,
          commitTime: time,
          records: records, storedChain: SHA256.Digest(bytes: bytes[(end - chainSize)..<end]),
          hashed: (offset + 4)..<(end - chainSize)))
    } catch {
      return .malformed("event records overrun the frame")
    }
  }
}
