import Foundation

/// Encodes `Encodable` values straight into bytes of the ``BinaryValue`` format, without building a tree.
///
/// A keyed or unkeyed container writes its header with a one-byte count that is patched as fields arrive
/// (and widened in place, rarely, past 127 fields). This works while containers are filled one at a time,
/// innermost first, as synthesized `Codable` code does. A type that writes to a container after a sibling
/// or child was started (or uses `superEncoder`) is detected, and the caller encodes it again through the
/// tree encoder, so the bytes are the same either way.
enum StreamEncoding {
  /// Appends the encoding of `value` to `writer`; returns false (with `writer` unchanged) when the value
  /// must be encoded through the tree encoder instead.
  static func encode<T: Encodable>(_ value: T, into writer: inout ByteWriter) throws -> Bool {
    var firstKey: String?
    return try encode(value, into: &writer, firstKey: &firstKey)
  }

  /// ``encode(_:into:)``, also returning the first field name written when the value is keyed.
  static func encode<T: Encodable>(_ value: T, into writer: inout ByteWriter, firstKey: inout String?) throws
    -> Bool
  {
    let start = writer.bytes.count
    if StreamEncodingState.writePrimitive(value, to: &writer) { return true }
    let state = StreamEncodingState()
    swap(&state.writer, &writer)
    defer { swap(&state.writer, &writer) }
    let token = state.newSlot()
    do {
      try value.encode(to: StreamEncoder(state: state, token: token, path: .root))
    } catch {
      state.writer.bytes.removeSubrange(start...)
      throw error
    }
    if state.failed {
      state.writer.bytes.removeSubrange(start...)
      return false
    }
    state.fillIfEmpty(token)
    if state.writer.bytes.count > start, state.writer.bytes[start] == BinaryValue.Tag.keyed.rawValue {
      firstKey = state.firstKey
    }
    return true
  }

  /// The bytes of `value`, through this encoder or, when it cannot, the tree encoder.
  static func bytes<T: Encodable>(_ value: T, capacity: Int = 128) throws -> [UInt8] {
    var writer = ByteWriter(capacity: capacity)
    try append(value, to: &writer)
    return writer.bytes
  }

  /// Appends the bytes of `value`, through this encoder or, when it cannot, the tree encoder; returns the
  /// first field name written, when the value is keyed (an enum's case name in the synthesized shape).
  @discardableResult
  static func append<T: Encodable>(_ value: T, to writer: inout ByteWriter) throws -> String? {
    var firstKey: String?
    if try encode(value, into: &writer, firstKey: &firstKey) { return firstKey }
    let node = try BinaryEncoder().encodeNode(value)
    node.write(to: &writer)
    return node.firstKey(at: [])
  }
}

/// The bytes being written and the containers still open, innermost last.
final class StreamEncodingState {
  struct Open {
    var token: Int
    var keyed: Bool
    var countOffset: Int
    var countWidth: Int
    var count: UInt64
  }

  // Touched on every field; the state is confined to one encoding call, so dynamic exclusivity checks
  // would only cost time.
  @exclusivity(unchecked) var writer = ByteWriter(capacity: 0)
  @exclusivity(unchecked) var open: [Open] = []
  /// The slot whose value has not been written yet, or -1.
  @exclusivity(unchecked) var pending = -1
  @exclusivity(unchecked) private var nextToken = 0
  /// Set when the value cannot be streamed; every later write is ignored.
  @exclusivity(unchecked) var failed = false
  /// The first field name written.
  @exclusivity(unchecked) var firstKey: String?

  init() { open.reserveCapacity(8) }

  func newSlot() -> Int {
    nextToken += 1
    pending = nextToken
    return nextToken
  }

  /// Makes the container `token` the innermost open one, closing those inside it; false (and `failed`)
  /// when it was already closed.
  func activate(_ token: Int) -> Bool {
    if failed { return false }
    while let last = open.last {
      if last.token == token { return true }
      open.removeLast()
    }
    failed = true
    return false
  }

