/// What an app takes out of a bug report before it leaves the device: paths into the state and into the
/// actions of the events, whose values are replaced by placeholders of the same shape.
///
/// A path is keys separated by dots, matched against the value as its `Codable` conformance encodes
/// it: a field's key, an array's index, `*` for any one key or index, and `**` for any number of levels
/// (none included). An enum case is a key, and its unlabeled payload `_0`:
///
/// ```swift
/// RedactionRules(
///   statePaths: ["**.sender", "draft"],        // every `sender` field, and the top-level `draft`
///   actionPaths: ["**.setText", "login.*"])    // the text of every setText, every field of a login
/// ```
///
/// A replaced string keeps its number of characters (each becomes `x`), a number becomes 0, a Boolean
/// `false`; arrays and keyed values keep their elements and keys, each replaced in turn. So a redacted
/// value still decodes as long as its type does not check what it holds (an enum with string raw values
/// does); a report whose redaction makes an event undecodable is refused when it is made.
public struct RedactionRules: Sendable, Hashable, Codable {
  /// Paths into the state (the report's start and end states).
  public var statePaths: [String]
  /// Paths into the actions of the report's events.
  public var actionPaths: [String]

  /// Rules redacting `statePaths` of the state and `actionPaths` of every action.
  public init(statePaths: [String] = [], actionPaths: [String] = []) {
    self.statePaths = statePaths
    self.actionPaths = actionPaths
  }

  /// Whether nothing is redacted.
  public var isEmpty: Bool { statePaths.isEmpty && actionPaths.isEmpty }
}

/// Applies redaction paths to values read as trees.
enum Redaction {
  /// `value` with every value at one of `paths` replaced by a placeholder of its shape.
  /// - Returns: the redacted value and the concrete paths replaced (keys and indices joined by dots).
  static func redact(_ value: BinaryValue, paths: [String]) -> (value: BinaryValue, redacted: [String]) {
    var result = value
    var redacted: [String] = []
    for path in paths {
      let components = path.split(separator: ".", omittingEmptySubsequences: true).map(String.init)
      guard !components.isEmpty else { continue }
      result = redact(result, components[...], at: [], into: &redacted)
    }
    return (result, redacted)
  }

  private static func redact(
    _ value: BinaryValue, _ components: ArraySlice<String>, at path: [String], into redacted: inout [String]
  ) -> BinaryValue {
    guard let first = components.first else {
      redacted.append(path.joined(separator: "."))
      return placeholder(for: value)
    }
    let rest = components.dropFirst()
    if first == "**" {
      // `**` last redacts the whole value; otherwise zero levels (the rest applies here), then one more
      // level, keeping `**`.
      if rest.isEmpty { return redact(value, rest, at: path, into: &redacted) }
      var result = redact(value, rest, at: path, into: &redacted)
      result = mapChildren(result, at: path) { child, childPath in
        redact(child, components, at: childPath, into: &redacted)
      }
      return result
    }
    return mapChildren(value, at: path) { child, childPath in
      guard let last = childPath.last, first == "*" || first == last else { return child }
      return redact(child, rest, at: childPath, into: &redacted)
    }
  }

  /// `value` with `transform` applied to each of its fields or elements (named by key or index).
  private static func mapChildren(
    _ value: BinaryValue, at path: [String], _ transform: (BinaryValue, [String]) -> BinaryValue
  ) -> BinaryValue {
    switch value {
    case .keyed(let fields):
      return .keyed(fields.map { .init(key: $0.key, value: transform($0.value, path + [$0.key])) })
    case .array(let elements):
      return .array(elements.enumerated().map { transform($1, path + [String($0)]) })
    default:
      return value
    }
  }

  /// A value of the same shape as `value` holding nothing of it.
  static func placeholder(for value: BinaryValue) -> BinaryValue {
    switch value {
    case .null: .null
    case .bool: .bool(false)
    case .int: .int(0)
    case .uint: .uint(0)
    case .double: .double(0)
    case .float: .float(0)
    case .string(let text): .string(String(repeating: "x", count: text.count))
    case .array(let elements): .array(elements.map(placeholder))
    case .keyed(let fields): .keyed(fields.map { .init(key: $0.key, value: placeholder(for: $0.value)) })
    }
  }
}
