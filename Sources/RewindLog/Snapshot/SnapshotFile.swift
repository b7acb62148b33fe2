/// A snapshot of the state on disk, tied to the log by sequence number and chain value.
///
/// File `snapshot-<sequence, 20 digits>.bin`; all integers little-endian. Version 3 (written now):
///
/// | field | size |
/// |---|---|
/// | magic "RWNDSNAP" | 8 |
/// | format version (3) | 4 |
/// | log id | 16 |
/// | sequence number | 8 |
/// | chain value of the frame holding that event | 32 |
/// | codec (`EventCodec`) | 1 |
/// | flags: bit 0 the frame position is set, bit 1 the state was written by ``BinaryCodable`` | 1 |
/// | position of that frame (``FramePosition``), zeros when unset | 56 |
/// | state length | 8 |
/// | masked CRC-32C of the header so far | 4 |
/// | the encoded state | length |
/// | masked CRC-32C of the state | 4 |
///
/// The header has its own checksum, so an open can trust it (and start reading the log at the frame it
/// names) without reading the state; the state's checksum is checked as the state is decoded, a window at
/// a time. Versions 1 and 2 (one checksum over everything at the end; a 4-byte state length after the
/// codec, version 2 with the position before it) still load: their state is read whole, then decoded.
///
/// The position lets an open start reading the log at the snapshot's frame instead of its first byte;
/// opening from a version 1 file (no position) scans the whole log.
struct SnapshotFile {
  static let magic: [UInt8] = Array("RWNDSNAP".utf8)
  static let version: UInt32 = 3
  static let versionWithPosition: UInt32 = 2
  static let versionWithoutPosition: UInt32 = 1
  /// The size of a version 1 file around its state; version 2 adds ``FramePosition/encodedSize``.
  static let fixedSizeWithoutPosition = 8 + 4 + 16 + 8 + 32 + 1 + 4 + 4
  static let fixedSizeWithPosition = fixedSizeWithoutPosition + FramePosition.encodedSize
  /// The size of a version 3 header, its checksum included; the state follows it.
  static let headerSize = 8 + 4 + 16 + 8 + 32 + 1 + 1 + FramePosition.encodedSize + 8 + 4
  /// The size of a version 3 file around its state.
  static let fixedSize = headerSize + 4

  /// The flags of a version 3 header.
  enum Flag {
    static let hasPosition: UInt8 = 1
    static let binaryCodable: UInt8 = 2
    static let all: UInt8 = hasPosition | binaryCodable
  }

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

  /// The format version the file was read as, or is written as.
  var version = Self.version
  var logID: [UInt8]
  var sequence: UInt64
  var chain: SHA256.Digest
  var codec: EventCodec
  /// `nil` for a version 1 file.
  var position: FramePosition?
  /// Whether the state was written by its ``BinaryCodable`` conformance (version 3), so that it can be read
  /// back the same way.
  var isBinaryCodable = false
  /// The encoded state; empty when only the header was read (then `stateRange` says where it lies).
  var state: [UInt8]
  /// Where the state lies in the file, when only the header of a version 3 file was read.
  var stateRange: Range<UInt64>?

  /// The file's bytes: version 3 unless `version` says otherwise (tests write the older versions).
  var encoded: [UInt8] {
    guard version == Self.version else { return encodedBeforeVersion3 }
    var writer = ByteWriter(capacity: Self.fixedSize + state.count)
    writer.append(header(stateLength: state.count))
    writer.append(state)
    writer.u32(CRC32C.mask(CRC32C.checksum(state)))
    return writer.bytes
  }

  /// The version 3 header of a state of `stateLength` bytes, its checksum included.
  func header(stateLength: Int) -> [UInt8] {
    var writer = ByteWriter(capacity: Self.headerSize)
    writer.append(Self.magic)
    writer.u32(Self.version)
    writer.append(logID)
    writer.u64(sequence)
    writer.append(chain.bytes)
    writer.u8(codec.rawValue)
    writer.u8((position == nil ? 0 : Flag.hasPosition) | (isBinaryCodable ? Flag.binaryCodable : 0))
    writer.u64(position?.segmentFirstSequence ?? 0)
    writer.u64(position?.offset ?? 0)
    writer.u64(position?.frameFirstSequence ?? 0)
    writer.append(position?.previousChain.bytes ?? [UInt8](repeating: 0, count: 32))
    writer.u64(UInt64(stateLength))
    writer.u32(CRC32C.mask(CRC32C.checksum(writer.bytes)))
    return writer.bytes
  }

  /// A version 1 or 2 file (by `position`): one checksum over everything, at the end.
  private var encodedBeforeVersion3: [UInt8] {
    var writer = ByteWriter(capacity: Self.fixedSizeWithPosition + state.count)
    writer.append(Self.magic)
    writer.u32(position == nil ? Self.versionWithoutPosition : Self.versionWithPosition)
    writer.append(logID)
    writer.u64(sequence)
    writer.append(chain)
    writer.u8(codec.rawValue)
    if let position {
      writer.u64(position.segmentFirstSequence)
      writer.u64(position.offset)
      writer.u64(position.frameFirstSequence)
      writer.append(position.previousChain)
    }
    writer.u32(UInt32(state.count))
    writer.append(state)
    writer.u32(CRC32C.mask(CRC32C.checksum(writer.bytes)))
    return writer.bytes
  }

