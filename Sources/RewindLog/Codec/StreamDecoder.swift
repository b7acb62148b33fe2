import Foundation

/// Decodes `Decodable` values straight from bytes of the ``BinaryValue`` format, without building a tree.
///
/// Containers are positions in the bytes. A keyed container remembers where the field after the last one
/// read begins, so the fields of synthesized code, read in the order they were written, are found without
/// a search. Every length, count and nesting level is checked as in ``BinaryValue/decode(_:maxDepth:)``:
/// bad input throws, never traps, and allocates nothing in proportion to a length it claims.
enum StreamDecoding {
  /// Decodes a `T` from the value that spans `range` of `bytes`.
  static func decode<T: Decodable>(
    _ type: T.Type, from bytes: [UInt8], _ range: Range<Int>, maxDepth: Int = BinaryValue.defaultMaxDepth
  ) throws -> T {
    let state = StreamDecodingState(bytes: bytes, range: range, maxDepth: maxDepth)
    let start = range.lowerBound
    let value: T
    if T.self == Date.self {
      value = unsafeBitCast(
        Date(timeIntervalSinceReferenceDate: try state.double(at: start, .root)), to: T.self)
    } else {
      value = try T(from: StreamDecoder(state: state, offset: start, depth: 0, path: .root))
    }
    // The value must span the whole range, as for the tree decoder.
    let end = try state.skip(start, depth: 0)
    guard end == range.upperBound else { throw BinaryCodecError.trailingBytes(offset: end - start) }
    return value
  }
}

/// The bytes being decoded, and where the keyed containers being read expect their next field.
///
/// A ``BinaryReader`` that reads a value from a file sees it through a window of these, one after another
/// (see `BinaryReader+Streaming.swift`): `streamed` bytes of the value lie before the window, `beyond`
/// after it. Both are 0 for a value held in memory whole.
@usableFromInline
final class StreamDecodingState {
  @usableFromInline let bytes: [UInt8]
  let base: Int
  @usableFromInline let end: Int
  @usableFromInline let maxDepth: Int
  /// The bytes of the value before `bytes[base]`: offsets in errors count from the value's start.
  let streamed: Int
  /// The bytes of the value after `bytes[end - 1]`: lengths are checked against them too.
  @usableFromInline let beyond: Int
  /// Per nesting level: the container (its first field's offset) and where its next field begins.
  @exclusivity(unchecked) var hints: [Hint] = []

  struct Hint {
    var container = -1
    var index = 0
    var offset = 0
    /// The offset is that of a value not yet skipped: the field's end is found when needed.
    var valuePending = false
  }

  init(bytes: [UInt8], range: Range<Int>, maxDepth: Int, streamed: Int = 0, beyond: Int = 0) {
    self.bytes = bytes
    base = range.lowerBound
    end = min(range.upperBound, bytes.count)
    self.maxDepth = maxDepth
    self.streamed = streamed
    self.beyond = beyond
  }

  /// Offsets in errors count from the start of the value, as in ``BinaryValue/decode(_:maxDepth:)``.
  @usableFromInline @inline(__always) func relative(_ offset: Int) -> Int { offset - base + streamed }

  @inline(__always)
  func byte(at offset: Int) throws(BinaryCodecError) -> UInt8 {
    guard offset >= base, offset < end else { throw .truncated(offset: relative(offset)) }
    return bytes[offset]
  }

  /// A varint at `offset`, and the offset after it.
  @inline(__always)
  func varint(at offset: Int) throws(BinaryCodecError) -> (UInt64, Int) {
    let first = try byte(at: offset)
    if first < 0x80 { return (UInt64(first), offset + 1) }
    var value: UInt64 = UInt64(first & 0x7F)
    var shift: UInt64 = 7
    var position = offset + 1
    while true {
      let byte = try byte(at: position)
      position += 1
      if shift == 63 && byte > 1 { throw .varintOverflow(offset: relative(offset)) }
      value |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 == 0 { return (value, position) }
      shift += 7
      if shift > 63 { throw .varintOverflow(offset: relative(offset)) }
    }
  }

  func fixed(at offset: Int, count: Int) throws(BinaryCodecError) -> UInt64 {
    guard offset >= base, end - offset >= count else { throw .truncated(offset: relative(offset)) }
    var value: UInt64 = 0
    for index in 0..<count { value |= UInt64(bytes[offset + index]) << UInt64(index * 8) }
    return value
  }

