/// Why bytes could not be decoded by the binary codec. Every case names the byte offset.
public enum BinaryCodecError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The input ended inside a value.
  case truncated(offset: Int)
  /// A byte that is not a known value tag.
  case unknownTag(UInt8, offset: Int)
  /// A length or count larger than the bytes that remain.
  case lengthOutOfBounds(offset: Int)
  /// A varint longer than 64 bits.
  case varintOverflow(offset: Int)
  /// A string whose bytes are not UTF-8.
  case invalidUTF8(offset: Int)
  /// Values nested deeper than the decoder allows.
  case tooDeep(offset: Int, limit: Int)
  /// Bytes left over after the value.
  case trailingBytes(offset: Int)
  /// A reference to a well-known field name that the format does not define.
  case unknownKey(index: UInt64, offset: Int)
  /// A value of another shape than a ``BinaryCodable`` type reads (or a field it does not know).
  case mismatch(expected: String, found: String, offset: Int)
  /// An enum case name a ``BinaryCodable`` type does not know (``BinaryReader/unknownCase(_:)``).
  case unknownCase(String, offset: Int)

  public var description: String {
    switch self {
    case .truncated(let offset): "input ends inside a value at byte \(offset)"
    case .unknownTag(let tag, let offset): "unknown value tag \(tag) at byte \(offset)"
    case .lengthOutOfBounds(let offset): "length at byte \(offset) exceeds the remaining input"
    case .varintOverflow(let offset): "varint at byte \(offset) is longer than 64 bits"
    case .invalidUTF8(let offset): "string at byte \(offset) is not UTF-8"
    case .tooDeep(let offset, let limit): "value at byte \(offset) nests deeper than \(limit) levels"
    case .trailingBytes(let offset): "unexpected bytes after the value, from byte \(offset)"
    case .unknownKey(let index, let offset): "unknown well-known key \(index) at byte \(offset)"
    case .mismatch(let expected, let found, let offset):
      "expected \(expected), found \(found) at byte \(offset)"
    case .unknownCase(let name, let offset): "unknown case \"\(name)\" at byte \(offset)"
    }
  }
}
