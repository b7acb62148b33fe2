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

  func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    let wanted = Swift.min(buffer.count, remaining)
    guard wanted > 0 else { return 0 }
    let target = UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted])
    do throws(IOError) {
      let got = try file.read(at: position, into: target)
      guard got == wanted else {
        throw IOError(operation: "read (the file ended early)", path: path, code: 0)
      }
      crc = CRC32C.checksum(UnsafeRawBufferPointer(target), continuing: crc)
      position += UInt64(wanted)
      return wanted
    } catch {
      failure = error
      return 0
    }
  }

  /// Reads the rest of the state, whole: for `Codable`, which needs all of it at once.
  func readRest() -> [UInt8] { read(count: remaining) }

  /// Reads and drops the rest of the state, a chunk at a time, so that its checksum is complete.
  func skipRest() {
    var scratch = [UInt8](repeating: 0, count: Swift.min(remaining, SegmentReader.chunkSize))
    scratch.withUnsafeMutableBytes { buffer in
      while remaining > 0, read(into: buffer) > 0 {}
    }
  }

  /// Whether the state read back as written: reads the bytes the decoder did not ask for (when it
  /// stopped early), then compares the checksum with the stored one.
  /// - Returns: why the state is damaged, or `nil` when its checksum matches.
  /// - Throws: `IOError` when a read fails.
  func damage() throws(IOError) -> SnapshotRejection.Reason? {
    skipRest()
    if let failure { throw failure }
    var tail = ByteReader(try file.read(at: end, count: 4))
    guard let stored = try? tail.u32(), CRC32C.unmask(stored) == crc else {
      return .damaged("checksum mismatch")
    }
    return nil
  }
}