  /// A length at `offset` that fits in what remains of the value, each unit taking at least `unit` bytes.
  @inline(__always)
  func length(at offset: Int, unit: Int = 1) throws(BinaryCodecError) -> (Int, Int) {
    let (value, next) = try varint(at: offset)
    guard value <= UInt64((end - next + beyond) / unit) else {
      throw .lengthOutOfBounds(offset: relative(offset))
    }
    return (Int(value), next)
  }

  @inline(__always)
  func tag(at offset: Int) throws(BinaryCodecError) -> BinaryValue.Tag {
    let byte = try byte(at: offset)
    guard let tag = BinaryValue.Tag(rawValue: byte) else { throw .unknownTag(byte, offset: relative(offset)) }
    return tag
  }

  /// The offset just after the value at `offset`.
  func skip(_ offset: Int, depth: Int) throws(BinaryCodecError) -> Int {
    switch try tag(at: offset) {
    case .null, .false, .true: return offset + 1
    case .int, .uint: return try varint(at: offset + 1).1
    case .double:
      guard end - offset >= 9 else { throw .truncated(offset: relative(offset + 1)) }
      return offset + 9
    case .float:
      guard end - offset >= 5 else { throw .truncated(offset: relative(offset + 1)) }
      return offset + 5
    case .string:
      let (count, next) = try length(at: offset + 1)
      try checkUTF8(next..<(next + count), offset: offset + 1)
      return next + count
    case .array:
      guard depth < maxDepth else { throw .tooDeep(offset: relative(offset), limit: maxDepth) }
      var (count, position) = try length(at: offset + 1)
      while count > 0 {
        position = try skip(position, depth: depth + 1)
        count -= 1
      }
      return position
    case .keyed:
      guard depth < maxDepth else { throw .tooDeep(offset: relative(offset), limit: maxDepth) }
      var (count, position) = try length(at: offset + 1, unit: 2)
      while count > 0 {
        position = try skipKey(position)
        position = try skip(position, depth: depth + 1)
        count -= 1
      }
      return position
    }
  }

  func skipKey(_ offset: Int) throws(BinaryCodecError) -> Int {
    let (header, next) = try varint(at: offset)
    if header & 1 == 1 {
      guard header >> 1 < UInt64(WellKnownKeys.table.count) else {
        throw .unknownKey(index: header >> 1, offset: relative(offset))
      }
      return next
    }
    guard header >> 1 <= UInt64(end - next) else { throw .lengthOutOfBounds(offset: relative(offset)) }
    try checkUTF8(next..<(next + Int(header >> 1)), offset: offset)
    return next + Int(header >> 1)
  }

  /// Skipped strings are checked as strictly as decoded ones (ASCII, the common case, without a call).
  func checkUTF8(_ range: Range<Int>, offset: Int) throws(BinaryCodecError) {
    for index in range where bytes[index] >= 0x80 {
      guard String(validating: bytes[range], as: UTF8.self) != nil else {
        throw .invalidUTF8(offset: relative(offset))
      }
      return
    }
  }

  /// Whether entry `index` of the well-known field names is `name`.
  @usableFromInline
  func isWellKnown(_ index: Int, _ name: String) -> Bool {
    index < WellKnownKeys.table.count && WellKnownKeys.table[index] == name
  }

  /// Whether the key at `offset` is `name`, and the offset of its value.
  func key(at offset: Int, is name: String) throws(BinaryCodecError) -> (Bool, Int) {
    let (header, next) = try varint(at: offset)
    if header & 1 == 1 {
      let index = header >> 1
      guard index < UInt64(WellKnownKeys.table.count) else {
        throw .unknownKey(index: index, offset: relative(offset))
      }
      return (WellKnownKeys.table[Int(index)] == name, next)
    }
    let count = header >> 1
    guard count <= UInt64(end - next) else { throw .lengthOutOfBounds(offset: relative(offset)) }
    return (matches(name, at: next, count: Int(count)), next + Int(count))
  }

