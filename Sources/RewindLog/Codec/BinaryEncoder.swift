/// Encodes `Encodable` values in the self-describing binary format of ``BinaryValue``.
///
/// Keyed containers keep their field names, so any event can be shown as a tree without the app's types.
public struct BinaryEncoder: Sendable {
  /// Creates an encoder.
  public init() {}

  /// The bytes of `value`.
  public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
    try encodeTree(value).encoded
  }

  /// `value` as a tree.
  public func encodeTree<T: Encodable>(_ value: T) throws -> BinaryValue {
    let node = EncodingNode()
    try value.encode(to: TreeEncoder(node: node, codingPath: []))
    return node.freeze()
  }
}

/// A value being built: a leaf, a keyed container or an unkeyed container, filled in place.
final class EncodingNode {
  enum Kind { case unset, leaf, keyed, unkeyed }
  var kind = Kind.unset
  var leaf = BinaryValue.null
  var fields: [(String, EncodingNode)] = []
  var items: [EncodingNode] = []

  init() {}
  init(_ value: BinaryValue) {
    kind = .leaf
    leaf = value
  }

  func freeze() -> BinaryValue {
    switch kind {
    case .unset: .keyed([])
    case .leaf: leaf
    case .keyed: .keyed(fields.map { BinaryValue.Field(key: $0.0, value: $0.1.freeze()) })
    case .unkeyed: .array(items.map { $0.freeze() })
    }
  }
}

struct TreeEncoder: Encoder {
  let node: EncodingNode
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if node.kind != .keyed {
      node.kind = .keyed
      node.fields = []
    }
    return KeyedEncodingContainer(KeyedTreeEncoder<Key>(node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if node.kind != .unkeyed {
      node.kind = .unkeyed
      node.items = []
    }
    return UnkeyedTreeEncoder(node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValueTreeEncoder(node: node, codingPath: codingPath)
  }

  /// The tree of `value`, with fast paths for the primitive types.
  static func encodeNode<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> EncodingNode {
    switch value {
    case let value as String: return EncodingNode(.string(value))
    case let value as Int: return EncodingNode(.int(Int64(value)))
    case let value as UInt64: return EncodingNode(.uint(value))
    case let value as Bool: return EncodingNode(.bool(value))
    case let value as Double: return EncodingNode(.double(value))
    default:
      let node = EncodingNode()
      try value.encode(to: TreeEncoder(node: node, codingPath: codingPath))
      return node
    }
  }
}

private struct KeyedTreeEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: EncodingNode
  let codingPath: [any CodingKey]

  private func add(_ value: BinaryValue, _ key: Key) { node.fields.append((key.stringValue, EncodingNode(value))) }

  mutating func encodeNil(forKey key: Key) throws { add(.null, key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { add(.bool(value), key) }
  mutating func encode(_ value: String, forKey key: Key) throws { add(.string(value), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { add(.double(value), key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { add(.float(value), key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { add(.int(Int64(value)), key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { add(.int(Int64(value)), key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { add(.int(Int64(value)), key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { add(.int(Int64(value)), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { add(.int(value), key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { add(.uint(UInt64(value)), key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { add(.uint(UInt64(value)), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { add(.uint(UInt64(value)), key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { add(.uint(UInt64(value)), key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { add(.uint(value), key) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    node.fields.append((key.stringValue, try TreeEncoder.encodeNode(value, codingPath: codingPath + [key])))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let child = EncodingNode()
    node.fields.append((key.stringValue, child))
    return TreeEncoder(node: child, codingPath: codingPath + [key]).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let child = EncodingNode()
    node.fields.append((key.stringValue, child))
    return TreeEncoder(node: child, codingPath: codingPath + [key]).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }

  mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

  private func superEncoder(named name: String) -> any Encoder {
    let child = EncodingNode()
    node.fields.append((name, child))
    return TreeEncoder(node: child, codingPath: codingPath)
  }
}

private struct UnkeyedTreeEncoder: UnkeyedEncodingContainer {
  let node: EncodingNode
  let codingPath: [any CodingKey]
  var count: Int { node.items.count }

  private func add(_ value: BinaryValue) { node.items.append(EncodingNode(value)) }

  mutating func encodeNil() throws { add(.null) }
  mutating func encode(_ value: Bool) throws { add(.bool(value)) }
  mutating func encode(_ value: String) throws { add(.string(value)) }
  mutating func encode(_ value: Double) throws { add(.double(value)) }
  mutating func encode(_ value: Float) throws { add(.float(value)) }
  mutating func encode(_ value: Int) throws { add(.int(Int64(value))) }
  mutating func encode(_ value: Int8) throws { add(.int(Int64(value))) }
  mutating func encode(_ value: Int16) throws { add(.int(Int64(value))) }
  mutating func encode(_ value: Int32) throws { add(.int(Int64(value))) }
  mutating func encode(_ value: Int64) throws { add(.int(value)) }
  mutating func encode(_ value: UInt) throws { add(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt8) throws { add(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt16) throws { add(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt32) throws { add(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt64) throws { add(.uint(value)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    node.items.append(try TreeEncoder.encodeNode(value, codingPath: codingPath + [IndexKey(index: count)]))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
    let child = EncodingNode()
    let path = codingPath + [IndexKey(index: count)]
    node.items.append(child)
    return TreeEncoder(node: child, codingPath: path).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let child = EncodingNode()
    let path = codingPath + [IndexKey(index: count)]
    node.items.append(child)
    return TreeEncoder(node: child, codingPath: path).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let child = EncodingNode()
    let path = codingPath + [IndexKey(index: count)]
    node.items.append(child)
    return TreeEncoder(node: child, codingPath: path)
  }
}

private struct SingleValueTreeEncoder: SingleValueEncodingContainer {
  let node: EncodingNode
  let codingPath: [any CodingKey]

  private func set(_ value: BinaryValue) {
    node.kind = .leaf
    node.leaf = value
  }

  mutating func encodeNil() throws { set(.null) }
  mutating func encode(_ value: Bool) throws { set(.bool(value)) }
  mutating func encode(_ value: String) throws { set(.string(value)) }
  mutating func encode(_ value: Double) throws { set(.double(value)) }
  mutating func encode(_ value: Float) throws { set(.float(value)) }
  mutating func encode(_ value: Int) throws { set(.int(Int64(value))) }
  mutating func encode(_ value: Int8) throws { set(.int(Int64(value))) }
  mutating func encode(_ value: Int16) throws { set(.int(Int64(value))) }
  mutating func encode(_ value: Int32) throws { set(.int(Int64(value))) }
  mutating func encode(_ value: Int64) throws { set(.int(value)) }
  mutating func encode(_ value: UInt) throws { set(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt8) throws { set(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt16) throws { set(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt32) throws { set(.uint(UInt64(value))) }
  mutating func encode(_ value: UInt64) throws { set(.uint(value)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let child = try TreeEncoder.encodeNode(value, codingPath: codingPath)
    node.kind = child.kind
    node.leaf = child.leaf
    node.fields = child.fields
    node.items = child.items
  }
}

/// The coding key of an array element.
struct IndexKey: CodingKey {
  let index: Int
  init(index: Int) { self.index = index }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { index = intValue }
  var stringValue: String { "[\(index)]" }
  var intValue: Int? { index }
}
