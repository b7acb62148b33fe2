/// Where a ``BinaryReader`` reading a value from a file gets the bytes after its window: a snapshot's
/// state is decoded this way, a window at a time, so that no buffer of the whole encoding is held next to
/// the value being built.
protocol ByteSource: AnyObject {
  /// The bytes of the value not yet handed over.
  var remaining: Int { get }
  /// How many bytes a window takes beyond what a read needs: fewer, larger reads.
  var windowSize: Int { get }
  /// Fills `buffer` with the next bytes and returns how many (fewer than it holds only at the end of the
  /// value, or after a failure, which the source records for its owner).
  func read(into buffer: UnsafeMutableRawBufferPointer) -> Int
}

extension ByteSource {
  /// The next `count` bytes (fewer at the end of the value, or after a failure) in a new array.
  func read(count: Int) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      initialized = read(into: UnsafeMutableRawBufferPointer(buffer))
    }
  }
}

extension BinaryReader {
  /// Enough for any value's header: a tag and a varint, or a tag and a `Double`.
  static let headerSize = 16

  /// Reads the value that `source` hands over, a window at a time: memory for one window (or one string
  /// longer than a window) rather than for the whole encoding. Every check of the in-memory reader
  /// applies, lengths counting the bytes still to come; a read the source could not serve ends the value
  /// (``BinaryCodecError/truncated(offset:)``), and the source says why.
  init(streaming source: any ByteSource, maxDepth: Int = BinaryValue.defaultMaxDepth) {
    let window = source.read(count: Swift.min(source.windowSize, source.remaining))
    state = StreamDecodingState(
      bytes: window, range: 0..<window.count, maxDepth: maxDepth, beyond: source.remaining)
    offset = 0
    self.source = source
  }

  /// Makes at least ``headerSize`` bytes from `offset` lie in the window, when the value has them.
  @inline(__always)
  mutating func ensureHeader() throws(BinaryCodecError) {
    if state.end &- offset < Self.headerSize, let source { refill(Self.headerSize, from: source) }
  }

  /// Makes the key at `offset` lie in the window whole: its varint, and its name unless it is a
  /// well-known one.
  @inline(__always)
  mutating func ensureKey() throws(BinaryCodecError) {
    try ensureHeader()
    guard source != nil else { return }
    let (header, next) = try state.varint(at: offset)
    if header & 1 == 0, UInt64(state.end &- next) < header >> 1 {
      _ = try ensurePayload(Int(clamping: header >> 1), at: next)
    }
  }

  /// Makes the `count` bytes from `start` (a position in the window at or after `offset`) lie in the
  /// window, and returns where they start after any refill.
  /// - Throws: ``BinaryCodecError/lengthOutOfBounds(offset:)`` when the value does not have them.
  mutating func ensurePayload(_ count: Int, at start: Int) throws(BinaryCodecError) -> Int {
    guard let source else { return start }
    guard count <= state.end &- start &+ state.beyond else {
      throw .lengthOutOfBounds(offset: state.relative(start))
    }
    let ahead = start &- offset
    refill(ahead &+ count, from: source)
    return offset &+ ahead
  }

  /// Starts a new window at `offset` that holds at least `needed` bytes, when the value has them: what
  /// is left of this one, moved to the front of the same buffer, then the next bytes from `source`. The
  /// buffer is reused (its count stays its capacity; the window is its first `end` bytes), so that a
  /// decode allocates one window, not one per refill; it grows only for a string longer than a window.
  @inline(never)
  mutating func refill(_ needed: Int, from source: any ByteSource) {
    let start = Swift.min(offset, state.end)
    let kept = state.end &- start
    // The window is refilled to its size (or to `needed`, when that is more).
    let wanted = Swift.min(Swift.max(needed, source.windowSize) &- kept, source.remaining)
    guard wanted > 0 else { return }
    let streamed = state.relative(start)
    let maxDepth = state.maxDepth
    var buffer = state.bytes
    // Drop the old window's reference, so that the buffer is this reader's alone and changes in place.
    state = StreamDecodingState(bytes: [], range: 0..<0, maxDepth: 0)
    if buffer.count < kept &+ wanted {
      var larger = [UInt8](repeating: 0, count: kept &+ wanted)
      larger.withUnsafeMutableBytes { target in
        buffer.withUnsafeBytes {
          target.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[start..<(start &+ kept)]))
        }
      }
      buffer = larger
    } else {
      buffer.withUnsafeMutableBytes { bytes in
        if let base = bytes.baseAddress, kept > 0 { base.copyMemory(from: base + start, byteCount: kept) }
      }
    }
    let got = buffer.withUnsafeMutableBytes { bytes in
      source.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[kept..<(kept &+ wanted)]))
    }
    state = StreamDecodingState(
      bytes: buffer, range: 0..<(kept &+ got), maxDepth: maxDepth, streamed: streamed,
      beyond: source.remaining)
    offset = 0
  }

  /// Skips one value a window at a time, checking it as ``StreamDecodingState/skip(_:depth:)`` does.
  mutating func skipStreaming(depth: Int) throws(BinaryCodecError) {
    try ensureHeader()
    switch try state.tag(at: offset) {
    case .null, .false, .true: offset &+= 1
    case .int, .uint: offset = try state.varint(at: offset &+ 1).1
    case .double, .float: offset = try state.skip(offset, depth: depth)
    case .string: _ = try string()
    case .array:
      guard depth < state.maxDepth else {
        throw .tooDeep(offset: state.relative(offset), limit: state.maxDepth)
      }
      for _ in 0..<(try array()) { try skipStreaming(depth: depth &+ 1) }
    case .keyed:
      guard depth < state.maxDepth else {
        throw .tooDeep(offset: state.relative(offset), limit: state.maxDepth)
      }
      for _ in 0..<(try keyed()) {
        _ = try key()
        try skipStreaming(depth: depth &+ 1)
      }
    }
  }
}
