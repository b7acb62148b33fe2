/// A type that writes and reads itself in the binary format directly, without `Codable`.
///
/// Optional: any `Codable` action is journaled as it is. Conforming an action type skips `Codable`'s
/// generic containers, which cost most of the time of appending and replaying a small event. The bytes
/// stay self-describing (keyed values keep their field names), so tools show these events as trees like
/// any other; write the same shape `Codable` would and the two are interchangeable, which the tests of a
/// conforming type can check with ``BinaryEncoder`` and ``BinaryDecoder``.
///
/// ```swift
/// extension Note: BinaryCodable {
///   func encode(to writer: inout BinaryWriter) {
///     switch self {
///     case .rename(let id, let title):
///       writer.keyed(count: 1)
///       writer.key("rename")
///       writer.keyed(count: 2)
///       writer.key("id"); writer.int(id)
///       writer.key("title"); writer.string(title)
///     }
///   }
///
///   init(from reader: inout BinaryReader) throws {
///     try reader.keyed(count: 1)
///     switch try reader.key() {
///     case "rename":
///       try reader.keyed(count: 2)
///       try reader.key("id"); let id = try reader.int()
///       try reader.key("title"); self = .rename(id: id, title: try reader.string())
///     case let other: throw reader.unknownCase(other)
///     }
///   }
/// }
/// ```
public protocol BinaryCodable {
  /// Writes exactly one value (a keyed value, an array or a scalar) to `writer`.
  func encode(to writer: inout BinaryWriter)
  /// Reads the value ``encode(to:)`` writes.
  /// - Throws: ``BinaryCodecError`` for bytes that do not have the expected shape.
  init(from reader: inout BinaryReader) throws
}

/// Writes values of the binary format (see ``BinaryValue``) for ``BinaryCodable`` types.
public struct BinaryWriter {
  var buffer: ByteWriter
  /// The first field name written: an enum's case name in the synthesized shape.
  var firstKey: String?

  /// Creates an empty writer.
  public init() { buffer = ByteWriter(capacity: 64) }

  init(buffer: ByteWriter) { self.buffer = buffer }

  /// The bytes written so far.
  public var bytes: [UInt8] { buffer.bytes }

  /// Starts a keyed value of `count` fields; write each as ``key(_:)`` then its value.
  public mutating func keyed(count: Int) {
    buffer.u8(BinaryValue.Tag.keyed.rawValue)
    buffer.varint(UInt64(count))
  }

  /// Writes a field name.
  public mutating func key(_ name: String) {
    if firstKey == nil { firstKey = name }
    buffer.key(name)
  }

  /// Starts an array of `count` values; write each after it.
  public mutating func array(count: Int) {
    buffer.u8(BinaryValue.Tag.array.rawValue)
    buffer.varint(UInt64(count))
  }

  /// Writes `nil`.
  public mutating func null() { buffer.u8(BinaryValue.Tag.null.rawValue) }
  /// Writes a Boolean.
  public mutating func bool(_ value: Bool) { buffer.bool(value) }
  /// Writes a signed integer.
  public mutating func int(_ value: Int) { buffer.int(Int64(value)) }
  /// Writes a signed 64-bit integer.
  public mutating func int64(_ value: Int64) { buffer.int(value) }
  /// Writes an unsigned integer.
  public mutating func uint(_ value: UInt64) { buffer.uint(value) }
  /// Writes a `Double`.
  public mutating func double(_ value: Double) { buffer.double(value) }
  /// Writes a `Float`.
  public mutating func float(_ value: Float) { buffer.float(value) }
  /// Writes a string.
  public mutating func string(_ value: String) { buffer.string(tagged: value) }

  /// Writes a nested ``BinaryCodable`` value.
  @inlinable
  public mutating func encode<T: BinaryCodable>(_ value: T) { value.encode(to: &self) }
}

/// Reads values of the binary format for ``BinaryCodable`` types, one after another.
///
/// Every read checks the bytes: a wrong tag, a length past the end or nesting deeper than the limit
/// throws ``BinaryCodecError`` naming the offset; nothing traps.
public struct BinaryReader {
  /// The bytes, or the window of them read so far from a file (see `BinaryReader+Streaming.swift`).
  @usableFromInline var state: StreamDecodingState
  /// Where the next value (or key) begins.
  @usableFromInline var offset: Int
  @usableFromInline var depth = 0
  /// Where the bytes after the window come from; `nil` when the value is in memory whole.
  let source: (any ByteSource)?