  /// Counts one more element of the innermost container, patching its count in place.
  func bump() {
    let index = open.count - 1
    open[index].count += 1
    let count = open[index].count
    let width = varintWidth(count)
    let offset = open[index].countOffset
    if width > open[index].countWidth {
      let at = offset + open[index].countWidth
      writer.bytes.insert(contentsOf: repeatElement(0, count: width - open[index].countWidth), at: at)
      open[index].countWidth = width
    }
    var value = count
    var position = offset
    while value >= 0x80 {
      writer.bytes[position] = UInt8(truncatingIfNeeded: value) | 0x80
      value >>= 7
      position += 1
    }
    writer.bytes[position] = UInt8(value)
  }

  private func varintWidth(_ value: UInt64) -> Int {
    value < 0x80 ? 1 : (64 - value.leadingZeroBitCount + 6) / 7
  }

  /// Claims the pending slot `token` for a value written now; false (and `failed`) when it is not pending.
  func claim(_ token: Int) -> Bool {
    if failed { return false }
    guard pending == token else {
      failed = true
      return false
    }
    pending = -1
    return true
  }

  /// Opens a container in slot `token`, or finds the one already open there (a type may ask its encoder
  /// for the same container more than once).
  func openContainer(_ token: Int, keyed: Bool) -> Bool {
    if failed { return false }
    if pending == token {
      pending = -1
      writer.u8(keyed ? BinaryValue.Tag.keyed.rawValue : BinaryValue.Tag.array.rawValue)
      open.append(Open(token: token, keyed: keyed, countOffset: writer.bytes.count, countWidth: 1, count: 0))
      writer.u8(0)
      return true
    }
    guard activate(token), open[open.count - 1].keyed == keyed else {
      failed = true
      return false
    }
    return true
  }

  /// After a nested value was encoded into `token`: an encoding that asked for no container is an empty
  /// keyed value, as in the tree encoder.
  func fillIfEmpty(_ token: Int) {
    guard pending == token else { return }
    pending = -1
    writer.u8(BinaryValue.Tag.keyed.rawValue)
    writer.u8(0)
  }

  /// Writes `value` when it is one of the types encoded without a container; the tree encoder's fast
  /// paths, byte for byte.
  @inline(__always)
  static func writePrimitive<T: Encodable>(_ value: T, to writer: inout ByteWriter) -> Bool {
    if T.self == String.self {
      writer.string(tagged: unsafeBitCast(value, to: String.self))
    } else if T.self == Int.self {
      writer.int(Int64(unsafeBitCast(value, to: Int.self)))
    } else if T.self == UInt64.self {
      writer.uint(unsafeBitCast(value, to: UInt64.self))
    } else if T.self == Bool.self {
      writer.u8(
        unsafeBitCast(value, to: Bool.self) ? BinaryValue.Tag.true.rawValue : BinaryValue.Tag.false.rawValue)
    } else if T.self == Double.self {
      writer.double(unsafeBitCast(value, to: Double.self))
    } else if T.self == Date.self {
      writer.double(unsafeBitCast(value, to: Date.self).timeIntervalSinceReferenceDate)
    } else {
      return false
    }
    return true
  }
}

extension ByteWriter {
  mutating func int(_ value: Int64) {
    u8(BinaryValue.Tag.int.rawValue)
    varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
  }

  mutating func uint(_ value: UInt64) {
    u8(BinaryValue.Tag.uint.rawValue)
    varint(value)
  }

  mutating func double(_ value: Double) {
    u8(BinaryValue.Tag.double.rawValue)
    u64(value.bitPattern)
  }

  mutating func float(_ value: Float) {
    u8(BinaryValue.Tag.float.rawValue)
    u32(value.bitPattern)
  }

  mutating func string(tagged value: String) {
    u8(BinaryValue.Tag.string.rawValue)
    string(value)
  }

  mutating func bool(_ value: Bool) {
    u8(value ? BinaryValue.Tag.true.rawValue : BinaryValue.Tag.false.rawValue)
  }
}

