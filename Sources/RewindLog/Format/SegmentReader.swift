#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// A segment file read through bounded buffers, whatever its size or contents.
///
/// Frames are parsed from a window of the file (``window``, starting at byte ``base``) that holds at
/// least the frame asked for; a length field is checked against the bounds of a frame and against what
/// the file holds before anything is read for it. So memory stays at a window (``windowSize``, or one
/// frame of at most `Frame.maximumBodySize` when larger), however large the file: a segment stretched to
/// 20 GB with zeros, or a length field claiming 4 GiB in a tiny file, allocates no more than that.
struct SegmentReader {
  /// How much is read at a time when frames are small.
  static let windowSize = 4 << 20
  /// The bytes read for a zero check or a frame search at a time.
  static let chunkSize = 1 << 20

  let name: String
  /// The file's size when it was opened.
  let size: UInt64
  private let file: any LogFile
  /// The bytes read last: the file from ``base`` on.
  private(set) var window: [UInt8] = []
  private(set) var base: UInt64 = 0

  /// Opens `name` in `directory` for reading.
  init(fileSystem: any LogFileSystem, directory: String, name: String) throws(FileJournalError) {
    self.name = name
    do {
      file = try fileSystem.openForReading(directory + "/" + name)
      size = try file.size()
    } catch {
      throw .io(error)
    }
  }

  func close() { file.close() }

  /// Reads `count` bytes at `offset` (fewer at the end of the file).
  func read(at offset: UInt64, count: Int) throws(FileJournalError) -> [UInt8] {
    guard offset < size else { return [] }
    do { return try file.read(at: offset, count: Int(min(UInt64(count), size - offset))) } catch {
      throw .io(error)
    }
  }

  /// The first bytes of the file: enough for any segment header (the whole file when shorter).
  func headerBytes() throws(FileJournalError) -> [UInt8] { try read(at: 0, count: SegmentHeader.keyedSize) }

  /// Makes ``window`` hold `count` bytes from `offset` (fewer at the end of the file), reading a new
  /// window only when the current one does not.
  mutating func load(_ offset: UInt64, count: Int) throws(FileJournalError) {
    let wanted = min(UInt64(count), size > offset ? size - offset : 0)
    if offset >= base, offset + wanted <= base + UInt64(window.count) { return }
    window = try read(at: offset, count: max(count, Self.windowSize))
    base = offset
  }

  /// The offset of `absolute` in ``window``.
  func relative(_ absolute: UInt64) -> Int { Int(absolute - base) }

  /// What is at `offset`, by the rules of `Frame.parse` applied to the whole file; a parsed frame's
  /// offsets and ranges are relative to ``window`` (add ``base``).
  mutating func parse(at offset: UInt64, detectZeros: Bool = true) throws(FileJournalError) -> Frame.Parse {
    let remaining = size > offset ? size - offset : 0
    try load(offset, count: Frame.prefixSize)
    let start = relative(offset)
    guard remaining >= UInt64(Frame.prefixSize), window.count - start >= Frame.prefixSize else {
      if detectZeros, window[start...].allSatisfy({ $0 == 0 }) { return .zeros }
      return .incomplete
    }
    // The checksum and length fields, read in place (this runs for every frame of every scan).
    let (storedCRC, length) = window.withUnsafeBytes { raw in
      (
        UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt32.self)),
        UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start + 4, as: UInt32.self))
      )
    }
    if detectZeros, storedCRC == 0, length == 0, try isZero(from: offset) { return .zeros }
    guard length >= Frame.minimumBodySize, length <= Frame.maximumBodySize else { return .badLength }
    guard UInt64(length) <= remaining - UInt64(Frame.prefixSize) else { return .incomplete }
    // The length is bounded and the file holds it: only now is the frame read.
    try load(offset, count: Frame.prefixSize + Int(length))
    return Frame.parse(window, at: relative(offset), detectZeros: false)
  }

  /// Whether every byte from `offset` to the end of the file is zero, read a chunk at a time; the holes
  /// of a sparse file (zeros by definition) are skipped without reading them.
  func isZero(from offset: UInt64) throws(FileJournalError) -> Bool {
    var position = offset
    while position < size {
      guard let data = file.nextData(from: position) else { return true }
      position = max(position, data)
      guard position < size else { return true }
      let chunk = try read(at: position, count: Self.chunkSize)
      guard !chunk.isEmpty else { return true }
      if !Self.isZero(chunk) { return false }
      position += UInt64(chunk.count)
    }
    return true
  }

  /// Whether every byte of `bytes` is zero; compared with `memcmp` against zeros, which is as fast in a
  /// debug build as in a release one (gigabytes of zeros are checked this way).
  static func isZero(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { raw in
      guard let start = raw.baseAddress else { return true }
      var done = 0
      while done < raw.count {
        let count = min(zeros.count, raw.count - done)
        let equal = zeros.withUnsafeBytes { zero in
          zero.baseAddress.map { memcmp(start + done, $0, count) == 0 } ?? true
        }
        if !equal { return false }
        done += count
      }
      return true
    }
  }

  private static let zeros = [UInt8](repeating: 0, count: 64 << 10)

  /// The offset of the first checksum-valid frame that starts after `offset`, searched through a sliding
  /// window of twice the largest frame (each byte is read at most twice).
  func firstFrame(after offset: UInt64) throws(FileJournalError) -> UInt64? {
    let span = 2 * (Frame.prefixSize + Frame.maximumBodySize)
    var buffer: [UInt8] = []
    var bufferBase = offset + 1
    var candidate = offset + 1
    while candidate + UInt64(Frame.prefixSize + Frame.minimumBodySize) <= size {
      // Enough bytes for the largest frame starting here, or to the end of the file.
      let needed = min(UInt64(Frame.prefixSize + Frame.maximumBodySize), size - candidate)
      if candidate + needed > bufferBase + UInt64(buffer.count) {
        buffer = try read(at: candidate, count: span)
        bufferBase = candidate
      }
      let position = Int(candidate - bufferBase)
      // Cheap test first: a frame's length field is within bounds.
      let length =
        UInt32(buffer[position + 4]) | UInt32(buffer[position + 5]) << 8 | UInt32(buffer[position + 6]) << 16
        | UInt32(buffer[position + 7]) << 24
      if length >= Frame.minimumBodySize, length <= Frame.maximumBodySize,
        case .frame = Frame.parse(buffer, at: position, detectZeros: false)
      {
        return candidate
      }
      candidate += 1
    }
    return nil
  }
}
