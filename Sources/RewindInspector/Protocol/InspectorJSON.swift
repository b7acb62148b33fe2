/// A JSON value as the inspector's protocol carries it: objects keep their key order, integers stay exact.
///
/// Written here rather than taken from Foundation: the parser must bound what an untrusted peer can make
/// it do (nesting depth, and it never traps), and the serializer runs for every event a tool is sent.
public indirect enum InspectorJSON: Sendable, Equatable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// An integer that fits 64 bits.
  case integer(Int64)
  /// Any other number.
  case double(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([InspectorJSON])
  /// An object, its keys in order.
  case object([(String, InspectorJSON)])

  /// A number from an unsigned integer (a sequence number); past `Int64.max` it is a double.
  public static func unsigned(_ value: UInt64) -> InspectorJSON {
    value <= UInt64(Int64.max) ? .integer(Int64(value)) : .double(Double(value))
  }

  /// The value of `key` in an object; `nil` for a missing key or another kind of value.
  public subscript(key: String) -> InspectorJSON? {
    guard case .object(let fields) = self else { return nil }
    return fields.first { $0.0 == key }?.1
  }

  /// The string, if this is one.
  public var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The value as a non-negative integer, if it is one exactly.
  public var unsignedValue: UInt64? {
    switch self {
    case .integer(let value): value >= 0 ? UInt64(value) : nil
    case .double(let value):
      value >= 0 && value < 18_446_744_073_709_551_616 && value == value.rounded(.towardZero)
        ? UInt64(value) : nil
    default: nil
    }
  }

  /// The boolean, if this is one.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The elements, if this is an array.
  public var arrayValue: [InspectorJSON]? {
    if case .array(let values) = self { return values }
    return nil
  }

  public static func == (lhs: InspectorJSON, rhs: InspectorJSON) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.integer(let a), .integer(let b)): a == b
    case (.double(let a), .double(let b)): a == b
    case (.integer(let a), .double(let b)), (.double(let b), .integer(let a)): Double(a) == b
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)):
      a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: false
    }
  }
}

// MARK: Writing

extension InspectorJSON {
  /// The compact JSON text, as UTF-8 bytes.
  public var bytes: [UInt8] {
    var out: [UInt8] = []
    write(to: &out)
    return out
  }

  /// The compact JSON text.
  public var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Appends the compact JSON text to `out`.
  public func write(to out: inout [UInt8]) {
    switch self {
    case .null: out.append(contentsOf: "null".utf8)
    case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
    case .integer(let value): Self.writeInteger(value, to: &out)
    case .double(let value):
      // JSON has no NaN or infinity: they are written as strings.
      if value.isFinite {
        out.append(contentsOf: "\(value)".utf8)
      } else {
        Self.writeString(String(value), to: &out)
      }
    case .string(let text): Self.writeString(text, to: &out)
    case .array(let values):
      out.append(UInt8(ascii: "["))
      for (index, value) in values.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        value.write(to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let fields):
      out.append(UInt8(ascii: "{"))
      for (index, (key, value)) in fields.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        Self.writeString(key, to: &out)
        out.append(UInt8(ascii: ":"))
        value.write(to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// Writes the decimal digits of `value`, without making a string.
  static func writeInteger(_ value: Int64, to out: inout [UInt8]) {
    if value < 0 { out.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    var digits:
      (
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
      ) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        buffer[count] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
        magnitude /= 10
        count += 1
      } while magnitude > 0
      for index in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[index]) }
    }
  }

  /// Writes `text` as a JSON string. Besides the escapes JSON requires, `<`, `>`, `&`, DEL, the C1
  /// controls, U+2028/U+2029 and the bidirectional controls are written as `\u` escapes: the same value,
  /// safe inside HTML and on a terminal.
  static func writeString(_ text: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x22: out.append(contentsOf: [0x5C, 0x22])
      case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
      case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
      case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
      case 0x00..<0x20, 0x3C, 0x3E, 0x26, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E,
        0x2066...0x2069:
        out.append(contentsOf: "\\u".utf8)
        let hex = String(scalar.value, radix: 16)
        out.append(contentsOf: String(repeating: "0", count: 4 - hex.count).utf8)
        out.append(contentsOf: hex.utf8)
      case 0x20..<0x80:
        out.append(UInt8(truncatingIfNeeded: scalar.value))
      default:
        UTF8.encode(scalar) { out.append($0) }
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}

// MARK: Parsing

/// Why text is not a JSON value the inspector accepts.
public struct InspectorJSONError: Error, Equatable, CustomStringConvertible {
  /// What is wrong.
  public var message: String
  /// The byte offset where it was found.
  public var offset: Int

  public var description: String { "invalid JSON at byte \(offset): \(message)" }
}

extension InspectorJSON {
  /// The deepest nesting of arrays and objects ``parse(_:)`` accepts.
  public static var depthLimit: Int { 64 }

  /// Parses `bytes`, which must hold exactly one JSON value (whitespace around it allowed) in UTF-8.
  /// - Throws: ``InspectorJSONError`` for anything else, including nesting deeper than ``depthLimit``.
  /// - Complexity: O(n); never traps on any input.
  public static func parse(_ bytes: some Collection<UInt8>) throws(InspectorJSONError) -> InspectorJSON {
    var parser = Parser(bytes: Array(bytes))
    parser.skipWhitespace()
    let value = try parser.value(depth: 0)
    parser.skipWhitespace()
    guard parser.index == parser.bytes.count else { throw parser.error("text after the value") }
    return value
  }

  struct Parser {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func error(_ message: String) -> InspectorJSONError {
      InspectorJSONError(message: message, offset: index)
    }