/// The encoder of one slot (a field, an element, or the root).
struct StreamEncoder: Encoder {
  let state: StreamEncodingState
  let token: Int
  let path: CodingPath
  var codingPath: [any CodingKey] { path.keys }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  /// What `superEncoder` hands out: an encoder that may be written after later fields cannot be streamed,
  /// so the encoding is marked failed (and done again through the tree encoder) and this one writes nothing.
  static func unstreamable(state: StreamEncodingState, path: CodingPath) -> StreamEncoder {
    state.failed = true
    return StreamEncoder(state: state, token: -1, path: path)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    _ = state.openContainer(token, keyed: true)
    return KeyedEncodingContainer(KeyedStreamEncoder<Key>(state: state, token: token, path: path))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    _ = state.openContainer(token, keyed: false)
    return UnkeyedStreamEncoder(state: state, token: token, path: path)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValueStreamEncoder(state: state, token: token, path: path)
  }

  /// Encodes a nested value into a new slot of the innermost container (already counted and keyed).
  static func nested<T: Encodable>(
    _ value: T, state: StreamEncodingState, path: @autoclosure () -> CodingPath
  ) throws {
    if StreamEncodingState.writePrimitive(value, to: &state.writer) { return }
    let token = state.newSlot()
    try value.encode(to: StreamEncoder(state: state, token: token, path: path()))
    state.fillIfEmpty(token)
  }
}

private struct KeyedStreamEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let state: StreamEncodingState
  let token: Int
  let path: CodingPath
  var codingPath: [any CodingKey] { path.keys }

  /// Starts a field: false when the container can no longer be written (the value is then re-encoded).
  @inline(__always)
  private func field(_ key: Key) -> Bool {
    guard state.activate(token) else { return false }
    state.bump()
    let name = key.stringValue
    if state.firstKey == nil { state.firstKey = name }
    state.writer.key(name)
    return true
  }

  mutating func encodeNil(forKey key: Key) throws {
    if field(key) { state.writer.u8(BinaryValue.Tag.null.rawValue) }
  }
  mutating func encode(_ value: Bool, forKey key: Key) throws { if field(key) { state.writer.bool(value) } }
  mutating func encode(_ value: String, forKey key: Key) throws {
    if field(key) { state.writer.string(tagged: value) }
  }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    if field(key) { state.writer.double(value) }
  }
  mutating func encode(_ value: Float, forKey key: Key) throws { if field(key) { state.writer.float(value) } }
  mutating func encode(_ value: Int, forKey key: Key) throws {
    if field(key) { state.writer.int(Int64(value)) }
  }
  mutating func encode(_ value: Int8, forKey key: Key) throws {
    if field(key) { state.writer.int(Int64(value)) }
  }
  mutating func encode(_ value: Int16, forKey key: Key) throws {
    if field(key) { state.writer.int(Int64(value)) }
  }
  mutating func encode(_ value: Int32, forKey key: Key) throws {
    if field(key) { state.writer.int(Int64(value)) }
  }
  mutating func encode(_ value: Int64, forKey key: Key) throws { if field(key) { state.writer.int(value) } }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    if field(key) { state.writer.uint(UInt64(value)) }
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws {
    if field(key) { state.writer.uint(UInt64(value)) }
  }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    if field(key) { state.writer.uint(UInt64(value)) }
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    if field(key) { state.writer.uint(UInt64(value)) }
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { if field(key) { state.writer.uint(value) } }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    guard field(key) else { return }
    try StreamEncoder.nested(value, state: state, path: path.appending(key))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let child = field(key) ? state.newSlot() : -1
    return StreamEncoder(state: state, token: child, path: path.appending(key)).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let child = field(key) ? state.newSlot() : -1
    return StreamEncoder(state: state, token: child, path: path.appending(key)).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { StreamEncoder.unstreamable(state: state, path: path) }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    StreamEncoder.unstreamable(state: state, path: path)
  }
}

private struct UnkeyedStreamEncoder: UnkeyedEncodingContainer {
  let state: StreamEncodingState
  let token: Int
  let path: CodingPath
  private var written = 0
  var codingPath: [any CodingKey] { path.keys }
  var count: Int { written }

  init(state: StreamEncodingState, token: Int, path: CodingPath) {
    self.state = state
    self.token = token
    self.path = path
    // A container asked for again continues the count of the open one.
    if let open = state.open.last, open.token == token { written = Int(open.count) }
  }

  @inline(__always)
  private mutating func element() -> Bool {
    guard state.activate(token) else { return false }
    state.bump()
    written += 1
    return true
  }

