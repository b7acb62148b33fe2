/// The bytes of a bug report file (`.rwreport`).
///
/// Layout (little-endian): magic `RWNDRPRT` (8), format version (4), then four parts, each a byte count
/// (4) and the bytes: the metadata (``ReportMetadata`` in the binary codec), the start state (the state
/// as of the event before the first, in the metadata's state codec; empty when the report starts at
/// event 1), the end state (as of the last event; empty when there is none), and the frames; last, the
/// SHA-256 of everything before it (32), which a reader checks before it reads anything else.
///
/// Frames: a count (varint), then for each its first sequence number (8), commit time (8), record count
/// (varint), the records (each a varint length and the record's bytes, as in a segment file), and its
/// chain value (32): `SHA-256(previous ‖ frame)` over the frame as a segment holds it, continuing from
/// ``ReportMetadata/anchor``, so that a report of an unkeyed log with nothing redacted holds the log's own
/// chain values.
struct ReportFile {
  static let magic: [UInt8] = Array("RWNDRPRT".utf8)
  static let version: UInt32 = 1
  /// Magic, version, four part lengths and the seal.
  static let minimumSize = 8 + 4 + 4 * 4 + 32
  /// The magic and the version: what a reader checks before it reads the rest.
  static let headerSize = 8 + 4

  /// Checks a report's first ``headerSize`` bytes: the magic, then the format version.
  /// - Throws: ``ReportError/notAReport(path:)`` (with an empty path) or ``ReportError/unsupportedVersion(_:)``.
  static func checkHeader(_ header: [UInt8]) throws(ReportError) {
    guard header.count >= headerSize, Array(header[0..<8]) == magic else { throw .notAReport(path: "") }
    var reader = ByteReader(header, from: 8, end: headerSize)
    guard let version = try? reader.u32() else { throw .notAReport(path: "") }
    guard version == Self.version else { throw .unsupportedVersion(version) }
  }

  var metadata: ReportMetadata
  var baseState: [UInt8]
  var endState: [UInt8]
  var frames: [ChainedFrame]

  /// The file's bytes.
  func encoded() throws -> [UInt8] {
    var writer = ByteWriter(capacity: 4096)
    writer.append(Self.magic)
    writer.u32(Self.version)
    let metadataBytes = try BinaryEncoder().encode(metadata)
    for part in [metadataBytes, baseState, endState] {
      writer.u32(UInt32(part.count))
      writer.append(part)
    }
    var framesPart = ByteWriter(capacity: 4096)
    framesPart.varint(UInt64(frames.count))
    for frame in frames {
      framesPart.u64(frame.firstSequence)
      framesPart.u64(UInt64(bitPattern: frame.commitTime))
      framesPart.varint(UInt64(frame.records.count))
      for record in frame.records {
        framesPart.varint(UInt64(record.count))
        framesPart.append(record)
      }
      framesPart.append(frame.chain.bytes)
    }
    writer.u32(UInt32(framesPart.bytes.count))
    writer.append(framesPart.bytes)
    writer.append(SHA256.hash(writer.bytes).bytes)
    return writer.bytes
  }

  /// Parses a report's bytes: magic and version, the seal, then the parts. Nothing here trusts a
  /// length: each is checked against the bytes that remain.
  /// - Throws: ``ReportError/notAReport(path:)`` (with an empty path), ``ReportError/unsupportedVersion(_:)``
  ///   or ``ReportError/damaged(_:)``.
  static func parse(_ bytes: [UInt8]) throws(ReportError) -> ReportFile {
    guard bytes.count >= minimumSize else { throw .notAReport(path: "") }
    try checkHeader(Array(bytes.prefix(headerSize)))
    var reader = ByteReader(bytes, from: headerSize, end: bytes.count - 32)
    let sealed = bytes[0..<(bytes.count - 32)]
    guard SHA256.hash(sealed).bytes == Array(bytes[(bytes.count - 32)...]) else {
      throw .damaged("its checksum (SHA-256) does not match its contents")
    }
    do {
      let metadataBytes = try part(&reader)
      let metadata: ReportMetadata
      do { metadata = try BinaryDecoder().decode(ReportMetadata.self, from: Array(metadataBytes)) } catch {
        throw ReportError.damaged("its metadata does not decode: \(error)")
      }
      let baseState = Array(try part(&reader))
      let endState = Array(try part(&reader))
      let framesLength = Int(try reader.u32())
      guard framesLength <= reader.remaining else { throw ReportError.damaged("its frames run past its end") }
      var frameReader = ByteReader(bytes, from: reader.offset, end: reader.offset + framesLength)
      let frames = try parseFrames(&frameReader)
      _ = try reader.bytes(framesLength)
      guard reader.isAtEnd else { throw ReportError.damaged("bytes after its frames") }
      return ReportFile(metadata: metadata, baseState: baseState, endState: endState, frames: frames)
    } catch let error as ReportError {
      throw error
    } catch {
      throw .damaged("\(error)")
    }
  }

  /// One length-prefixed part.
  private static func part(_ reader: inout ByteReader) throws -> ArraySlice<UInt8> {
    let count = Int(try reader.u32())
    return try reader.bytes(count)
  }

  private static func parseFrames(_ reader: inout ByteReader) throws -> [ChainedFrame] {
    // A frame takes at least 8 + 8 + 1 + 2 + 32 bytes: that bounds the count before anything is
    // allocated for it, as the record bound below does for records.
    let count = try reader.length(unit: 51)
    var frames: [ChainedFrame] = []
    frames.reserveCapacity(count)
    for _ in 0..<count {
      let first = try reader.u64()
      let time = Int64(bitPattern: try reader.u64())
      let recordCount = try reader.length(unit: 2)
      // Event numbers start at 1, and the one after a frame's last must be a number too: a crafted
      // report (its seal is a plain SHA-256 anyone can recompute) must not overflow the arithmetic on them.
      guard first >= 1, first <= UInt64.max - UInt64(recordCount) else {
        throw ReportError.damaged("a frame's events are numbered outside 1...\(UInt64.max - 1)")
      }
      var records: [[UInt8]] = []
      records.reserveCapacity(recordCount)
      for _ in 0..<recordCount { records.append(Array(try reader.bytes(try reader.length()))) }
      let chain = SHA256.Digest(bytes: Array(try reader.bytes(32)))
      frames.append(ChainedFrame(firstSequence: first, commitTime: time, records: records, chain: chain))
    }
    guard reader.isAtEnd else { throw ReportError.damaged("bytes after the last frame") }
    return frames
  }
}

extension ChainedFrame {
  /// The frame with its chain value computed over its bytes after `previous`: how a report chains its
  /// frames, whether or not their records were redacted.
  func chained(after previous: SHA256.Digest) -> ChainedFrame {
    let (bytes, parsed) = encoded
    var copy = self
    copy.chain = Frame.chainValue(previous: previous, hashed: bytes[parsed.hashed])
    return copy
  }

  /// The sequence number of the frame's last event.
  var lastSequence: UInt64 { firstSequence + UInt64(records.count) - 1 }
}
