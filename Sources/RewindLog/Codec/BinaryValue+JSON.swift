/// JSON text for a ``BinaryValue`` tree and back: how export shows an event's payload, and how events
/// written with the JSON codec are upcast.
extension BinaryValue {
  /// Whether the tree can be written as JSON: every number is finite (JSON has no NaN or infinity).
  public var isJSONRepresentable: Bool {
    switch self {
    case .double(let value): value.isFinite
    case .float(let value): value.isFinite
    case .array(let values): values.allSatisfy(\.isJSONRepresentable)
    case .keyed(let fields): fields.allSatisfy(\.value.isJSONRepresentable)
    default: true
    }
  }

  /// The tree as compact JSON text, keyed values as objects in field order; `nil` when it is not
  /// ``isJSONRepresentable``.
  public var jsonText: String? {
    guard isJSONRepresentable else { return nil }
    var out: [UInt8] = []
    writeJSON(into: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends the JSON text; call only when ``isJSONRepresentable``.
  func writeJSON(into out: inout [UInt8]) {
    switch self {
    case .null: out.append(contentsOf: "null".utf8)
    case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
    case .int(let value): out.append(contentsOf: String(value).utf8)
    case .uint(let value): out.append(contentsOf: String(value).utf8)
    case .double(let value): out.append(contentsOf: String(value).utf8)
    case .float(let value): out.append(contentsOf: String(value).utf8)
    case .string(let value): Self.writeJSONString(value, into: &out)
    case .array(let values):
      out.append(UInt8(ascii: "["))
      for (index, value) in values.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        value.writeJSON(into: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .keyed(let fields):
      out.append(UInt8(ascii: "{"))
      for (index, field) in fields.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        Self.writeJSONString(field.key, into: &out)
        out.append(UInt8(ascii: ":"))
        field.value.writeJSON(into: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// Appends `text` as a JSON string literal, escaping quotes, backslashes and control characters; DEL,
  /// the C1 controls, the separators and the bidirectional controls too (see ``LogText``), which JSON
  /// allows raw but a terminal may act on: the value is the same.
  static func writeJSONString(_ text: String, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    if text.unicodeScalars.contains(where: LogText.escapesInJSON) {
      for scalar in text.unicodeScalars {
        if LogText.escapesInJSON(scalar) {
          appendUnicodeEscape(scalar.value, into: &out)
        } else {
          appendEscaped(String(scalar).utf8, into: &out)
        }
      }
    } else {
      appendEscaped(text.utf8, into: &out)
    }
    out.append(UInt8(ascii: "\""))
  }

  private static func appendEscaped(_ utf8: String.UTF8View, into out: inout [UInt8]) {
    for byte in utf8 {
      switch byte {
      case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
      case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
      case 0x0A: out.append(contentsOf: "\\n".utf8)
      case 0x0D: out.append(contentsOf: "\\r".utf8)
      case 0x09: out.append(contentsOf: "\\t".utf8)
      case 0..<0x20: appendUnicodeEscape(UInt32(byte), into: &out)
      default: out.append(byte)
      }
    }
  }

  /// `\uXXXX` for a scalar of the Basic Multilingual Plane.
  private static func appendUnicodeEscape(_ value: UInt32, into out: inout [UInt8]) {
    let hex = Array("0123456789abcdef".utf8)
    out.append(contentsOf: "\\u".utf8)
    for shift in stride(from: 12, through: 0, by: -4) { out.append(hex[Int(value >> UInt32(shift) & 0xF)]) }
  }

  /// Parses JSON text into a tree: objects become keyed values (in their order), integers `int` (or
  /// `uint` above `Int64.max`), other numbers `double`.
  ///
  /// Never traps; nesting is limited to `maxDepth`.
  /// - Throws: ``BinaryCodecError`` naming the byte offset of the problem.
  public static func parseJSON(_ bytes: some Collection<UInt8>, maxDepth: Int = defaultMaxDepth)
    throws(BinaryCodecError) -> BinaryValue
  {
    var parser = JSONParser(bytes: Array(bytes), maxDepth: maxDepth)
    parser.skipSpace()
    let value = try parser.value(depth: 0)
    parser.skipSpace()
    guard parser.offset == parser.bytes.count else { throw .trailingBytes(offset: parser.offset) }
    return value
  }
}

/// A small recursive-descent JSON parser (RFC 8259) producing ``BinaryValue`` trees.
private struct JSONParser {
  let bytes: [UInt8]
  let maxDepth: Int
  var offset = 0

  init(bytes: [UInt8], maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  mutating func skipSpace() {
    while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
  }

  private func peek() throws(BinaryCodecError) -> UInt8 {
    guard offset < bytes.count else { throw .truncated(offset: offset) }
    return bytes[offset]
  }

  private mutating func expect(_ literal: String, _ value: BinaryValue) throws(BinaryCodecError)
    -> BinaryValue
  {
    let utf8 = Array(literal.utf8)
    guard offset + utf8.count <= bytes.count else { throw .truncated(offset: offset) }
    guard Array(bytes[offset..<(offset + utf8.count)]) == utf8 else {
      throw .unknownTag(bytes[offset], offset: offset)
    }
    offset += utf8.count
    return value
  }

  mutating func value(depth: Int) throws(BinaryCodecError) -> BinaryValue {
    let byte = try peek()
    switch byte {
    case UInt8(ascii: "n"): return try expect("null", .null)
    case UInt8(ascii: "t"): return try expect("true", .bool(true))
    case UInt8(ascii: "f"): return try expect("false", .bool(false))
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "["):
      guard depth < maxDepth else { throw .tooDeep(offset: offset, limit: maxDepth) }
      offset += 1
      var values: [BinaryValue] = []
      skipSpace()
      if try peek() == UInt8(ascii: "]") {
        offset += 1
        return .array(values)
      }
      while true {
        skipSpace()
        values.append(try value(depth: depth + 1))
        skipSpace()
        let next = try peek()
        offset += 1
        if next == UInt8(ascii: "]") { return .array(values) }
        guard next == UInt8(ascii: ",") else { throw .unknownTag(next, offset: offset - 1) }
      }
    case UInt8(ascii: "{"):
      guard depth < maxDepth else { throw .tooDeep(offset: offset, limit: maxDepth) }
      offset += 1
      var fields: [BinaryValue.Field] = []
      skipSpace()
      if try peek() == UInt8(ascii: "}") {
        offset += 1
        return .keyed(fields)
      }
      while true {
        skipSpace()
        guard try peek() == UInt8(ascii: "\"") else { throw .unknownTag(bytes[offset], offset: offset) }
        let key = try string()
        skipSpace()
        guard try peek() == UInt8(ascii: ":") else { throw .unknownTag(bytes[offset], offset: offset) }
        offset += 1
        skipSpace()
        fields.append(BinaryValue.Field(key: key, value: try value(depth: depth + 1)))
        skipSpace()
        let next = try peek()
        offset += 1
        if next == UInt8(ascii: "}") { return .keyed(fields) }
        guard next == UInt8(ascii: ",") else { throw .unknownTag(next, offset: offset - 1) }
      }
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw .unknownTag(byte, offset: offset)
    }
  }

  private mutating func number() throws(BinaryCodecError) -> BinaryValue {
    let start = offset
    var integral = true
    while offset < bytes.count {
      let byte = bytes[offset]
      if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
        integral = false
      } else if !(byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte))
      {
        break
      }
      offset += 1
    }
    let text = String(decoding: bytes[start..<offset], as: UTF8.self)
    if integral, let value = Int64(text) { return .int(value) }
    if integral, let value = UInt64(text) { return .uint(value) }
    guard let value = Double(text), value.isFinite else { throw .unknownTag(bytes[start], offset: start) }
    return .double(value)
  }

  private mutating func hex4() throws(BinaryCodecError) -> UInt32 {
    guard offset + 4 <= bytes.count else { throw .truncated(offset: offset) }
    guard let value = UInt32(String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self), radix: 16) else {
      throw .invalidUTF8(offset: offset)
    }
    offset += 4
    return value
  }

  private mutating func string() throws(BinaryCodecError) -> String {
    let start = offset
    offset += 1
    var out: [UInt8] = []
    while true {
      guard offset < bytes.count else { throw .truncated(offset: start) }
      let byte = bytes[offset]
      offset += 1
      switch byte {
      case UInt8(ascii: "\""):
        guard let text = String(validating: out, as: UTF8.self) else { throw .invalidUTF8(offset: start) }
        return text
      case UInt8(ascii: "\\"):
        let escape = try peek()
        offset += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
          var scalar = try hex4()
          if (0xD800..<0xDC00).contains(scalar), offset + 6 <= bytes.count,
            bytes[offset] == UInt8(ascii: "\\"),
            bytes[offset + 1] == UInt8(ascii: "u")
          {
            offset += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw .invalidUTF8(offset: offset - 6) }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let unicode = Unicode.Scalar(scalar) else { throw .invalidUTF8(offset: offset - 4) }
          out.append(contentsOf: String(Character(unicode)).utf8)
        default: throw .unknownTag(escape, offset: offset - 1)
        }
      case 0..<0x20: throw .unknownTag(byte, offset: offset - 1)
      default: out.append(byte)
      }
    }
  }
}
