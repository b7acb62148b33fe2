import Foundation

/// Decodes `Decodable` values from the binary format of ``BinaryValue``.
///
/// Never traps on bad input: malformed bytes throw ``BinaryCodecError``, well-formed bytes of the wrong
/// shape throw `DecodingError`.
public struct BinaryDecoder: Sendable {
  /// The deepest nesting accepted.
  public var maxDepth: Int

  /// Creates a decoder.
  public init(maxDepth: Int = BinaryValue.defaultMaxDepth) { self.maxDepth = maxDepth }

  /// Decodes a `T` from `bytes`.
  ///
  /// Reads the bytes in place, without building a tree; the whole input must be one well-formed value.
  public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
    try StreamDecoding.decode(type, from: bytes, bytes.indices, maxDepth: maxDepth)
  }

  /// Decodes a `T` from a tree.
  public func decode<T: Decodable>(_ type: T.Type, from value: BinaryValue) throws -> T {
    try T(from: TreeDecoder(value: value, path: .root))
  }
}

struct TreeDecoder: Decoder {
  let value: BinaryValue
  let path: CodingPath
  var codingPath: [any CodingKey] { path.keys }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .keyed(let fields) = value else { throw mismatch([String: Int].self, value, path) }
    return KeyedDecodingContainer(KeyedTreeDecoder<Key>(fields: fields, path: path))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let values) = value else { throw mismatch([Int].self, value, path) }
    return UnkeyedTreeDecoder(values: values, path: path)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleValueTreeDecoder(value: value, path: path)
  }
}

private func mismatch(_ type: Any.Type, _ value: BinaryValue, _ path: CodingPath) -> DecodingError {
  .typeMismatch(
    type, .init(codingPath: path.keys, debugDescription: "expected \(type), found \(value.kindName)"))
}

extension BinaryValue {
  var kindName: String {
    switch self {
    case .null: "nil"
    case .bool: "a Boolean"
    case .int, .uint: "an integer"
    case .double, .float: "a number"
    case .string: "a string"
    case .array: "an array"
    case .keyed: "a keyed value"
    }
  }

  func bool(_ path: @autoclosure () -> CodingPath) throws -> Bool {
    guard case .bool(let value) = self else { throw mismatch(Bool.self, self, path()) }
    return value
  }

  func string(_ path: @autoclosure () -> CodingPath) throws -> String {
    guard case .string(let value) = self else { throw mismatch(String.self, self, path()) }
    return value
  }

  func double(_ path: @autoclosure () -> CodingPath) throws -> Double {
    switch self {
    case .double(let value): return value
    case .float(let value): return Double(value)
    case .int(let value): return Double(value)
    case .uint(let value): return Double(value)
    default: throw mismatch(Double.self, self, path())
    }
  }

  func float(_ path: @autoclosure () -> CodingPath) throws -> Float {
    switch self {
    case .float(let value): return value
    case .double(let value): return Float(value)
    case .int(let value): return Float(value)
    case .uint(let value): return Float(value)
    default: throw mismatch(Float.self, self, path())
    }
  }

  /// The integer, if it fits in `I`.
  func integer<I: FixedWidthInteger>(_ type: I.Type, _ path: @autoclosure () -> CodingPath) throws -> I {
    switch self {
    case .int(let value): if let result = I(exactly: value) { return result }
    case .uint(let value): if let result = I(exactly: value) { return result }
    default: break
    }
    throw mismatch(type, self, path())
  }
}

private struct KeyedTreeDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let fields: [BinaryValue.Field]
  let path: CodingPath
  var codingPath: [any CodingKey] { path.keys }

  var allKeys: [Key] { fields.compactMap { Key(stringValue: $0.key) } }

  func contains(_ key: Key) -> Bool { lookup(key) != nil }

  private func lookup(_ key: Key) -> BinaryValue? {
    let name = key.stringValue
    for field in fields where field.key == name { return field.value }
    return nil
  }

  private func require(_ key: Key) throws -> BinaryValue {
    guard let value = lookup(key) else {
      throw DecodingError.keyNotFound(
        key, .init(codingPath: path.keys, debugDescription: "no field \"\(key.stringValue)\""))
    }
    return value
  }

  func decodeNil(forKey key: Key) throws -> Bool { try require(key) == .null }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try require(key).bool(path.appending(key))
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try require(key).string(path.appending(key))
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try require(key).double(path.appending(key))
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try require(key).float(path.appending(key))
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try require(key).integer(type, path.appending(key))
  }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try require(key).integer(type, path.appending(key))
  }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try require(key).integer(type, path.appending(key))
  }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try require(key).integer(type, path.appending(key))
  }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try require(key).integer(type, path.appending(key))
  }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try require(key).integer(type, path.appending(key))
  }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try require(key).integer(type, path.appending(key))
  }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try require(key).integer(type, path.appending(key))
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try require(key).integer(type, path.appending(key))
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try require(key).integer(type, path.appending(key))
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    let value = try require(key)
    if T.self == Date.self {
      return unsafeBitCast(
        Date(timeIntervalSinceReferenceDate: try value.double(path.appending(key))), to: T.self)
    }
    return try T(from: TreeDecoder(value: value, path: path.appending(key)))
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try TreeDecoder(value: try require(key), path: path.appending(key)).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try TreeDecoder(value: try require(key), path: path.appending(key)).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    TreeDecoder(value: fields.first { $0.key == "super" }?.value ?? .null, path: path)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    TreeDecoder(value: lookup(key) ?? .null, path: path.appending(key))
  }
}