  /// Whether the `count` bytes at `offset`, which lie in the window, are the UTF-8 of `name`.
  @inlinable @inline(__always)
  func matches(_ name: String, at offset: Int, count: Int) -> Bool {
    let utf8 = name.utf8
    guard utf8.count == count else { return false }
    return bytes.withUnsafeBufferPointer { all in
      guard let stored = all.baseAddress.map({ $0 + offset }) else { return count == 0 }
      // Pointer to pointer: a name is a few bytes, and iterating a `String` costs more per byte.
      let contiguous = utf8.withContiguousStorageIfAvailable { wanted -> Bool in
        guard let wanted = wanted.baseAddress else { return count == 0 }
        for index in 0..<count where stored[index] != wanted[index] { return false }
        return true
      }
      return contiguous ?? utf8.elementsEqual(UnsafeBufferPointer(start: stored, count: count))
    }
  }

  /// The key at `offset` as a string, and the offset of its value.
  func keyString(at offset: Int) throws(BinaryCodecError) -> (String, Int) {
    let (header, next) = try varint(at: offset)
    if header & 1 == 1 {
      let index = header >> 1
      guard index < UInt64(WellKnownKeys.table.count) else {
        throw .unknownKey(index: index, offset: relative(offset))
      }
      return (WellKnownKeys.table[Int(index)], next)
    }
    let count = header >> 1
    guard count <= UInt64(end - next) else { throw .lengthOutOfBounds(offset: relative(offset)) }
    let after = next + Int(count)
    guard let text = text(next..<after) else { throw .invalidUTF8(offset: relative(offset)) }
    return (text, after)
  }

  /// The string in `range`, or `nil` when it is not UTF-8.
  ///
  /// Made with the initializer that validates as it copies (ASCII, the common case, eight bytes at a time)
  /// and repairs what is not UTF-8; a repair changes the bytes, so a string whose bytes differ from the
  /// input's is refused. (`String(validating:as:)` looks up generic metadata on every call.)
  @usableFromInline
  func text(_ range: Range<Int>) -> String? {
    bytes.withUnsafeBufferPointer { all -> String? in
      guard let base = all.baseAddress, range.lowerBound >= 0, range.upperBound <= all.count else {
        return nil
      }
      let start = base + range.lowerBound
      let count = range.count
      var text = String(unsafeUninitializedCapacity: count) { buffer in
        guard let target = buffer.baseAddress else { return 0 }
        target.initialize(from: start, count: count)
        return count
      }
      guard text.utf8.count == count else { return nil }
      return text.withUTF8 { memcmp($0.baseAddress ?? start, start, count) == 0 } ? text : nil
    }
  }

  // MARK: Scalars (each returns the value; the end of the value is found by `skip` when needed)

  func mismatch(_ type: Any.Type, at offset: Int, _ path: CodingPath) -> any Error {
    let found: String
    do { found = try tag(at: offset).kindName } catch { return error }
    return DecodingError.typeMismatch(
      type, .init(codingPath: path.keys, debugDescription: "expected \(type), found \(found)"))
  }

  func bool(at offset: Int, _ path: @autoclosure () -> CodingPath) throws -> Bool {
    switch try tag(at: offset) {
    case .true: return true
    case .false: return false
    default: throw mismatch(Bool.self, at: offset, path())
    }
  }

  func string(at offset: Int, _ path: @autoclosure () -> CodingPath) throws -> (String, Int) {
    guard try tag(at: offset) == .string else { throw mismatch(String.self, at: offset, path()) }
    let (count, start) = try length(at: offset + 1)
    guard let text = text(start..<(start + count)) else {
      throw BinaryCodecError.invalidUTF8(offset: relative(offset + 1))
    }
    return (text, start + count)
  }

  func double(at offset: Int, _ path: @autoclosure () -> CodingPath) throws -> Double {
    switch try tag(at: offset) {
    case .double: return Double(bitPattern: try fixed(at: offset + 1, count: 8))
    case .float: return Double(Float(bitPattern: UInt32(try fixed(at: offset + 1, count: 4))))
    case .int: return Double(try signed(at: offset))
    case .uint: return Double(try varint(at: offset + 1).0)
    default: throw mismatch(Double.self, at: offset, path())
    }
  }

  func float(at offset: Int, _ path: @autoclosure () -> CodingPath) throws -> Float {
    switch try tag(at: offset) {
    case .float: return Float(bitPattern: UInt32(try fixed(at: offset + 1, count: 4)))
    case .double: return Float(Double(bitPattern: try fixed(at: offset + 1, count: 8)))
    default: throw mismatch(Float.self, at: offset, path())
    }
  }