  /// The size of the fields around the state in a version 1 or 2 file, or `nil` for another version.
  static func fixedSizeBeforeVersion3(version: UInt32) -> Int? {
    switch version {
    case versionWithoutPosition: fixedSizeWithoutPosition
    case versionWithPosition: fixedSizeWithPosition
    default: nil
    }
  }

  /// Parses a whole snapshot file of any version, checking its checksums.
  static func parse(_ bytes: [UInt8]) -> Result<SnapshotFile, SnapshotRejection.Reason> {
    guard bytes.count >= 12 else { return .failure(.damaged("file too short")) }
    guard Array(bytes[0..<8]) == magic else { return .failure(.damaged("not a Rewind snapshot")) }
    var versionReader = ByteReader(bytes, from: 8)
    guard (try? versionReader.u32()) == version else { return parseBeforeVersion3(bytes) }
    guard bytes.count >= fixedSize else { return .failure(.damaged("file too short")) }
    let parsed = parseHeader(Array(bytes[0..<headerSize]), fileSize: UInt64(bytes.count))
    guard case .success(var snapshot) = parsed, let range = snapshot.stateRange else { return parsed }
    let state = Array(bytes[Int(range.lowerBound)..<Int(range.upperBound)])
    var tail = ByteReader(bytes, from: Int(range.upperBound))
    guard let stored = try? tail.u32(), CRC32C.unmask(stored) == CRC32C.checksum(state) else {
      return .failure(.damaged("checksum mismatch"))
    }
    snapshot.state = state
    snapshot.stateRange = nil
    return .success(snapshot)
  }

  /// Parses the version 3 header in `bytes` (``headerSize`` of them) of a file of `fileSize` bytes: the
  /// snapshot without its state, `stateRange` saying where the state lies.
  static func parseHeader(_ bytes: [UInt8], fileSize: UInt64) -> Result<
    SnapshotFile, SnapshotRejection.Reason
  > {
    guard bytes.count == headerSize else { return .failure(.damaged("file too short")) }
    var tail = ByteReader(bytes, from: headerSize - 4)
    guard let stored = try? tail.u32(), CRC32C.unmask(stored) == CRC32C.checksum(bytes[0..<(headerSize - 4)])
    else {
      return .failure(.damaged("header checksum mismatch"))
    }
    var reader = ByteReader(bytes, from: 12, end: headerSize - 4)
    do {
      let logID = Array(try reader.bytes(16))
      let sequence = try reader.u64()
      let chain = SHA256.Digest(bytes: Array(try reader.bytes(32)))
      guard let codec = EventCodec(rawValue: try reader.u8()) else {
        return .failure(.damaged("unknown codec"))
      }
      let flags = try reader.u8()
      guard flags & ~Flag.all == 0 else { return .failure(.damaged("unknown flags \(flags)")) }
      let position = FramePosition(
        segmentFirstSequence: try reader.u64(), offset: try reader.u64(),
        frameFirstSequence: try reader.u64(),
        previousChain: SHA256.Digest(bytes: Array(try reader.bytes(32))))
      let length = try reader.u64()
      guard length <= UInt64.max - UInt64(fixedSize), length + UInt64(fixedSize) == fileSize else {
        return .failure(.damaged("the state length does not match the file size"))
      }
      return .success(
        SnapshotFile(
          version: version, logID: logID, sequence: sequence, chain: chain, codec: codec,
          position: flags & Flag.hasPosition != 0 ? position : nil,
          isBinaryCodable: flags & Flag.binaryCodable != 0, state: [],
          stateRange: UInt64(headerSize)..<(UInt64(headerSize) + length)))
    } catch {
      return .failure(.damaged("truncated"))
    }
  }

