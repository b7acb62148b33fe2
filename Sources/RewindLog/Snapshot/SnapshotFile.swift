/// A snapshot of the state on disk, tied to the log by sequence number and chain value.
///
/// File `snapshot-<sequence, 20 digits>.bin`. Layout (little-endian): magic "RWNDSNAP" (8), format version
/// (4), log id (16), sequence number (8), chain value of the frame holding that event (32), codec (1),
/// then in version 2 the position of that frame (``FramePosition``: segment's first sequence number (8),
/// frame offset (8), frame's first sequence number (8), chain value before the frame (32)), state length
/// (4), the encoded state, masked CRC-32C of everything before it (4).
///
/// The position lets an open start reading the log at the snapshot's frame instead of its first byte.
/// Version 1 files (no position) still load; opening from one scans the whole log.
struct SnapshotFile {
  static let magic: [UInt8] = Array("RWNDSNAP".utf8)
  static let version: UInt32 = 2
  static let versionWithoutPosition: UInt32 = 1
  /// The size of a version 1 file around its state; version 2 adds ``FramePosition/encodedSize``.
  static let fixedSizeWithoutPosition = 8 + 4 + 16 + 8 + 32 + 1 + 4 + 4
  static let fixedSize = fixedSizeWithoutPosition + FramePosition.encodedSize

  /// Where the frame holding the snapshot's event lies, and the chain value it continues from.
  struct FramePosition: Hashable {
    static let encodedSize = 8 + 8 + 8 + 32
    /// The first sequence number of the segment (which names its file).
    var segmentFirstSequence: UInt64
    var offset: UInt64
    /// The first event in the frame.
    var frameFirstSequence: UInt64
    /// The chain value before the frame: the scan starts from it.
    var previousChain: SHA256.Digest
  }

  var logID: [UInt8]
  var sequence: UInt64
  var chain: SHA256.Digest
  var codec: EventCodec
  /// `nil` for a version 1 file.
  var position: FramePosition?
  var state: [UInt8]

  var encoded: [UInt8] {
    var writer = ByteWriter(capacity: Self.fixedSize + state.count)
    writer.append(Self.magic)
    writer.u32(position == nil ? Self.versionWithoutPosition : Self.version)
    writer.append(logID)
    writer.u64(sequence)
    writer.append(chain.bytes)
    writer.u8(codec.rawValue)
    if let position {
      writer.u64(position.segmentFirstSequence)
      writer.u64(position.offset)
      writer.u64(position.frameFirstSequence)
      writer.append(position.previousChain.bytes)
    }
    writer.u32(UInt32(state.count))
    writer.append(state)
    writer.u32(CRC32C.mask(CRC32C.checksum(writer.bytes)))
    return writer.bytes
  }

  /// The size of the fields around the state in a file of `version`, or `nil` for an unknown version.
  static func fixedSize(version: UInt32) -> Int? {
    switch version {
    case versionWithoutPosition: fixedSizeWithoutPosition
    case Self.version: fixedSize
    default: nil
    }
  }

  static func parse(_ bytes: [UInt8]) -> Result<SnapshotFile, SnapshotRejection.Reason> {
    guard bytes.count >= fixedSizeWithoutPosition else { return .failure(.damaged("file too short")) }
    var tail = ByteReader(bytes, from: bytes.count - 4)
    guard let stored = try? tail.u32(), CRC32C.checksum(bytes[0..<(bytes.count - 4)]) == CRC32C.unmask(stored)
    else {
      return .failure(.damaged("checksum mismatch"))
    }
    var reader = ByteReader(bytes, from: 0, end: bytes.count - 4)
    do {
      guard Array(try reader.bytes(8)) == magic else { return .failure(.damaged("not a Rewind snapshot")) }
      let version = try reader.u32()
      guard fixedSize(version: version) != nil else {
        return .failure(.damaged("unsupported snapshot version"))
      }
      let logID = Array(try reader.bytes(16))
      let sequence = try reader.u64()
      let chain = SHA256.Digest(bytes: Array(try reader.bytes(32)))
      guard let codec = EventCodec(rawValue: try reader.u8()) else {
        return .failure(.damaged("unknown codec"))
      }
      var position: FramePosition?
      if version == Self.version {
        position = FramePosition(
          segmentFirstSequence: try reader.u64(), offset: try reader.u64(),
          frameFirstSequence: try reader.u64(),
          previousChain: SHA256.Digest(bytes: Array(try reader.bytes(32))))
      }
      let count = Int(try reader.u32())
      let state = Array(try reader.bytes(count))
      guard reader.isAtEnd else { return .failure(.damaged("bytes after the state")) }
      return .success(
        SnapshotFile(
          logID: logID, sequence: sequence, chain: chain, codec: codec, position: position, state: state))
    } catch {
      return .failure(.damaged("truncated"))
    }
  }