  private func signed(at offset: Int) throws(BinaryCodecError) -> Int64 {
    let raw = try varint(at: offset + 1).0
    return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
  }

  /// The integer at `offset`, if it fits in `I`.
  func integer<I: FixedWidthInteger>(_ type: I.Type, at offset: Int, _ path: @autoclosure () -> CodingPath)
    throws -> I
  {
    switch try tag(at: offset) {
    case .int: if let result = I(exactly: try signed(at: offset)) { return result }
    case .uint: if let result = I(exactly: try varint(at: offset + 1).0) { return result }
    default: break
    }
    throw mismatch(type, at: offset, path())
  }

  func isNull(at offset: Int) throws(BinaryCodecError) -> Bool {
    try byte(at: offset) == BinaryValue.Tag.null.rawValue
  }

  /// The value at `offset` as a tree, for the rare paths (`superDecoder`) that hand out a whole decoder.
  func tree(at offset: Int, depth: Int) throws -> BinaryValue {
    let end = try skip(offset, depth: depth)
    var reader = ByteReader(bytes, from: offset, end: end)
    return try BinaryValue.read(from: &reader, depth: depth, maxDepth: maxDepth)
  }

  /// The hint slot of nesting level `depth`.
  @inline(__always)
  func hint(_ depth: Int) -> Hint {
    depth < hints.count ? hints[depth] : Hint()
  }

  @inline(__always)
  func setHint(_ depth: Int, _ hint: Hint) {
    while hints.count <= depth { hints.append(Hint()) }
    hints[depth] = hint
  }
}

extension BinaryValue.Tag {
  var kindName: String {
    switch self {
    case .null: "nil"
    case .false, .true: "a Boolean"
    case .int, .uint: "an integer"
    case .double, .float: "a number"
    case .string: "a string"
    case .array: "an array"
    case .keyed: "a keyed value"
    }
  }
}

/// The decoder of one value, at `offset`.
struct StreamDecoder: Decoder {
  let state: StreamDecodingState
  let offset: Int
  let depth: Int
  let path: CodingPath
  var codingPath: [any CodingKey] { path.keys }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard try state.tag(at: offset) == .keyed else {
      throw state.mismatch([String: Int].self, at: offset, path)
    }
    guard depth < state.maxDepth else {
      throw BinaryCodecError.tooDeep(offset: state.relative(offset), limit: state.maxDepth)
    }
    let (count, first) = try state.length(at: offset + 1, unit: 2)
    return KeyedDecodingContainer(
      KeyedStreamDecoder<Key>(state: state, first: first, count: count, depth: depth + 1, path: path))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard try state.tag(at: offset) == .array else { throw state.mismatch([Int].self, at: offset, path) }
    guard depth < state.maxDepth else {
      throw BinaryCodecError.tooDeep(offset: state.relative(offset), limit: state.maxDepth)
    }
    let (count, first) = try state.length(at: offset + 1)
    return UnkeyedStreamDecoder(state: state, position: first, total: count, depth: depth + 1, path: path)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleValueStreamDecoder(state: state, offset: offset, depth: depth, path: path)
  }

  /// Decodes a nested `T` at `offset`, with the fast paths of the tree decoder.
  @inline(__always)
  static func value<T: Decodable>(
    _ type: T.Type, state: StreamDecodingState, at offset: Int, depth: Int,
    path: @autoclosure () -> CodingPath
  ) throws -> T {
    if T.self == Date.self {
      return unsafeBitCast(
        Date(timeIntervalSinceReferenceDate: try state.double(at: offset, path())), to: T.self)
    }
    return try T(from: StreamDecoder(state: state, offset: offset, depth: depth, path: path()))
  }
}

