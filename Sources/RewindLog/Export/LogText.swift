/// The one escaping rule for text that came from a log (an actor, an event type, a field name), wherever
/// it is shown as text: the tool's terminal output, the timeline and the exports' text attributes.
///
/// A log is input from outside: an actor holding `ESC [ 2 J` or a newline must not drive a terminal or
/// forge an output line, and a CloudEvents `String` attribute may not contain U+0000–U+001F or
/// U+007F–U+009F at all. So every control character (C0, DEL, C1), the line and paragraph separators
/// (U+2028, U+2029) and the bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E,
/// U+2066–U+2069) are written as `\u{XX}`, and a backslash as `\\`, so the escaped text is unambiguous.
/// Everything else, including other non-ASCII text, is kept as it is. JSON output keeps values exact and
/// escapes the same characters with JSON's `\u00XX` instead.
public enum LogText {
  /// `text` with the characters above escaped.
  ///
  /// ```swift
  /// LogText.escaped("mallory\u{1B}[2J")  // "mallory\\u{1B}[2J"
  /// ```
  public static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      if scalar == "\\" {
        out += "\\\\"
      } else if needsEscape(scalar) {
        out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// Whether `scalar` is written escaped (the backslash included).
  public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x5C, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E,
      0x2066...0x2069:
      true
    default: false
    }
  }

  /// Whether JSON output writes `scalar` as a `\u` escape although JSON allows it raw: DEL and the C1
  /// controls, which some terminals act on, and the separators and bidirectional controls.
  static func escapesInJSON(_ scalar: Unicode.Scalar) -> Bool {
    scalar != "\\" && scalar.value >= 0x7F && needsEscape(scalar)
  }
}
