/// The differences between two JSON trees, as paths: what `diff` prints and the timeline shows.
public struct StateChange: Sendable, Hashable {
  /// What happened at the path.
  public enum Kind: String, Sendable, Hashable {
    /// Present only in the second value.
    case added
    /// Present only in the first value.
    case removed
    /// Present in both, different.
    case changed
  }

  /// What happened.
  public var kind: Kind
  /// Where, e.g. `items[2].title`; `(state)` for the whole value.
  public var path: String
  /// The value before, unless added.
  public var before: JSONValue?
  /// The value after, unless removed.
  public var after: JSONValue?

  /// The changes that turn `before` into `after`, depth first in key order.
  public static func between(_ before: JSONValue, _ after: JSONValue) -> [StateChange] {
    var changes: [StateChange] = []
    compare(before, after, path: "", into: &changes)
    return changes
  }

  private static func compare(_ a: JSONValue, _ b: JSONValue, path: String, into changes: inout [StateChange])
  {
    switch (a, b) {
    case (.object(let left), .object(let right)):
      var keys = left.map(\.0)
      for (key, _) in right where !keys.contains(key) { keys.append(key) }
      for key in keys {
        let child = path.isEmpty ? key : path + "." + key
        switch (a[key], b[key]) {
        case (let x?, let y?): compare(x, y, path: child, into: &changes)
        case (let x?, nil): changes.append(StateChange(kind: .removed, path: child, before: x, after: nil))
        case (nil, let y?): changes.append(StateChange(kind: .added, path: child, before: nil, after: y))
        case (nil, nil): break
        }
      }
    case (.array(let left), .array(let right)):
      for index in 0..<max(left.count, right.count) {
        let child = path + "[\(index)]"
        if index >= right.count {
          changes.append(StateChange(kind: .removed, path: child, before: left[index], after: nil))
        } else if index >= left.count {
          changes.append(StateChange(kind: .added, path: child, before: nil, after: right[index]))
        } else {
          compare(left[index], right[index], path: child, into: &changes)
        }
      }
    default:
      if a != b {
        changes.append(
          StateChange(kind: .changed, path: path.isEmpty ? "(state)" : path, before: a, after: b))
      }
    }
  }

  /// One line: `+ path: value`, `- path: value` or `~ path: before → after`.
  public var line: String {
    switch kind {
    case .added: "+ \(path): \(after?.serialized() ?? "")"
    case .removed: "- \(path): \(before?.serialized() ?? "")"
    case .changed: "~ \(path): \(before?.serialized() ?? "") → \(after?.serialized() ?? "")"
    }
  }

  /// As a JSON object.
  public var json: JSONValue {
    var fields: [(String, JSONValue)] = [("kind", .string(kind.rawValue)), ("path", .string(path))]
    if let before { fields.append(("before", before)) }
    if let after { fields.append(("after", after)) }
    return .object(fields)
  }
}
