import Foundation

/// Encodes `Encodable` values in the self-describing binary format of ``BinaryValue``.
///
/// Keyed containers keep their field names, so any event can be shown as a tree without the app's types.
public struct BinaryEncoder: Sendable {
  /// Creates an encoder.
  public init() {}

  /// The bytes of `value`.
  ///
  /// Written straight into the bytes when the value fills its containers one at a time (as synthesized
  /// `Codable` code does), else through a tree; the bytes are the same either way.
  public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
    try StreamEncoding.bytes(value)
  }

  /// `value` as a tree.
  public func encodeTree<T: Encodable>(_ value: T) throws -> BinaryValue {
    try encodeNode(value).freeze()
  }

  func encodeNode<T: Encodable>(_ value: T) throws -> EncodingNode {
    let node = EncodingNode()
    try value.encode(to: TreeEncoder(node: node, path: .root))
    return node
  }
}

/// A field or element: a leaf kept inline, or a nested container.
enum EncodingSlot {
  case value(BinaryValue)
  case node(EncodingNode)

  func freeze() -> BinaryValue {
    switch self {
    case .value(let value): value
    case .node(let node): node.freeze()
    }
  }

  func write(to writer: inout ByteWriter) {
    switch self {
    case .value(let value): value.write(to: &writer)
    case .node(let node): node.write(to: &writer)
    }
  }
}

/// A value being built: a leaf, a keyed container or an unkeyed container, filled in place.
final class EncodingNode {
  enum Kind { case unset, leaf, keyed, unkeyed }
  var kind = Kind.unset
  var leaf = BinaryValue.null
  var fields: [(String, EncodingSlot)] = []
  var items: [EncodingSlot] = []

  init() {}

  func freeze() -> BinaryValue {
    switch kind {
    case .unset: .keyed([])
    case .leaf: leaf
    case .keyed: .keyed(fields.map { BinaryValue.Field(key: $0.0, value: $0.1.freeze()) })
    case .unkeyed: .array(items.map { $0.freeze() })
    }
  }

  /// Writes the bytes of ``freeze()`` without building it.
  func write(to writer: inout ByteWriter) {
    switch kind {
    case .unset:
      writer.u8(BinaryValue.Tag.keyed.rawValue)
      writer.varint(0)
    case .leaf: leaf.write(to: &writer)
    case .keyed:
      writer.u8(BinaryValue.Tag.keyed.rawValue)
      writer.varint(UInt64(fields.count))
      for (key, slot) in fields {
        writer.key(key)
        slot.write(to: &writer)
      }
    case .unkeyed:
      writer.u8(BinaryValue.Tag.array.rawValue)
      writer.varint(UInt64(items.count))
      for slot in items { slot.write(to: &writer) }
    }
  }

  /// The first key of the keyed value found by following the field names of `path`: for an enum
  /// with a synthesized encoding, its case's name.
  func firstKey(at path: [String]) -> String? {
    var node = self
    for name in path {
      guard node.kind == .keyed, case .node(let child)? = node.fields.first(where: { $0.0 == name })?.1 else {
        return nil
      }
      node = child
    }
    return node.kind == .keyed ? node.fields.first?.0 : nil
  }
}

struct TreeEncoder: Encoder {
  let node: EncodingNode
  let path: CodingPath
  var codingPath: [any CodingKey] { path.keys }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if node.kind != .keyed {
      node.kind = .keyed
      node.fields = []
    }
    return KeyedEncodingContainer(KeyedTreeEncoder<Key>(node: node, path: path))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if node.kind != .unkeyed {
      node.kind = .unkeyed
      node.items = []
    }
    return UnkeyedTreeEncoder(node: node, path: path)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValueTreeEncoder(node: node, path: path)
  }

  /// The tree of `value`, with fast paths for the primitive types.
  static func encodeSlot<T: Encodable>(_ value: T, path: @autoclosure () -> CodingPath) throws -> EncodingSlot
  {
    // Comparing metatypes is cheap; a failed dynamic cast per candidate type is not.
    if T.self == String.self { return .value(.string(unsafeBitCast(value, to: String.self))) }
    if T.self == Int.self { return .value(.int(Int64(unsafeBitCast(value, to: Int.self)))) }
    if T.self == UInt64.self { return .value(.uint(unsafeBitCast(value, to: UInt64.self))) }
    if T.self == Bool.self { return .value(.bool(unsafeBitCast(value, to: Bool.self))) }
    if T.self == Double.self { return .value(.double(unsafeBitCast(value, to: Double.self))) }
    // Date encodes itself as its time interval since the reference date; do the same without a container.
    if T.self == Date.self {
      return .value(.double(unsafeBitCast(value, to: Date.self).timeIntervalSinceReferenceDate))
    }
    let node = EncodingNode()
    try value.encode(to: TreeEncoder(node: node, path: path()))
    if node.kind == .leaf { return .value(node.leaf) }
    return .node(node)
  }
}

private struct KeyedTreeEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: EncodingNode
  let path: CodingPath
  var codingPath: [any CodingKey] { path.keys }

  private func add(_ value: BinaryValue, _ key: Key) { node.fields.append((key.stringValue, .value(value))) }

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
    node.fields.append((key.stringValue, try TreeEncoder.encodeSlot(value, path: path.appending(key))))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let child = EncodingNode()
    node.fields.append((key.stringValue, .node(child)))
    return TreeEncoder(node: child, path: path.appending(key)).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let child = EncodingNode()
    node.fields.append((key.stringValue, .node(child)))
    return TreeEncoder(node: child, path: path.appending(key)).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }

  mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

  private func superEncoder(named name: String) -> any Encoder {
    let child = EncodingNode()
    node.fields.append((name, .node(child)))
    return TreeEncoder(node: child, path: path)
  }
}

private struct UnkeyedTreeEncoder: UnkeyedEncodingContainer {
  let node: EncodingNode
  let path: CodingPath
  var codingPath: [any CodingKey] { path.keys }
  var count: Int { node.items.count }

  private func add(_ value: BinaryValue) { node.items.append(.value(value)) }

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
    node.items.append(try TreeEncoder.encodeSlot(value, path: path.appending(IndexKey(index: count))))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let child = EncodingNode()
    let childPath = path.appending(IndexKey(index: count))
    node.items.append(.node(child))
    return TreeEncoder(node: child, path: childPath).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let child = EncodingNode()
    let childPath = path.appending(IndexKey(index: count))
    node.items.append(.node(child))
    return TreeEncoder(node: child, path: childPath).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let child = EncodingNode()
    let childPath = path.appending(IndexKey(index: count))
    node.items.append(.node(child))
    return TreeEncoder(node: child, path: childPath)
  }
}

private struct SingleValueTreeEncoder: SingleValueEncodingContainer {
  let node: EncodingNode
  let path: CodingPath
  var codingPath: [any CodingKey] { path.keys }

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
    switch try TreeEncoder.encodeSlot(value, path: path) {
    case .value(let leaf): set(leaf)
    case .node(let child):
      node.kind = child.kind
      node.leaf = child.leaf
      node.fields = child.fields
      node.items = child.items
    }
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