private struct UnkeyedTreeDecoder: UnkeyedDecodingContainer {
  let values: [BinaryValue]
  let path: CodingPath
  var codingPath: [any CodingKey] { path.keys }
  var currentIndex = 0

  init(values: [BinaryValue], path: CodingPath) {
    self.values = values
    self.path = path
  }

  var count: Int? { values.count }
  var isAtEnd: Bool { currentIndex >= values.count }

  private mutating func next(_ type: Any.Type) throws -> BinaryValue {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type, .init(codingPath: elementPath.keys, debugDescription: "no more elements"))
    }
    defer { currentIndex += 1 }
    return values[currentIndex]
  }

  private var elementPath: CodingPath { path.appending(IndexKey(index: currentIndex)) }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd, values[currentIndex] == .null else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    let p = elementPath; return try next(type).bool(p)
  }
  mutating func decode(_ type: String.Type) throws -> String {
    let p = elementPath; return try next(type).string(p)
  }
  mutating func decode(_ type: Double.Type) throws -> Double {
    let p = elementPath; return try next(type).double(p)
  }
  mutating func decode(_ type: Float.Type) throws -> Float {
    let p = elementPath; return try next(type).float(p)
  }
  mutating func decode(_ type: Int.Type) throws -> Int {
    let p = elementPath; return try next(type).integer(type, p)
  }
  mutating func decode(_ type: Int8.Type) throws -> Int8 {
    let p = elementPath; return try next(type).integer(type, p)
  }
  mutating func decode(_ type: Int16.Type) throws -> Int16 {
    let p = elementPath; return try next(type).integer(type, p)
  }
  mutating func decode(_ type: Int32.Type) throws -> Int32 {
    let p = elementPath; return try next(type).integer(type, p)
  }
  mutating func decode(_ type: Int64.Type) throws -> Int64 {
    let p = elementPath; return try next(type).integer(type, p)
  }
  mutating func decode(_ type: UInt.Type) throws -> UInt {
    let p = elementPath; return try next(type).integer(type, p)
  }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
    let p = elementPath; return try next(type).integer(type, p)
  }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
    let p = elementPath; return try next(type).integer(type, p)
  }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
    let p = elementPath; return try next(type).integer(type, p)
  }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
    let p = elementPath; return try next(type).integer(type, p)
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let p = elementPath
    return try T(from: TreeDecoder(value: try next(type), path: p))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    let p = elementPath
    return try TreeDecoder(value: try next(type), path: p).container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let p = elementPath
    return try TreeDecoder(value: try next([Any].self), path: p).unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder {
    let p = elementPath
    return TreeDecoder(value: try next(Any.self), path: p)
  }
}

private struct SingleValueTreeDecoder: SingleValueDecodingContainer {
  let value: BinaryValue
  let path: CodingPath
  var codingPath: [any CodingKey] { path.keys }

  func decodeNil() -> Bool { value == .null }
  func decode(_ type: Bool.Type) throws -> Bool { try value.bool(path) }
  func decode(_ type: String.Type) throws -> String { try value.string(path) }
  func decode(_ type: Double.Type) throws -> Double { try value.double(path) }
  func decode(_ type: Float.Type) throws -> Float { try value.float(path) }
  func decode(_ type: Int.Type) throws -> Int { try value.integer(type, path) }
  func decode(_ type: Int8.Type) throws -> Int8 { try value.integer(type, path) }
  func decode(_ type: Int16.Type) throws -> Int16 { try value.integer(type, path) }
  func decode(_ type: Int32.Type) throws -> Int32 { try value.integer(type, path) }
  func decode(_ type: Int64.Type) throws -> Int64 { try value.integer(type, path) }
  func decode(_ type: UInt.Type) throws -> UInt { try value.integer(type, path) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try value.integer(type, path) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try value.integer(type, path) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try value.integer(type, path) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try value.integer(type, path) }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try T(from: TreeDecoder(value: value, path: path))
  }
}
