/// A value of the binary codec as a tree, readable without the app's types: what the `rewind` tool and
/// the timeline show for an event.
///
/// Wire format, one tag byte then the payload: `0` null, `1` false, `2` true, `3` signed integer (zigzag
/// varint), `4` unsigned integer (varint), `5` Double (8 bytes, little-endian bits), `6` Float (4 bytes),
/// `7` string (varint length, UTF-8), `8` array (varint count, values), `9` keyed (varint count, then
/// pairs of key and value; a key is a string or a one-byte reference to a well-known field name such as
/// "sequence", see `WellKnownKeys`).
public indirect enum BinaryValue: Hashable, Sendable {
  /// No value (`nil`).
  case null
  /// A Boolean.
  case bool(Bool)
  /// A signed integer.
  case int(Int64)
  /// An unsigned integer.
  case uint(UInt64)
  /// A double-precision number.
  case double(Double)
  /// A single-precision number.
  case float(Float)
  /// A string.
  case string(String)
  /// An ordered list (an unkeyed container).
  case array([BinaryValue])
  /// Named fields, in the order they were encoded (a keyed container).
  case keyed([Field])

  /// One named field of a keyed value.
  public struct Field: Hashable, Sendable {
    /// The field's name.
    public var key: String
    /// The field's value.
    public var value: BinaryValue

    /// Creates a field.
    public init(key: String, value: BinaryValue) {
      self.key = key
      self.value = value
    }
  }

  /// The deepest nesting ``decode(_:maxDepth:)`` accepts by default.
  public static let defaultMaxDepth = 128

  enum Tag: UInt8 {
    case null = 0, `false`, `true`, int, uint, double, float, string, array, keyed
  }

  /// The bytes of this value.
  public var encoded: [UInt8] {
    var writer = ByteWriter()
    write(to: &writer)
    return writer.bytes
  }

  func write(to writer: inout ByteWriter) {
    switch self {
    case .null: writer.u8(Tag.null.rawValue)
    case .bool(let value): writer.u8(value ? Tag.true.rawValue : Tag.false.rawValue)
    case .int(let value):
      writer.u8(Tag.int.rawValue)
      writer.varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    case .uint(let value):
      writer.u8(Tag.uint.rawValue)
      writer.varint(value)
    case .double(let value):
      writer.u8(Tag.double.rawValue)
      writer.u64(value.bitPattern)
    case .float(let value):
      writer.u8(Tag.float.rawValue)
      writer.u32(value.bitPattern)
    case .string(let value):
      writer.u8(Tag.string.rawValue)
      writer.string(value)
    case .array(let values):
      writer.u8(Tag.array.rawValue)
      writer.varint(UInt64(values.count))
      for value in values { value.write(to: &writer) }
    case .keyed(let fields):
      writer.u8(Tag.keyed.rawValue)
      writer.varint(UInt64(fields.count))
      for field in fields {
        writer.key(field.key)
        field.value.write(to: &writer)
      }
    }
  }

  /// Decodes one value that spans all of `bytes`.
  ///
  /// Never traps: every length is checked against the bytes that remain (so memory stays proportional to
  /// the input) and nesting is limited to `maxDepth`.
  /// - Throws: ``BinaryCodecError`` naming the offending byte offset.
  public static func decode(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(BinaryCodecError)
    -> BinaryValue
  {
    var reader = ByteReader(bytes)
    let value = try read(from: &reader, depth: 0, maxDepth: maxDepth)
    guard reader.isAtEnd else { throw .trailingBytes(offset: reader.offset) }
    return value
  }

  static func read(from reader: inout ByteReader, depth: Int, maxDepth: Int) throws(BinaryCodecError)
    -> BinaryValue
  {
    let start = reader.offset
    let byte = try reader.u8()
    guard let tag = Tag(rawValue: byte) else { throw .unknownTag(byte, offset: start) }
    switch tag {
    case .null: return .null
    case .false: return .bool(false)
    case .true: return .bool(true)
    case .int:
      let raw = try reader.varint()
      return .int(Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1))
    case .uint: return .uint(try reader.varint())
    case .double: return .double(Double(bitPattern: try reader.u64()))
    case .float: return .float(Float(bitPattern: try reader.u32()))
    case .string: return .string(try reader.string())
    case .array:
      guard depth < maxDepth else { throw .tooDeep(offset: start, limit: maxDepth) }
      let count = try reader.length()
      var values: [BinaryValue] = []
      values.reserveCapacity(count)
      for _ in 0..<count { values.append(try read(from: &reader, depth: depth + 1, maxDepth: maxDepth)) }
      return .array(values)
    case .keyed:
      guard depth < maxDepth else { throw .tooDeep(offset: start, limit: maxDepth) }
      let count = try reader.length(unit: 2)
      var fields: [Field] = []
      fields.reserveCapacity(count)
      for _ in 0..<count {
        let key = try reader.key()
        fields.append(Field(key: key, value: try read(from: &reader, depth: depth + 1, maxDepth: maxDepth)))
      }
      return .keyed(fields)
    }
  }
}

extension BinaryValue: CustomStringConvertible {
  /// An indented tree, one field or element per line.
  public var description: String {
    var lines: [String] = []
    render(into: &lines, label: nil, indent: "")
    return lines.joined(separator: "\n")
  }

  private func render(into lines: inout [String], label: String?, indent: String) {
    let prefix = indent + (label.map { "\($0): " } ?? "")
    switch self {
    case .null: lines.append(prefix + "nil")
    case .bool(let value): lines.append(prefix + String(value))
    case .int(let value): lines.append(prefix + String(value))
    case .uint(let value): lines.append(prefix + String(value))
    case .double(let value): lines.append(prefix + String(value))
    case .float(let value): lines.append(prefix + String(value))
    case .string(let value): lines.append(prefix + "\"" + value + "\"")
    case .array(let values):
      lines.append(prefix + "[\(values.count)]")
      for (index, value) in values.enumerated() {
        value.render(into: &lines, label: "[\(index)]", indent: indent + "  ")
      }
    case .keyed(let fields):
      lines.append(prefix + "{\(fields.count)}")
      for field in fields { field.value.render(into: &lines, label: field.key, indent: indent + "  ") }
    }
  }
}
