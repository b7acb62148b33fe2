import Foundation

/// The cut record `cut.anchor`: where a log cut by retention starts, and the chain value it continues.
///
/// Written beside the segments (temp file, sync, rename, directory sync) before any segment is removed, so
/// at every moment of a cut the directory holds either the old record with every segment, or the new
/// record with segments it accounts for (see Docs/Persistence.md, "Retention").
///
/// Layout (little-endian): magic "RWNDCUT\0" (8), version (4), flags (4; bit 0: keyed), log id (16),
/// through sequence K (8), chain value after K (32), cut time in nanoseconds since 1970 (8), events cut
/// (8), bytes cut (8), segments cut (8); for a keyed log the tag `HMAC-SHA-256(key, "rewind-cut" ‖ the
/// preceding bytes)` (32); masked CRC-32C of everything before it (4).
struct CutAnchor: Equatable, Sendable {
  static let fileName = "cut.anchor"
  static let magic: [UInt8] = Array("RWNDCUT\0".utf8)
  static let version: UInt32 = 1
  static let keyedFlag: UInt32 = 1
  static let unkeyedSize = 8 + 4 + 4 + 16 + 8 + 32 + 8 + 8 + 8 + 8 + 4
  static let keyedSize = unkeyedSize + 32

  var logID: [UInt8]
  /// The last event removed, K: the log starts at K + 1.
  var throughSequence: UInt64
  /// The chain value after event K: the first kept segment's header continues from it.
  var chain: SHA256.Digest
  /// When the cut was made, in nanoseconds since 1970.
  var cutTime: Int64
  /// Cumulative over every cut of the log.
  var eventsCut: UInt64
  var bytesCut: UInt64
  var segmentsCut: UInt64
  /// The HMAC tag read from a keyed log's record.
  var tag: SHA256.Digest?

  var isKeyed: Bool { tag != nil }

  /// The record's bytes, tagged under `key` when the log is keyed.
  func encoded(key: ChainKey?) -> [UInt8] {
    var writer = ByteWriter(capacity: Self.keyedSize)
    writer.append(body(keyed: key != nil))
    if let key { writer.append(Self.tag(writer.bytes, key: key)) }
    writer.u32(CRC32C.mask(CRC32C.checksum(writer.bytes)))
    return writer.bytes
  }

  /// The fields before the tag.
  private func body(keyed: Bool) -> [UInt8] {
    var writer = ByteWriter(capacity: Self.unkeyedSize)
    writer.append(Self.magic)
    writer.u32(Self.version)
    writer.u32(keyed ? Self.keyedFlag : 0)
    writer.append(logID)
    writer.u64(throughSequence)
    writer.append(chain)
    writer.u64(UInt64(bitPattern: cutTime))
    writer.u64(eventsCut)
    writer.u64(bytesCut)
    writer.u64(segmentsCut)
    return writer.bytes
  }

  private static func tag(_ body: [UInt8], key: ChainKey) -> SHA256.Digest {
    key.authenticate(ArraySlice("rewind-cut".utf8), body[...])
  }

  /// Parses a cut record and checks its checksum (its tag is checked by ``authenticate(key:)``).
  /// - Throws: ``FileJournalError/corruptedCut(reason:)`` for a damaged record.
  static func parse(_ bytes: [UInt8]) throws(FileJournalError) -> CutAnchor {
    guard bytes.count == unkeyedSize || bytes.count == keyedSize else {
      throw .corruptedCut(reason: "\(bytes.count) bytes, not the size of a cut record")
    }
    var tail = ByteReader(bytes, from: bytes.count - 4)
    guard let stored = try? tail.u32(), CRC32C.checksum(bytes[0..<(bytes.count - 4)]) == CRC32C.unmask(stored)
    else {
      throw .corruptedCut(reason: "checksum mismatch")
    }
    var reader = ByteReader(bytes, from: 0, end: bytes.count - 4)
    do {
      guard Array(try reader.bytes(8)) == magic else {
        throw FileJournalError.corruptedCut(reason: "bad magic")
      }
      let version = try reader.u32()
      guard version == Self.version else {
        throw FileJournalError.corruptedCut(reason: "unsupported version \(version)")
      }
      let flags = try reader.u32()
      let isKeyed = flags == keyedFlag
      guard flags == 0 || isKeyed, bytes.count == (isKeyed ? keyedSize : unkeyedSize) else {
        throw FileJournalError.corruptedCut(reason: "flags \(flags) do not fit the record's size")
      }
      var anchor = CutAnchor(
        logID: Array(try reader.bytes(16)), throughSequence: try reader.u64(),
        chain: SHA256.Digest(bytes: Array(try reader.bytes(32))),
        cutTime: Int64(bitPattern: try reader.u64()),
        eventsCut: try reader.u64(), bytesCut: try reader.u64(), segmentsCut: try reader.u64())
      if isKeyed { anchor.tag = SHA256.Digest(bytes: Array(try reader.bytes(32))) }
      return anchor
    } catch let error as FileJournalError {
      throw error
    } catch {
      throw .corruptedCut(reason: "truncated")
    }
  }

  /// Checks the record's tag against the key the log is opened with (`nil` for an unkeyed log).
  /// - Throws: ``FileJournalError/tamperedCut(reason:lastGoodSequence:)`` when the tag does not match, or
  ///   a keyed log's record carries none; ``FileJournalError/keyRequired(segment:)`` for a tagged record
  ///   of a log read without a key.
  func authenticate(key: ChainKey?) throws(FileJournalError) {
    switch (tag, key) {
    case (nil, nil): return
    case (nil, .some):
      // A keyed log's record without a tag: whoever wrote it did not hold the key.
      throw .tamperedCut(reason: "the record of a keyed log carries no HMAC tag", lastGoodSequence: 0)
    case (.some, nil): throw .keyRequired(segment: Self.fileName)
    case (.some(let stored), .some(let key)):
      guard stored == Self.tag(body(keyed: true), key: key) else {
        throw .tamperedCut(
          reason: "its HMAC-SHA-256 tag does not match (forged or edited)", lastGoodSequence: 0)
      }
    }
  }

  /// Reads `cut.anchor` in `directory`; `nil` when the log was never cut.
  static func load(directory: String, fileSystem: any LogFileSystem) throws(FileJournalError)
    -> CutAnchor?
  {
    let path = directory + "/" + fileName
    guard fileSystem.exists(path) else { return nil }
    let bytes: [UInt8]
    do {
      let file = try fileSystem.openForReading(path)
      defer { file.close() }
      bytes = try file.read(at: 0, count: keyedSize + 1)
    } catch {
      throw .io(error)
    }
    return try parse(bytes)
  }

  /// Replaces `cut.anchor` durably: temp file, sync, rename, directory sync.
  func write(directory: String, fileSystem: any LogFileSystem, key: ChainKey?) throws(IOError) {
    let temporary = directory + "/" + Self.fileName + ".tmp"
    let file = try fileSystem.open(temporary, create: true)
    defer { file.close() }
    try file.truncate(to: 0)
    try file.write(encoded(key: key), at: 0)
    try file.sync()
    try fileSystem.rename(temporary, to: directory + "/" + Self.fileName)
    try fileSystem.syncDirectory(directory)
  }

  /// The public summary.
  var summary: LogCut {
    LogCut(
      throughSequence: throughSequence, chain: chain.description,
      date: Date(timeIntervalSince1970: Double(cutTime) / 1e9), eventsCut: eventsCut, bytesCut: bytesCut,
      segmentsCut: segmentsCut, isKeyed: isKeyed)
  }
}