  mutating func encodeNil() throws { if element() { state.writer.u8(BinaryValue.Tag.null.rawValue) } }
  mutating func encode(_ value: Bool) throws { if element() { state.writer.bool(value) } }
  mutating func encode(_ value: String) throws { if element() { state.writer.string(tagged: value) } }
  mutating func encode(_ value: Double) throws { if element() { state.writer.double(value) } }
  mutating func encode(_ value: Float) throws { if element() { state.writer.float(value) } }
  mutating func encode(_ value: Int) throws { if element() { state.writer.int(Int64(value)) } }
  mutating func encode(_ value: Int8) throws { if element() { state.writer.int(Int64(value)) } }
  mutating func encode(_ value: Int16) throws { if element() { state.writer.int(Int64(value)) } }
  mutating func encode(_ value: Int32) throws { if element() { state.writer.int(Int64(value)) } }
  mutating func encode(_ value: Int64) throws { if element() { state.writer.int(value) } }
  mutating func encode(_ value: UInt) throws { if element() { state.writer.uint(UInt64(value)) } }
  mutating func encode(_ value: UInt8) throws { if element() { state.writer.uint(UInt64(value)) } }
  mutating func encode(_ value: UInt16) throws { if element() { state.writer.uint(UInt64(value)) } }
  mutating func encode(_ value: UInt32) throws { if element() { state.writer.uint(UInt64(value)) } }
  mutating func encode(_ value: UInt64) throws { if element() { state.writer.uint(value) } }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let index = written
    guard element() else { return }
    try StreamEncoder.nested(value, state: state, path: path.appending(IndexKey(index: index)))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let index = written
    let child = element() ? state.newSlot() : -1
    return StreamEncoder(state: state, token: child, path: path.appending(IndexKey(index: index))).container(
      keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let index = written
    let child = element() ? state.newSlot() : -1
    return StreamEncoder(state: state, token: child, path: path.appending(IndexKey(index: index)))
      .unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { StreamEncoder.unstreamable(state: state, path: path) }
}

private struct SingleValueStreamEncoder: SingleValueEncodingContainer {
  let state: StreamEncodingState
  let token: Int
  let path: CodingPath
  var codingPath: [any CodingKey] { path.keys }

  mutating func encodeNil() throws {
    if state.claim(token) { state.writer.u8(BinaryValue.Tag.null.rawValue) }
  }
  mutating func encode(_ value: Bool) throws { if state.claim(token) { state.writer.bool(value) } }
  mutating func encode(_ value: String) throws {
    if state.claim(token) { state.writer.string(tagged: value) }
  }
  mutating func encode(_ value: Double) throws { if state.claim(token) { state.writer.double(value) } }
  mutating func encode(_ value: Float) throws { if state.claim(token) { state.writer.float(value) } }
  mutating func encode(_ value: Int) throws { if state.claim(token) { state.writer.int(Int64(value)) } }
  mutating func encode(_ value: Int8) throws { if state.claim(token) { state.writer.int(Int64(value)) } }
  mutating func encode(_ value: Int16) throws { if state.claim(token) { state.writer.int(Int64(value)) } }
  mutating func encode(_ value: Int32) throws { if state.claim(token) { state.writer.int(Int64(value)) } }
  mutating func encode(_ value: Int64) throws { if state.claim(token) { state.writer.int(value) } }
  mutating func encode(_ value: UInt) throws { if state.claim(token) { state.writer.uint(UInt64(value)) } }
  mutating func encode(_ value: UInt8) throws { if state.claim(token) { state.writer.uint(UInt64(value)) } }
  mutating func encode(_ value: UInt16) throws { if state.claim(token) { state.writer.uint(UInt64(value)) } }
  mutating func encode(_ value: UInt32) throws { if state.claim(token) { state.writer.uint(UInt64(value)) } }
  mutating func encode(_ value: UInt64) throws { if state.claim(token) { state.writer.uint(value) } }

  mutating func encode<T: Encodable>(_ value: T) throws {
    // The nested value fills this same slot.
    guard !state.failed, state.pending == token else {
      state.failed = true
      return
    }
    if StreamEncodingState.writePrimitive(value, to: &state.writer) {
      state.pending = -1
      return
    }
    try value.encode(to: StreamEncoder(state: state, token: token, path: path))
  }
}