  /// Reads `bytes`, which should hold one value.
  public init(_ bytes: [UInt8], maxDepth: Int = BinaryValue.defaultMaxDepth) {
    self.init(bytes, bytes.indices, maxDepth: maxDepth)
  }

  @usableFromInline
  init(_ bytes: [UInt8], _ range: Range<Int>, maxDepth: Int = BinaryValue.defaultMaxDepth) {
    state = StreamDecodingState(bytes: bytes, range: range, maxDepth: maxDepth)
    offset = range.lowerBound
    source = nil
  }

  /// Whether every byte has been read.
  public var isAtEnd: Bool { offset >= state.end && state.beyond == 0 }

  private func expect(_ tag: BinaryValue.Tag, _ expected: String) throws(BinaryCodecError) {
    let found = try state.tag(at: offset)
    guard found == tag else {
      throw .mismatch(expected: expected, found: found.kindName, offset: state.relative(offset))
    }
  }

  /// ``keyed()`` when its inline fast path does not apply.
  @usableFromInline
  mutating func slowKeyed() throws(BinaryCodecError) -> Int {
    try ensureHeader()
    try expect(.keyed, "a keyed value")
    let (count, next) = try state.length(at: offset + 1, unit: 2)
    offset = next
    return count
  }

  /// ``keyed(count:)`` when its inline fast path does not apply.
  @usableFromInline
  mutating func slowKeyed(count: Int) throws(BinaryCodecError) {
    let start = offset
    guard try slowKeyed() == count else {
      throw .mismatch(
        expected: "a keyed value of \(count) fields", found: "another count", offset: state.relative(start))
    }
  }

  /// Reads a field name.
  public mutating func key() throws(BinaryCodecError) -> String {
    try ensureKey()
    let (name, next) = try state.keyString(at: offset)
    offset = next
    return name
  }

  /// ``key(_:)`` when its inline fast path does not apply.
  @usableFromInline
  mutating func slowKey(_ name: String) throws(BinaryCodecError) {
    try ensureHeader()
    let (header, start) = try state.varint(at: offset)
    var next = start
    if header & 1 == 0 {
      // The common case, an app's own field name: the varint read once, the name compared in place.
      let count = Int(clamping: header >> 1)
      if state.end &- next < count {
        next = try ensurePayload(count, at: next)
        guard count <= state.end &- next else { throw .lengthOutOfBounds(offset: state.relative(offset)) }
      }
      guard state.matches(name, at: next, count: count) else {
        throw .mismatch(expected: "field \"\(name)\"", found: "another field", offset: state.relative(offset))
      }
      offset = next &+ count
      return
    }
    let (matches, after) = try state.key(at: offset, is: name)
    guard matches else {
      throw .mismatch(expected: "field \"\(name)\"", found: "another field", offset: state.relative(offset))
    }
    offset = after
  }

  /// ``array()`` when its inline fast path does not apply.
  @usableFromInline
  mutating func slowArray() throws(BinaryCodecError) -> Int {
    try ensureHeader()
    try expect(.array, "an array")
    let (count, next) = try state.length(at: offset + 1)
    offset = next
    return count
  }

  /// ``null()`` when its inline fast path does not apply.
  @usableFromInline
  mutating func slowNull() throws(BinaryCodecError) -> Bool {
    try ensureHeader()
    guard try state.isNull(at: offset) else { return false }
    offset += 1
    return true
  }

  /// ``bool()`` when its inline fast path does not apply.
  @usableFromInline
  mutating func slowBool() throws(BinaryCodecError) -> Bool {
    try ensureHeader()
    switch try state.tag(at: offset) {
    case .true: offset += 1; return true
    case .false: offset += 1; return false
    case let other:
      throw .mismatch(expected: "a Boolean", found: other.kindName, offset: state.relative(offset))
    }
  }

  /// Where the next value begins, counted from the start of the value read: for errors.
  @usableFromInline var position: Int { state.relative(offset) }