    mutating func skipWhitespace() {
      while index < bytes.count {
        switch bytes[index] {
        case 0x20, 0x0A, 0x0D, 0x09: index += 1
        default: return
        }
      }
    }

    mutating func expect(_ word: String) throws(InspectorJSONError) {
      for byte in word.utf8 {
        guard index < bytes.count, bytes[index] == byte else { throw error("expected \(word)") }
        index += 1
      }
    }

    mutating func value(depth: Int) throws(InspectorJSONError) -> InspectorJSON {
      guard index < bytes.count else { throw error("unexpected end") }
      switch bytes[index] {
      case UInt8(ascii: "n"):
        try expect("null")
        return .null
      case UInt8(ascii: "t"):
        try expect("true")
        return .bool(true)
      case UInt8(ascii: "f"):
        try expect("false")
        return .bool(false)
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "["):
        guard depth < InspectorJSON.depthLimit else { throw error("nested too deep") }
        index += 1
        var values: [InspectorJSON] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
          index += 1
          return .array(values)
        }
        while true {
          skipWhitespace()
          values.append(try value(depth: depth + 1))
          skipWhitespace()
          guard index < bytes.count else { throw error("unexpected end in an array") }
          if bytes[index] == UInt8(ascii: ",") {
            index += 1
          } else if bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(values)
          } else {
            throw error("expected , or ]")
          }
        }
      case UInt8(ascii: "{"):
        guard depth < InspectorJSON.depthLimit else { throw error("nested too deep") }
        index += 1
        var fields: [(String, InspectorJSON)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
          index += 1
          return .object(fields)
        }
        while true {
          skipWhitespace()
          guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
          let key = try string()
          skipWhitespace()
          try expect(":")
          skipWhitespace()
          let value = try value(depth: depth + 1)
          // A repeated key would make the object mean two things: refused.
          guard !fields.contains(where: { $0.0 == key }) else { throw error("repeated key \"\(key)\"") }
          fields.append((key, value))
          skipWhitespace()
          guard index < bytes.count else { throw error("unexpected end in an object") }
          if bytes[index] == UInt8(ascii: ",") {
            index += 1
          } else if bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(fields)
          } else {
            throw error("expected , or }")
          }
        }
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
      default: throw error("unexpected character")
      }
    }

    mutating func number() throws(InspectorJSONError) -> InspectorJSON {
      let start = index
      func digits() -> Int {
        let first = index
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
        return index - first
      }
      if bytes[index] == UInt8(ascii: "-") { index += 1 }
      let integerStart = index
      guard digits() > 0 else { throw error("a number needs digits") }
      if bytes[integerStart] == UInt8(ascii: "0"), index - integerStart > 1 { throw error("leading zero") }
      var isInteger = true
      if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
        isInteger = false
        index += 1
        guard digits() > 0 else { throw error("a fraction needs digits") }
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
        isInteger = false
        index += 1
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
          index += 1
        }
        guard digits() > 0 else { throw error("an exponent needs digits") }
      }
      let text = String(decoding: bytes[start..<index], as: UTF8.self)
      if isInteger, let value = Int64(text) { return .integer(value) }
      guard let value = Double(text) else { throw error("number out of range") }
      return .double(value)
    }

    mutating func string() throws(InspectorJSONError) -> String {
      index += 1  // the opening quote
      // The common string has no escape: one validation of its bytes makes it.
      var end = index
      while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"),
        bytes[end] >= 0x20
      {
        end += 1
      }
      if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
        guard let text = String(validating: bytes[index..<end], as: UTF8.self) else {
          throw error("invalid UTF-8")
        }
        index = end + 1
        return text
      }
      var scalars = String.UnicodeScalarView()
      var chunkStart = index
      func flush() throws(InspectorJSONError) {
        guard chunkStart < index else { return }
        guard let text = String(validating: bytes[chunkStart..<index], as: UTF8.self) else {
          throw error("invalid UTF-8")
        }
        scalars.append(contentsOf: text.unicodeScalars)
      }
      while true {
        guard index < bytes.count else { throw error("unterminated string") }
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
          try flush()
          index += 1
          return String(scalars)
        }
        if byte < 0x20 { throw error("control character in a string") }
        if byte != UInt8(ascii: "\\") {
          index += 1
          continue
        }
        try flush()
        index += 1
        guard index < bytes.count else { throw error("unterminated escape") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): scalars.append("\"")
        case UInt8(ascii: "\\"): scalars.append("\\")
        case UInt8(ascii: "/"): scalars.append("/")
        case UInt8(ascii: "b"): scalars.append("\u{08}")
        case UInt8(ascii: "f"): scalars.append("\u{0C}")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "u"):
          let first = try hex4()
          if (0xD800..<0xDC00).contains(first) {
            // A high surrogate must be followed by an escaped low one.
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
              bytes[index + 1] == UInt8(ascii: "u")
            else { throw error("lone surrogate") }
            index += 2
            let second = try hex4()
            guard (0xDC00..<0xE000).contains(second),
              let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
            else { throw error("invalid surrogate pair") }
            scalars.append(scalar)
          } else {
            guard let scalar = Unicode.Scalar(first) else { throw error("lone surrogate") }
            scalars.append(scalar)
          }
        default: throw error("invalid escape")
        }
        chunkStart = index
      }
    }

    mutating func hex4() throws(InspectorJSONError) -> UInt32 {
      guard index + 4 <= bytes.count else { throw error("short \\u escape") }
      var value: UInt32 = 0
      for _ in 0..<4 {
        let byte = bytes[index]
        let digit: UInt32
        switch byte {
        case 0x30...0x39: digit = UInt32(byte - 0x30)
        case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
        case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
        default: throw error("invalid \\u escape")
        }
        value = value << 4 | digit
        index += 1
      }
      return value
    }
  }
}
