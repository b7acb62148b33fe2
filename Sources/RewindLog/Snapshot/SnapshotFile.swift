/// A snapshot of the state on disk, tied to the log by sequence number and chain value.
///
/// File `snapshot-<sequence, 20 digits>.bin`. Layout (little-endian): magic "RWNDSNAP" (8), format version
/// (4), log id (16), sequence number (8), chain value of the frame holding that event (32), codec (1),
/// state length (4), the encoded state, masked CRC-32C of everything before it (4).
struct SnapshotFile {
  static let magic: [UInt8] = Array("RWNDSNAP".utf8)
  static let version: UInt32 = 1
  static let fixedSize = 8 + 4 + 16 + 8 + 32 + 1 + 4 + 4

  var logID: [UInt8]
  var sequence: UInt64
  var chain: SHA256.Digest
  var codec: EventCodec
  var state: [UInt8]

  var encoded: [UInt8] {
    var writer = ByteWriter(capacity: Self.fixedSize + state.count)
    writer.append(Self.magic)
    writer.u32(Self.version)
    writer.append(logID)
    writer.u64(sequence)
    writer.append(chain.bytes)
    writer.u8(codec.rawValue)
    writer.u32(UInt32(state.count))
    writer.append(state)
    writer.u32(CRC32C.mask(CRC32C.checksum(writer.bytes)))
    return writer.bytes
  }

  static func parse(_ bytes: [UInt8]) -> Result<SnapshotFile, SnapshotRejection.Reason> {
    guard bytes.count >= fixedSize else { return .failure(.damaged("file too short")) }
    var tail = ByteReader(bytes, from: bytes.count - 4)
    guard let stored = try? tail.u32(), CRC32C.checksum(bytes[0..<(bytes.count - 4)]) == CRC32C.unmask(stored)
    else {
      return .failure(.damaged("checksum mismatch"))
    }
    var reader = ByteReader(bytes, from: 0, end: bytes.count - 4)
    do {
      guard Array(try reader.bytes(8)) == magic else { return .failure(.damaged("not a Rewind snapshot")) }
      guard try reader.u32() == version else { return .failure(.damaged("unsupported snapshot version")) }
      let logID = Array(try reader.bytes(16))
      let sequence = try reader.u64()
      let chain = SHA256.Digest(bytes: Array(try reader.bytes(32)))
      guard let codec = EventCodec(rawValue: try reader.u8()) else {
        return .failure(.damaged("unknown codec"))
      }
      let count = Int(try reader.u32())
      let state = Array(try reader.bytes(count))
      guard reader.isAtEnd else { return .failure(.damaged("bytes after the state")) }
      return .success(
        SnapshotFile(logID: logID, sequence: sequence, chain: chain, codec: codec, state: state))
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
    guard size >= UInt64(fixedSize) else { return (size, .failure(.damaged("file too short"))) }
    // The fixed fields before the state; the state length must account for the rest of the file exactly.
    var reader = ByteReader(try file.read(at: 0, count: fixedSize - 4))
    guard let magic = try? reader.bytes(8), Array(magic) == Self.magic else {
      return (size, .failure(.damaged("not a Rewind snapshot")))
    }
    _ = try? reader.bytes(4 + 16 + 8 + 32 + 1)
    guard let length = try? reader.u32(), UInt64(length) + UInt64(fixedSize) == size else {
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

  static func fileName(sequence: UInt64) -> String {
    let digits = String(sequence)
    return "snapshot-" + String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".bin"
  }

  static func sequence(fromFileName name: String) -> UInt64? {
    guard name.hasPrefix("snapshot-"), name.hasSuffix(".bin") else { return nil }
    return UInt64(name.dropFirst(9).dropLast(4))
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

  public var description: String {
    let used = usedSequence.map { "restored from the snapshot at event \($0)" } ?? "full replay"
    return rejected.isEmpty
      ? used : used + "; passed over: " + rejected.map(\.description).joined(separator: "; ")
  }
}
