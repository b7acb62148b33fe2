/// JSON as a tree that keeps numbers as their text (so nothing is lost between the encoder and the
/// decoder) and objects in their order: the form ``StatePatch`` edits.
enum JSONTree: Hashable {
  case null
  case bool(Bool)
  case number(String)
  case string(String)
  case array([JSONTree])
  case object([(String, JSONTree)])

  static func == (lhs: JSONTree, rhs: JSONTree) -> Bool { lhs.serialized() == rhs.serialized() }
  func hash(into hasher: inout Hasher) { hasher.combine(serialized()) }

  // MARK: Editing

  /// Sets the value at `path` (keys and indices); with `adding`, a missing last key or the index one past
  /// an array's end is added.
  mutating func set(_ value: JSONTree, at path: ArraySlice<JSONTree>, adding: Bool) throws {
    guard let first = path.first else {
      self = value
      return
    }
    let rest = path.dropFirst()
    switch (self, first) {
    case (.object(var fields), .string(let key)):
      if let index = fields.firstIndex(where: { $0.0 == key }) {
        try fields[index].1.set(value, at: rest, adding: adding)
      } else if adding, rest.isEmpty {
        fields.append((key, value))
      } else {
        throw StatePatchError("no key \"\(key)\"")
      }
      self = .object(fields)
    case (.array(var elements), .number(let text)):
      guard let index = Int(text), index >= 0 else { throw StatePatchError("bad index \(text)") }
      if index < elements.count {
        try elements[index].set(value, at: rest, adding: adding)
      } else if adding, rest.isEmpty, index == elements.count {
        elements.append(value)
      } else {
        throw StatePatchError("no index \(index) in an array of \(elements.count)")
      }
      self = .array(elements)
    default:
      throw StatePatchError("path step \(first.serialized()) does not fit \(kind)")
    }
  }

  /// Removes the value at `path`: a key of an object, or an element of an array.
  mutating func remove(at path: ArraySlice<JSONTree>) throws {
    guard let first = path.first else { throw StatePatchError("cannot remove the root") }
    let rest = path.dropFirst()
    switch (self, first) {
    case (.object(var fields), .string(let key)):
      guard let index = fields.firstIndex(where: { $0.0 == key }) else {
        throw StatePatchError("no key \"\(key)\"")
      }
      if rest.isEmpty { fields.remove(at: index) } else { try fields[index].1.remove(at: rest) }
      self = .object(fields)
    case (.array(var elements), .number(let text)):
      guard let index = Int(text), elements.indices.contains(index) else {
        throw StatePatchError("no index \(text) in an array of \(elements.count)")
      }
      if rest.isEmpty { elements.remove(at: index) } else { try elements[index].remove(at: rest) }
      self = .array(elements)
    default:
      throw StatePatchError("path step \(first.serialized()) does not fit \(kind)")
    }
  }

  private var kind: String {
    switch self {
    case .null: "null"
    case .bool: "a Boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  // MARK: Text

  /// Compact JSON text.
  func serialized() -> String {
    var out = ""
    write(to: &out)
    return out
  }

  private func write(to out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let value): out += value ? "true" : "false"
    case .number(let text): out += text
    case .string(let text): Self.quote(text, into: &out)
    case .array(let elements):
      out += "["
      for (index, element) in elements.enumerated() {
        if index > 0 { out += "," }
        element.write(to: &out)
      }
      out += "]"
    case .object(let fields):
      out += "{"
      for (index, (key, value)) in fields.enumerated() {
        if index > 0 { out += "," }
        Self.quote(key, into: &out)
        out += ":"
        value.write(to: &out)
      }
      out += "}"
    }
  }

  static func quote(_ text: String, into out: inout String) {
    out += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }

  /// Parses JSON text (RFC 8259), at most 512 levels deep.
  static func parse(_ bytes: [UInt8]) throws -> JSONTree {
    var parser = Parser(bytes: bytes)
    let value = try parser.value(depth: 0)
    parser.skipSpace()
    guard parser.offset == bytes.count else { throw StatePatchError("text after the JSON value") }
    return value
  }

  private struct Parser {
    let bytes: [UInt8]
    var offset = 0

    mutating func skipSpace() {
      while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }

    mutating func value(depth: Int) throws -> JSONTree {
      guard depth < 512 else { throw StatePatchError("JSON nested too deep") }
      skipSpace()
      guard offset < bytes.count else { throw StatePatchError("JSON ends early") }
      switch bytes[offset] {
      case UInt8(ascii: "{"):
        offset += 1
        var fields: [(String, JSONTree)] = []
        skipSpace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
          offset += 1
          return .object(fields)
        }
        while true {
          skipSpace()
          let key = try string()
          skipSpace()
          try expect(UInt8(ascii: ":"))
          fields.append((key, try value(depth: depth + 1)))
          skipSpace()
          if try next() == UInt8(ascii: "}") { return .object(fields) }
          offset -= 1
          try expect(UInt8(ascii: ","))
        }
      case UInt8(ascii: "["):
        offset += 1
        var elements: [JSONTree] = []
        skipSpace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
          offset += 1
          return .array(elements)
        }
        while true {
          elements.append(try value(depth: depth + 1))
          skipSpace()
          if try next() == UInt8(ascii: "]") { return .array(elements) }
          offset -= 1
          try expect(UInt8(ascii: ","))
        }
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "t"):
        try literal("true")
        return .bool(true)
      case UInt8(ascii: "f"):
        try literal("false")
        return .bool(false)
      case UInt8(ascii: "n"):
        try literal("null")
        return .null
      default: return .number(try number())
      }
    }

    mutating func next() throws -> UInt8 {
      guard offset < bytes.count else { throw StatePatchError("JSON ends early") }
      defer { offset += 1 }
      return bytes[offset]
    }

    mutating func expect(_ byte: UInt8) throws {
      guard try next() == byte else { throw StatePatchError("expected '\(Character(Unicode.Scalar(byte)))'") }
    }

    mutating func literal(_ word: String) throws {
      for byte in word.utf8 { try expect(byte) }
    }

    mutating func number() throws -> String {
      let start = offset
      while offset < bytes.count, "+-0123456789.eE".utf8.contains(bytes[offset]) { offset += 1 }
      let text = String(decoding: bytes[start..<offset], as: UTF8.self)
      guard !text.isEmpty, Double(text) != nil else { throw StatePatchError("bad number at byte \(start)") }
      return text
    }

    mutating func string() throws -> String {
      try expect(UInt8(ascii: "\""))
      var scalars = String.UnicodeScalarView()
      var pending: [UInt8] = []
      func flush() throws {
        guard !pending.isEmpty else { return }
        guard let text = String(validating: pending, as: UTF8.self) else {
          throw StatePatchError("bad UTF-8")
        }
        scalars.append(contentsOf: text.unicodeScalars)
        pending.removeAll()
      }
      while true {
        let byte = try next()
        switch byte {
        case UInt8(ascii: "\""):
          try flush()
          return String(scalars)
        case UInt8(ascii: "\\"):
          try flush()
          let escape = try next()
          switch escape {
          case UInt8(ascii: "n"): scalars.append("\n")
          case UInt8(ascii: "t"): scalars.append("\t")
          case UInt8(ascii: "r"): scalars.append("\r")
          case UInt8(ascii: "b"): scalars.append("\u{8}")
          case UInt8(ascii: "f"): scalars.append("\u{C}")
          case UInt8(ascii: "u"):
            var code = try hex4()
            if (0xD800..<0xDC00).contains(code) {
              try expect(UInt8(ascii: "\\"))
              try expect(UInt8(ascii: "u"))
              let low = try hex4()
              guard (0xDC00..<0xE000).contains(low) else { throw StatePatchError("bad surrogate pair") }
              code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(code) else { throw StatePatchError("bad \\u escape") }
            scalars.append(scalar)
          default: scalars.append(Unicode.Scalar(escape))
          }
        default: pending.append(byte)
        }
      }
    }

    mutating func hex4() throws -> UInt32 {
      var value: UInt32 = 0
      for _ in 0..<4 {
        guard let digit = UInt32(String(Character(Unicode.Scalar(try next()))), radix: 16) else {
          throw StatePatchError("bad \\u escape")
        }
        value = value << 4 | digit
      }
      return value
    }
  }
}