private struct KeyedStreamDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let state: StreamDecodingState
  /// Offset of the first field.
  let first: Int
  let count: Int
  /// The nesting level of the fields' values.
  let depth: Int
  let path: CodingPath
  var codingPath: [any CodingKey] { path.keys }

  var allKeys: [Key] {
    var keys: [Key] = []
    var position = first
    do {
      for index in 0..<count {
        let (name, value) = try state.keyString(at: position)
        if let key = Key(stringValue: name) { keys.append(key) }
        // The last value is not skipped: a synthesized enum decoding asks for the keys of a container of
        // one (its case), and skipping that case's whole payload was a tenth of decoding it.
        if index + 1 < count { position = try state.skip(value, depth: depth) }
      }
    } catch {
      return keys  // The bytes are damaged; decoding the fields will throw with the details.
    }
    return keys
  }

  func contains(_ key: Key) -> Bool { (try? find(key)) != nil }

  /// The offset of the value of `key`, starting where the previous lookup in this container ended.
  private func find(_ key: Key) throws -> Int? {
    guard count > 0 else { return nil }
    let name = key.stringValue
    var hint = state.hint(depth)
    var index = 0
    var position = first
    if hint.container == first {
      index = hint.index
      position = hint.offset
      if hint.valuePending {
        position = try state.skip(position, depth: depth)
        index += 1
        hint.valuePending = false
      }
      if index >= count {
        index = 0
        position = first
      }
    }
    for _ in 0..<count {
      let (matches, value) = try state.key(at: position, is: name)
      if matches {
        state.setHint(
          depth, StreamDecodingState.Hint(container: first, index: index, offset: value, valuePending: true))
        return value
      }
      position = try state.skip(value, depth: depth)
      index += 1
      if index == count {
        index = 0
        position = first
      }
    }
    return nil
  }

  private func require(_ key: Key) throws -> Int {
    guard let offset = try find(key) else {
      throw DecodingError.keyNotFound(
        key, .init(codingPath: path.keys, debugDescription: "no field \"\(key.stringValue)\""))
    }
    return offset
  }

  /// Records that the value at the hint ends at `end`, sparing the next lookup a skip.
  private func finished(at end: Int) {
    var hint = state.hint(depth)
    guard hint.container == first, hint.valuePending else { return }
    hint.index += 1
    hint.offset = end
    hint.valuePending = false
    state.setHint(depth, hint)
  }

  func decodeNil(forKey key: Key) throws -> Bool { try state.isNull(at: try require(key)) }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    let offset = try require(key)
    let value = try state.bool(at: offset, path.appending(key))
    finished(at: offset + 1)
    return value
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    let (value, end) = try state.string(at: try require(key), path.appending(key))
    finished(at: end)
    return value
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try state.double(at: try require(key), path.appending(key))
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try state.float(at: try require(key), path.appending(key))
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }

  private func integer<I: FixedWidthInteger>(_ type: I.Type, _ key: Key) throws -> I {
    try state.integer(type, at: try require(key), path.appending(key))
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try StreamDecoder.value(type, state: state, at: try require(key), depth: depth, path: path.appending(key))
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try StreamDecoder(state: state, offset: try require(key), depth: depth, path: path.appending(key))
      .container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try StreamDecoder(state: state, offset: try require(key), depth: depth, path: path.appending(key))
      .unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    var position = first
    for _ in 0..<count {
      let (name, value) = try state.keyString(at: position)
      if name == "super" { return TreeDecoder(value: try state.tree(at: value, depth: depth), path: path) }
      position = try state.skip(value, depth: depth)
    }
    return TreeDecoder(value: .null, path: path)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    guard let offset = try find(key) else { return TreeDecoder(value: .null, path: path.appending(key)) }
    return TreeDecoder(value: try state.tree(at: offset, depth: depth), path: path.appending(key))
  }
}

private struct UnkeyedStreamDecoder: UnkeyedDecodingContainer {
  let state: StreamDecodingState
  /// Offset of the next element.
  var position: Int
  let total: Int
  let depth: Int
  let path: CodingPath
  var codingPath: [any CodingKey] { path.keys }
  var currentIndex = 0

  init(state: StreamDecodingState, position: Int, total: Int, depth: Int, path: CodingPath) {
    self.state = state
    self.position = position
    self.total = total
    self.depth = depth
    self.path = path
  }

  var count: Int? { total }
  var isAtEnd: Bool { currentIndex >= total }

  private var elementPath: CodingPath { path.appending(IndexKey(index: currentIndex)) }

