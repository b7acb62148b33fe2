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
  public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
    try decode(type, from: try BinaryValue.decode(bytes, maxDepth: maxDepth))
  }

  /// Decodes a `T` from a tree.
  public func decode<T: Decodable>(_ type: T.Type, from value: BinaryValue) throws -> T {
    try T(from: TreeDecoder(value: value, codingPath: []))
  }
}

struct TreeDecoder: Decoder {
  let value: BinaryValue
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .keyed(let fields) = value else { throw mismatch([String: Int].self, value, codingPath) }
    return KeyedDecodingContainer(KeyedTreeDecoder<Key>(fields: fields, codingPath: codingPath))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let values) = value else { throw mismatch([Int].self, value, codingPath) }
    return UnkeyedTreeDecoder(values: values, codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleValueTreeDecoder(value: value, codingPath: codingPath)
  }
}

private func mismatch(_ type: Any.Type, _ value: BinaryValue, _ path: [any CodingKey]) -> DecodingError {
  .typeMismatch(type, .init(codingPath: path, debugDescription: "expected \(type), found \(value.kindName)"))
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

  /// Converts a leaf to the primitive `T`, checking integer ranges.
  func primitive<T>(_ type: T.Type, _ path: [any CodingKey]) throws -> T {
    func integer<I: FixedWidthInteger>(_: I.Type) -> I? {
      switch self {
      case .int(let value): I(exactly: value)
      case .uint(let value): I(exactly: value)
      default: nil
      }
    }
    let result: Any? =
      switch type {
      case is Bool.Type: if case .bool(let value) = self { value } else { nil }
      case is String.Type: if case .string(let value) = self { value } else { nil }
      case is Double.Type:
        switch self {
        case .double(let value): value
        case .float(let value): Double(value)
        case .int(let value): Double(value)
        case .uint(let value): Double(value)
        default: nil
        }
      case is Float.Type:
        switch self {
        case .float(let value): value
        case .double(let value): Float(value)
        default: nil
        }
      case is Int.Type: integer(Int.self)
      case is Int8.Type: integer(Int8.self)
      case is Int16.Type: integer(Int16.self)
      case is Int32.Type: integer(Int32.self)
      case is Int64.Type: integer(Int64.self)
      case is UInt.Type: integer(UInt.self)
      case is UInt8.Type: integer(UInt8.self)
      case is UInt16.Type: integer(UInt16.self)
      case is UInt32.Type: integer(UInt32.self)
      case is UInt64.Type: integer(UInt64.self)
      default: nil
      }
    guard let typed = result as? T else { throw mismatch(type, self, path) }
    return typed
  }
}

private struct KeyedTreeDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let fields: [BinaryValue.Field]
  let codingPath: [any CodingKey]

  var allKeys: [Key] { fields.compactMap { Key(stringValue: $0.key) } }

  func contains(_ key: Key) -> Bool { lookup(key) != nil }

  private func lookup(_ key: Key) -> BinaryValue? {
    let name = key.stringValue
    for field in fields where field.key == name { return field.value }
    return nil
  }

  private func require(_ key: Key) throws -> BinaryValue {
    guard let value = lookup(key) else {
      throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no field \"\(key.stringValue)\""))
    }
    return value
  }

  func decodeNil(forKey key: Key) throws -> Bool { try require(key) == .null }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try require(key).primitive(type, codingPath + [key]) }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try require(key).primitive(type, codingPath + [key]) }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try require(key).primitive(type, codingPath + [key]) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try require(key).primitive(type, codingPath + [key]) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try require(key).primitive(type, codingPath + [key]) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try require(key).primitive(type, codingPath + [key]) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try require(key).primitive(type, codingPath + [key]) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try require(key).primitive(type, codingPath + [key]) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try require(key).primitive(type, codingPath + [key]) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try require(key).primitive(type, codingPath + [key]) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try require(key).primitive(type, codingPath + [key]) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try require(key).primitive(type, codingPath + [key]) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try require(key).primitive(type, codingPath + [key]) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try require(key).primitive(type, codingPath + [key]) }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try T(from: TreeDecoder(value: try require(key), codingPath: codingPath + [key]))
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try TreeDecoder(value: try require(key), codingPath: codingPath + [key]).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try TreeDecoder(value: try require(key), codingPath: codingPath + [key]).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    TreeDecoder(value: fields.first { $0.key == "super" }?.value ?? .null, codingPath: codingPath)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    TreeDecoder(value: lookup(key) ?? .null, codingPath: codingPath + [key])
  }
}

