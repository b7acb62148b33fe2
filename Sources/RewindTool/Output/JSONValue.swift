import Foundation
import RewindLog

/// A JSON value whose objects keep their key order, so output is stable and reads in the order events
/// were encoded. Written by hand: Foundation's serializer sorts or scrambles keys.
public indirect enum JSONValue: Sendable, Hashable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number, already formatted as JSON.
  case number(String)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object with keys in order.
  case object([(String, JSONValue)])

  /// A number from an integer.
  public static func int<T: BinaryInteger>(_ value: T) -> JSONValue { .number(String(value)) }

  /// A number from a double; NaN and infinities, which JSON lacks, become strings.
  public static func double(_ value: Double) -> JSONValue {
    guard value.isFinite else { return .string(String(value)) }
    if value == value.rounded(), abs(value) < 1e15 { return .number(String(Int64(value))) }
    return .number(String(value))
  }

  /// The value of `key` in an object.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let fields) = self else { return nil }
    return fields.first { $0.0 == key }?.1
  }

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)):
      a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: false
    }
  }

  public func hash(into hasher: inout Hasher) { hasher.combine(serialized()) }

  /// The JSON text: compact on one line, or indented by two spaces.
  ///
  /// With `forHTML`, `<`, `>`, `&` and the line separators U+2028/U+2029 are written as `\u` escapes, so
  /// the text can sit inside an HTML `<script>` element without ending it or opening a comment.
  public func serialized(pretty: Bool = false, forHTML: Bool = false) -> String {
    var out = ""
    write(to: &out, pretty: pretty, forHTML: forHTML, indent: "")
    return out
  }

  private func write(to out: inout String, pretty: Bool, forHTML: Bool, indent: String) {
    switch self {
    case .null: out += "null"
    case .bool(let value): out += value ? "true" : "false"
    case .number(let text): out += text
    case .string(let text): Self.escape(text, into: &out, forHTML: forHTML)
    case .array(let values):
      if values.isEmpty {
        out += "[]"
        return
      }
      out += "["
      let inner = indent + "  "
      for (index, value) in values.enumerated() {
        if index > 0 { out += "," }
        if pretty { out += "\n" + inner }
        value.write(to: &out, pretty: pretty, forHTML: forHTML, indent: inner)
      }
      if pretty { out += "\n" + indent }
      out += "]"
    case .object(let fields):
      if fields.isEmpty {
        out += "{}"
        return
      }
      out += "{"
      let inner = indent + "  "
      for (index, (key, value)) in fields.enumerated() {
        if index > 0 { out += "," }
        if pretty { out += "\n" + inner }
        Self.escape(key, into: &out, forHTML: forHTML)
        out += pretty ? ": " : ":"
        value.write(to: &out, pretty: pretty, forHTML: forHTML, indent: inner)
      }
      if pretty { out += "\n" + indent }
      out += "}"
    }
  }

  private static func escape(_ text: String, into out: inout String, forHTML: Bool) {
    out += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      case "<" where forHTML, ">" where forHTML, "&" where forHTML, "\u{2028}" where forHTML,
        "\u{2029}" where forHTML:
        out += unicodeEscape(scalar.value)
      default:
        // Controls (C0, DEL, C1) and the separators and bidirectional controls of LogText as `\u` escapes:
        // the same value, safe on a terminal.
        if scalar.value < 0x20 || LogText.needsEscape(scalar) {
          out += unicodeEscape(scalar.value)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }

  private static func unicodeEscape(_ value: UInt32) -> String {
    let hex = String(value, radix: 16)
    return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
  }
}