  /// The offset of the next element; throws when there is none.
  private func current(_ type: Any.Type) throws -> Int {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type, .init(codingPath: elementPath.keys, debugDescription: "no more elements"))
    }
    return position
  }

  private mutating func advance() throws {
    position = try state.skip(position, depth: depth)
    currentIndex += 1
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd, try state.isNull(at: position) else { return false }
    try advance()
    return true
  }

  private mutating func scalar<V>(_ type: Any.Type, _ read: (Int, CodingPath) throws -> V) throws -> V {
    let value = try read(try current(type), elementPath)
    try advance()
    return value
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    let s = state; return try scalar(type) { try s.bool(at: $0, $1) }
  }
  mutating func decode(_ type: String.Type) throws -> String {
    let (value, end) = try state.string(at: try current(type), elementPath)
    position = end
    currentIndex += 1
    return value
  }
  mutating func decode(_ type: Double.Type) throws -> Double {
    let s = state; return try scalar(type) { try s.double(at: $0, $1) }
  }
  mutating func decode(_ type: Float.Type) throws -> Float {
    let s = state; return try scalar(type) { try s.float(at: $0, $1) }
  }
  mutating func decode(_ type: Int.Type) throws -> Int {
    let s = state; return try scalar(type) { try s.integer(type, at: $0, $1) }
  }
  mutating func decode(_ type: Int8.Type) throws -> Int8 {
    let s = state; return try scalar(type) { try s.integer(type, at: $0, $1) }
  }
  mutating func decode(_ type: Int16.Type) throws -> Int16 {
    let s = state; return try scalar(type) { try s.integer(type, at: $0, $1) }
  }
  mutating func decode(_ type: Int32.Type) throws -> Int32 {
    let s = state; return try scalar(type) { try s.integer(type, at: $0, $1) }
  }
  mutating func decode(_ type: Int64.Type) throws -> Int64 {
    let s = state; return try scalar(type) { try s.integer(type, at: $0, $1) }
  }
  mutating func decode(_ type: UInt.Type) throws -> UInt {
    let s = state; return try scalar(type) { try s.integer(type, at: $0, $1) }
  }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
    let s = state; return try scalar(type) { try s.integer(type, at: $0, $1) }
  }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
    let s = state; return try scalar(type) { try s.integer(type, at: $0, $1) }
  }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
    let s = state; return try scalar(type) { try s.integer(type, at: $0, $1) }
  }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
    let s = state; return try scalar(type) { try s.integer(type, at: $0, $1) }
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let offset = try current(type)
    let value = try StreamDecoder.value(type, state: state, at: offset, depth: depth, path: elementPath)
    try advance()
    return value
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    let container = try StreamDecoder(
      state: state, offset: try current(type), depth: depth, path: elementPath
    )
    .container(keyedBy: type)
    try advance()
    return container
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let container = try StreamDecoder(
      state: state, offset: try current([Any].self), depth: depth, path: elementPath
    )
    .unkeyedContainer()
    try advance()
    return container
  }

  mutating func superDecoder() throws -> any Decoder {
    let decoder = TreeDecoder(
      value: try state.tree(at: try current(Any.self), depth: depth), path: elementPath)
    try advance()
    return decoder
  }
}

private struct SingleValueStreamDecoder: SingleValueDecodingContainer {
  let state: StreamDecodingState
  let offset: Int
  let depth: Int
  let path: CodingPath
  var codingPath: [any CodingKey] { path.keys }

  func decodeNil() -> Bool { (try? state.isNull(at: offset)) ?? false }
  func decode(_ type: Bool.Type) throws -> Bool { try state.bool(at: offset, path) }
  func decode(_ type: String.Type) throws -> String { try state.string(at: offset, path).0 }
  func decode(_ type: Double.Type) throws -> Double { try state.double(at: offset, path) }
  func decode(_ type: Float.Type) throws -> Float { try state.float(at: offset, path) }
  func decode(_ type: Int.Type) throws -> Int { try state.integer(type, at: offset, path) }
  func decode(_ type: Int8.Type) throws -> Int8 { try state.integer(type, at: offset, path) }
  func decode(_ type: Int16.Type) throws -> Int16 { try state.integer(type, at: offset, path) }
  func decode(_ type: Int32.Type) throws -> Int32 { try state.integer(type, at: offset, path) }
  func decode(_ type: Int64.Type) throws -> Int64 { try state.integer(type, at: offset, path) }
  func decode(_ type: UInt.Type) throws -> UInt { try state.integer(type, at: offset, path) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try state.integer(type, at: offset, path) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try state.integer(type, at: offset, path) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try state.integer(type, at: offset, path) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try state.integer(type, at: offset, path) }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try StreamDecoder.value(type, state: state, at: offset, depth: depth, path: path)
  }
}
