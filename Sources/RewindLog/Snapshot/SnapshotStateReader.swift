/// Reads the state of a version 3 snapshot file a window at a time, for a streaming ``BinaryReader`` (or
/// whole, for `Codable`), computing its checksum on the way: the state is decoded as it is read, and
/// checked once it has been.
final class SnapshotStateReader: ByteSource {
  let file: any LogFile
  let path: String
  /// Where the next read starts, and where the state ends (its stored checksum follows).
  private(set) var position: UInt64
  let end: UInt64
  /// The CRC-32C of the bytes handed over so far.
  private(set) var crc: UInt32 = 0
  /// The read that failed, if one did: the state then ends early.
  private(set) var failure: IOError?

  init(file: any LogFile, path: String, range: Range<UInt64>) {
    self.file = file
    self.path = path
    position = range.lowerBound
    end = range.upperBound
  }

  var remaining: Int { failure == nil ? Int(end - position) : 0 }

  /// 64 KiB: the window a decoder holds of the state, beside the state it builds.
  var windowSize: Int { 64 << 10 }

  func read(atMost count: Int, into window: inout [UInt8]) {
    let wanted = Swift.min(count, remaining)
    guard wanted > 0 else { return }
    do throws(IOError) {
      let chunk = try file.read(at: position, count: wanted)
      guard chunk.count == wanted else {
        throw IOError(operation: "read (the file ended early)", path: path, code: 0)
      }
      crc = chunk.withUnsafeBytes { CRC32C.checksum($0, continuing: crc) }
      window.append(contentsOf: chunk)
      position += UInt64(wanted)
    } catch {
      failure = error
    }
  }

  /// Whether the state read back as written: reads the bytes the decoder did not ask for (when it
  /// stopped early), then compares the checksum with the stored one.
  /// - Returns: why the state is damaged, or `nil` when its checksum matches.
  /// - Throws: `IOError` when a read fails.
  func damage() throws(IOError) -> SnapshotRejection.Reason? {
    var scratch: [UInt8] = []
    while remaining > 0 {
      scratch.removeAll(keepingCapacity: true)
      read(atMost: SegmentReader.chunkSize, into: &scratch)
    }
    if let failure { throw failure }
    var tail = ByteReader(try file.read(at: end, count: 4))
    guard let stored = try? tail.u32(), CRC32C.unmask(stored) == crc else {
      return .damaged("checksum mismatch")
    }
    return nil
  }
}