  /// Parses a whole version 1 or 2 file.
  private static func parseBeforeVersion3(_ bytes: [UInt8]) -> Result<SnapshotFile, SnapshotRejection.Reason>
  {
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
      guard fixedSizeBeforeVersion3(version: version) != nil else {
        return .failure(.damaged("unsupported snapshot version"))
      }
      let logID = Array(try reader.bytes(16))
      let sequence = try reader.u64()
      let chain = SHA256.Digest(bytes: Array(try reader.bytes(32)))
      guard let codec = EventCodec(rawValue: try reader.u8()) else {
        return .failure(.damaged("unknown codec"))
      }
      var position: FramePosition?
      if version == versionWithPosition {
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
          version: version, logID: logID, sequence: sequence, chain: chain, codec: codec, position: position,
          state: state))
    } catch {
      return .failure(.damaged("truncated"))
    }
  }

  /// Reads and parses the snapshot file at `path`, state included, checking its size, header and checksum
  /// through bounded buffers before the state is read: a damaged or stretched file costs no more memory
  /// than a chunk. For tools; an open reads the state as it decodes it (``loadHeader(_:fileSystem:checkingState:)``).
  /// - Returns: the file's size and the parsed snapshot or why it cannot be used.
  /// - Throws: `IOError` when the file cannot be read.
  static func load(_ path: String, fileSystem: any LogFileSystem) throws(IOError)
    -> (bytes: UInt64, snapshot: Result<SnapshotFile, SnapshotRejection.Reason>)
  {
    let (size, header) = try loadHeader(path, fileSystem: fileSystem, checkingState: true)
    guard case .success(let snapshot) = header, snapshot.stateRange != nil else { return (size, header) }
    let file = try fileSystem.openForReading(path)
    defer { file.close() }
    return (size, parse(try file.read(at: 0, count: Int(size))))
  }

  /// Reads the header of the snapshot file at `path`, checking it and the file's size; a version 3 file's
  /// state is left on disk (`stateRange`), its checksum checked, streamed, when `checkingState`. Version 1
  /// and 2 files are read whole, after the checks of ``load(_:fileSystem:)``.
  /// - Returns: the file's size and the snapshot or why it cannot be used.
  /// - Throws: `IOError` when the file cannot be read.
  static func loadHeader(_ path: String, fileSystem: any LogFileSystem, checkingState: Bool) throws(IOError)
    -> (bytes: UInt64, snapshot: Result<SnapshotFile, SnapshotRejection.Reason>)
  {
    let file = try fileSystem.openForReading(path)
    defer { file.close() }
    let size = try file.size()
    guard size >= 12 else { return (size, .failure(.damaged("file too short"))) }
    var reader = ByteReader(try file.read(at: 0, count: 12))
    guard let magic = try? reader.bytes(8), Array(magic) == Self.magic else {
      return (size, .failure(.damaged("not a Rewind snapshot")))
    }
    guard let version = try? reader.u32() else { return (size, .failure(.damaged("file too short"))) }
    if version != Self.version { return (size, try loadBeforeVersion3(file, size: size, version: version)) }
    guard size >= UInt64(fixedSize) else { return (size, .failure(.damaged("file too short"))) }
    let parsed = parseHeader(try file.read(at: 0, count: headerSize), fileSize: size)
    guard checkingState, case .success(let snapshot) = parsed, let range = snapshot.stateRange else {
      return (size, parsed)
    }
    let state = SnapshotStateReader(file: file, path: path, range: range)
    if let damage = try state.damage() { return (size, .failure(damage)) }
    return (size, parsed)
  }

  /// A version 1 or 2 file, read whole once its size, header and checksum were checked, streamed.
  private static func loadBeforeVersion3(_ file: any LogFile, size: UInt64, version: UInt32) throws(IOError)
    -> Result<SnapshotFile, SnapshotRejection.Reason>
  {
    guard let fixed = fixedSizeBeforeVersion3(version: version) else {
      return .failure(.damaged("unsupported snapshot version"))
    }
    guard size >= UInt64(fixed) else { return .failure(.damaged("file too short")) }
    // The state length must account for the rest of the file exactly.
    var lengthReader = ByteReader(try file.read(at: UInt64(fixed - 8), count: 4))
    guard let length = try? lengthReader.u32(), UInt64(length) + UInt64(fixed) == size else {
      return .failure(.damaged("the state length does not match the file size"))
    }
    var crc: UInt32 = 0
    var position: UInt64 = 0
    while position < size - 4 {
      let chunk = try file.read(
        at: position, count: Int(min(UInt64(SegmentReader.chunkSize), size - 4 - position)))
      guard !chunk.isEmpty else { return .failure(.damaged("truncated")) }
      crc = chunk.withUnsafeBytes { CRC32C.checksum($0, continuing: crc) }
      position += UInt64(chunk.count)
    }
    var tail = ByteReader(try file.read(at: size - 4, count: 4))
    guard let stored = try? tail.u32(), CRC32C.unmask(stored) == crc else {
      return .failure(.damaged("checksum mismatch"))
    }
    return parse(try file.read(at: 0, count: Int(size)))
  }

  /// How snapshot files are named.
  private static let naming = NumberedFileName(prefix: "snapshot-", suffix: ".bin")

  static func fileName(sequence: UInt64) -> String { naming.name(sequence) }

  static func sequence(fromFileName name: String) -> UInt64? { naming.number(in: name) }

  /// The newest snapshot file in `directory` whose header reads back (checksum and layout; version 1 and 2
  /// files, whose one checksum covers the state, are read whole), if any: where an open starts reading.
  static func newestReadable(in directory: String, fileSystem: any LogFileSystem) -> SnapshotFile? {
    for (name, sequence) in files(in: directory, fileSystem: fileSystem) {
      guard
        let loaded = try? loadHeader(directory + "/" + name, fileSystem: fileSystem, checkingState: false)
          .snapshot,
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