  /// Reads an integer that fits in `I` (the slow path of ``int()``, ``int64()`` and ``uint()``).
  @usableFromInline
  mutating func integer<I: FixedWidthInteger>(_ type: I.Type) throws(BinaryCodecError) -> I {
    try ensureHeader()
    let start = offset
    let tag = try state.tag(at: start)
    switch tag {
    case .int:
      let (raw, next) = try state.varint(at: start + 1)
      if let value = I(exactly: Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)) {
        offset = next
        return value
      }
    case .uint:
      let (raw, next) = try state.varint(at: start + 1)
      if let value = I(exactly: raw) {
        offset = next
        return value
      }
    default: break
    }
    throw .mismatch(
      expected: "an integer that fits in \(I.self)", found: tag.kindName, offset: state.relative(start))
  }

  /// Reads a `Double` (a `Float` or an integer is converted, as by ``BinaryDecoder``).
  public mutating func double() throws(BinaryCodecError) -> Double {
    try ensureHeader()
    let start = offset
    let tag = try state.tag(at: start)
    switch tag {
    case .double:
      let value = Double(bitPattern: try state.fixed(at: start + 1, count: 8))
      offset = start + 9
      return value
    case .float:
      let value = Double(Float(bitPattern: UInt32(try state.fixed(at: start + 1, count: 4))))
      offset = start + 5
      return value
    case .int: return Double(try integer(Int64.self))
    case .uint: return Double(try integer(UInt64.self))
    default: throw .mismatch(expected: "a number", found: tag.kindName, offset: state.relative(start))
    }
  }

  /// Reads a `Float`.
  public mutating func float() throws(BinaryCodecError) -> Float {
    try ensureHeader()
    let start = offset
    let tag = try state.tag(at: start)
    switch tag {
    case .float:
      let value = Float(bitPattern: UInt32(try state.fixed(at: start + 1, count: 4)))
      offset = start + 5
      return value
    case .double:
      let value = Float(Double(bitPattern: try state.fixed(at: start + 1, count: 8)))
      offset = start + 9
      return value
    default: throw .mismatch(expected: "a Float", found: tag.kindName, offset: state.relative(start))
    }
  }

  /// ``string()`` when its inline fast path does not apply.
  @usableFromInline
  mutating func slowString() throws(BinaryCodecError) -> String {
    try ensureHeader()
    try expect(.string, "a string")
    var (count, start) = try state.length(at: offset + 1)
    if state.end &- start < count { start = try ensurePayload(count, at: start) }
    guard let text = state.text(start..<(start + count)) else {
      throw .invalidUTF8(offset: state.relative(offset + 1))
    }
    offset = start + count
    return text
  }

  /// Skips one value of any shape (checking it as it goes).
  public mutating func skip() throws(BinaryCodecError) {
    if source != nil {
      try skipStreaming(depth: depth)
    } else {
      offset = try state.skip(offset, depth: depth)
    }
  }

  /// Reads a nested ``BinaryCodable`` value. Read nested values through this method: it enforces the
  /// nesting limit, so hostile bytes cannot make a recursive type recurse without bound.
  @inlinable
  public mutating func decode<T: BinaryCodable>(_ type: T.Type) throws -> T {
    guard depth < state.maxDepth else {
      throw BinaryCodecError.tooDeep(offset: state.relative(offset), limit: state.maxDepth)
    }
    depth += 1
    defer { depth -= 1 }
    return try T(from: &self)
  }

  /// The error for an enum case name the type does not know.
  public func unknownCase(_ name: String) -> BinaryCodecError {
    .unknownCase(name, offset: state.relative(offset))
  }
}

extension BinaryCodable {
  /// The bytes of this value.
  public var binaryEncoded: [UInt8] {
    var writer = BinaryWriter()
    encode(to: &writer)
    return writer.bytes
  }

  /// Decodes a value that spans all of `bytes`.
  /// - Throws: ``BinaryCodecError`` for malformed bytes, trailing bytes included.
  public init(binaryEncoded bytes: [UInt8]) throws {
    var reader = BinaryReader(bytes)
    self = try Self(from: &reader)
    guard reader.isAtEnd else {
      throw BinaryCodecError.trailingBytes(offset: reader.state.relative(reader.offset))
    }
  }
}