  /// Reads and parses the snapshot file at `path`, checking its size, header and checksum through bounded
  /// buffers before the state is read: a damaged or stretched file costs no more memory than a chunk.
  /// - Returns: the file's size and the parsed snapshot or why it cannot be used.
  /// - Throws: `IOError` when the file cannot be read.
  static func load(_ path: String, fileSystem: any LogFileSystem) throws(IOError)
    -> (bytes: UInt64, snapshot: Result<SnapshotFile, SnapshotRejection.Reason>)
  {
    let file = try fileSystem.openForReading(path)
    defer { file.close() }
    let size = try file.size()
    guard size >= UInt64(fixedSizeWithoutPosition) else {
      return (size, .failure(.damaged("file too short")))
    }
    // The fixed fields before the state; the state length must account for the rest of the file exactly.
    var reader = ByteReader(try file.read(at: 0, count: 12))
    guard let magic = try? reader.bytes(8), Array(magic) == Self.magic else {
      return (size, .failure(.damaged("not a Rewind snapshot")))
    }
    guard let version = try? reader.u32(), let fixed = fixedSize(version: version) else {
      return (size, .failure(.damaged("unsupported snapshot version")))
    }
    guard size >= UInt64(fixed) else { return (size, .failure(.damaged("file too short"))) }
    var lengthReader = ByteReader(try file.read(at: UInt64(fixed - 8), count: 4))
    guard let length = try? lengthReader.u32(), UInt64(length) + UInt64(fixed) == size else {
      return (size, .failure(.damaged("the state length does not match the file size")))
    }
    var crc: UInt32 = 0
    var position: UInt64 = 0
    while position < size - 4 {
      let chunk = try file.read(
        at: position, count: Int(min(UInt64(SegmentReader.chunkSize), size - 4 - position)))
      guard !chunk.isEmpty else { return (size, .failure(.damaged("truncated"))) }
      crc = chunk.withUnsafeBytes { CRC32C.checksum($0, continuing: crc) }
      position += UInt64(chunk.count)
    }
    var tail = ByteReader(try file.read(at: size - 4, count: 4))
    guard let stored = try? tail.u32(), CRC32C.unmask(stored) == crc else {
      return (size, .failure(.damaged("checksum mismatch")))
    }
    return (size, parse(try file.read(at: 0, count: Int(size))))
  }

  /// How snapshot files are named.
  private static let naming = NumberedFileName(prefix: "snapshot-", suffix: ".bin")

  static func fileName(sequence: UInt64) -> String { naming.name(sequence) }

  static func sequence(fromFileName name: String) -> UInt64? { naming.number(in: name) }

  /// The newest snapshot file in `directory` that reads back whole (checksum and layout), if any.
  static func newestReadable(in directory: String, fileSystem: any LogFileSystem) -> SnapshotFile? {
    for (name, sequence) in files(in: directory, fileSystem: fileSystem) {
      guard let loaded = try? load(directory + "/" + name, fileSystem: fileSystem).snapshot,
        case .success(let snapshot) = loaded, snapshot.sequence == sequence
      else { continue }
      return snapshot
    }
    return nil
  }

  /// The snapshot files in `directory` with their sequence numbers, newest first (none if it cannot be read).
  static func files(in directory: String, fileSystem: any LogFileSystem) -> [(name: String, sequence: UInt64)]
  {
    ((try? fileSystem.contents(of: directory)) ?? [])
      .compactMap { name in sequence(fromFileName: name).map { (name, $0) } }
      .sorted { $0.sequence > $1.sequence }
  }
}

/// A snapshot that opening did not use, and why.
public struct SnapshotRejection: Sendable, Hashable, CustomStringConvertible {
  /// Why a snapshot was passed over.
  public enum Reason: Error, Hashable, CustomStringConvertible {
    /// The file is damaged (checksum, size or header).
    case damaged(String)
    /// It belongs to another log, or names events or a chain value the log does not have.
    case mismatch(String)
    /// The state does not decode as the app's state type.
    case undecodable(String)

    public var description: String {
      switch self {
      case .damaged(let why): "damaged: \(why)"
      case .mismatch(let why): "does not match the log: \(why)"
      case .undecodable(let why): "state cannot be decoded: \(why)"
      }
    }
  }

  /// The snapshot file.
  public var file: String
  /// Why it was not used.
  public var reason: Reason

  public var description: String { "\(file) \(reason)" }
}

/// Which snapshot restored the state, and which were passed over.
public struct SnapshotRecovery: Sendable, Hashable, CustomStringConvertible {
  /// The sequence number of the snapshot used, or `nil` for a full replay.
  public var usedSequence: UInt64?
  /// Newer snapshots that could not be used, newest first.
  public var rejected: [SnapshotRejection]

  /// The same recovery, after a replay from the snapshot failed with `error` and the whole log was replayed.
  @usableFromInline
  package func replayedInstead(because error: any Error) -> SnapshotRecovery {
    guard let usedSequence else { return self }
    let passedOver = SnapshotRejection(
      file: SnapshotFile.fileName(sequence: usedSequence),
      reason: .mismatch("the events after it cannot be replayed from it: \(error)"))
    return SnapshotRecovery(usedSequence: nil, rejected: rejected + [passedOver])
  }

  public var description: String {
    let used = usedSequence.map { "restored from the snapshot at event \($0)" } ?? "full replay"
    return rejected.isEmpty
      ? used : used + "; passed over: " + rejected.map(\.description).joined(separator: "; ")
  }
}

extension ScanStart {
  /// A scan that starts at the frame a snapshot records.
  init(_ position: SnapshotFile.FramePosition) {
    self.init(
      segmentFirstSequence: position.segmentFirstSequence, offset: position.offset,
      frameFirstSequence: position.frameFirstSequence, previousChain: position.previousChain)
  }
}