private struct UnkeyedTreeDecoder: UnkeyedDecodingContainer {
  let values: [BinaryValue]
  let codingPath: [any CodingKey]
  var currentIndex = 0

  init(values: [BinaryValue], codingPath: [any CodingKey]) {
    self.values = values
    self.codingPath = codingPath
  }

  var count: Int? { values.count }
  var isAtEnd: Bool { currentIndex >= values.count }

  private mutating func next(_ type: Any.Type) throws -> BinaryValue {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type, .init(codingPath: codingPath + [IndexKey(index: currentIndex)], debugDescription: "no more elements"))
    }
    defer { currentIndex += 1 }
    return values[currentIndex]
  }

  private var path: [any CodingKey] { codingPath + [IndexKey(index: currentIndex)] }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd, values[currentIndex] == .null else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool { let p = path; return try next(type).primitive(type, p) }
  mutating func decode(_ type: String.Type) throws -> String { let p = path; return try next(type).primitive(type, p) }
  mutating func decode(_ type: Double.Type) throws -> Double { let p = path; return try next(type).primitive(type, p) }
  mutating func decode(_ type: Float.Type) throws -> Float { let p = path; return try next(type).primitive(type, p) }
  mutating func decode(_ type: Int.Type) throws -> Int { let p = path; return try next(type).primitive(type, p) }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { let p = path; return try next(type).primitive(type, p) }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { let p = path; return try next(type).primitive(type, p) }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { let p = path; return try next(type).primitive(type, p) }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { let p = path; return try next(type).primitive(type, p) }
  mutating func decode(_ type: UInt.Type) throws -> UInt { let p = path; return try next(type).primitive(type, p) }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { let p = path; return try next(type).primitive(type, p) }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { let p = path; return try next(type).primitive(type, p) }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { let p = path; return try next(type).primitive(type, p) }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { let p = path; return try next(type).primitive(type, p) }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let p = path
    return try T(from: TreeDecoder(value: try next(type), codingPath: p))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
    let p = path
    return try TreeDecoder(value: try next(type), codingPath: p).container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let p = path
    return try TreeDecoder(value: try next([Any].self), codingPath: p).unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder {
    let p = path
    return TreeDecoder(value: try next(Any.self), codingPath: p)
  }
}

private struct SingleValueTreeDecoder: SingleValueDecodingContainer {
  let value: BinaryValue
  let codingPath: [any CodingKey]

  func decodeNil() -> Bool { value == .null }
  func decode(_ type: Bool.Type) throws -> Bool { try value.primitive(type, codingPath) }
  func decode(_ type: String.Type) throws -> String { try value.primitive(type, codingPath) }
  func decode(_ type: Double.Type) throws -> Double { try value.primitive(type, codingPath) }
  func decode(_ type: Float.Type) throws -> Float { try value.primitive(type, codingPath) }
  func decode(_ type: Int.Type) throws -> Int { try value.primitive(type, codingPath) }
  func decode(_ type: Int8.Type) throws -> Int8 { try value.primitive(type, codingPath) }
  func decode(_ type: Int16.Type) throws -> Int16 { try value.primitive(type, codingPath) }
  func decode(_ type: Int32.Type) throws -> Int32 { try value.primitive(type, codingPath) }
  func decode(_ type: Int64.Type) throws -> Int64 { try value.primitive(type, codingPath) }
  func decode(_ type: UInt.Type) throws -> UInt { try value.primitive(type, codingPath) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try value.primitive(type, codingPath) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try value.primitive(type, codingPath) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try value.primitive(type, codingPath) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try value.primitive(type, codingPath) }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try T(from: TreeDecoder(value: value, codingPath: codingPath))
  }
}
