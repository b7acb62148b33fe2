/// Reads an action's case path from the JSON its synthesized `Codable` conformance wrote, naming each case
/// as Swift does: `remove(index:)` for `.remove(index: 3)`, `list.swipe.began` for
/// `.list(.swipe(.began))`, `move(_:to:)` for `.move(2, to: 5)`.
///
/// Swift writes a case as a one-key object `{"case": {…}}` whose value holds the associated values under
/// their labels, or `_0`, `_1`… for unlabelled ones. An unlabelled value that is itself a case (or a struct
/// whose `action` field is one, as `IdentifiedAction` has) continues the path; labelled values are the
/// case's arguments and end it, so `{"remove": {"index": 3}}` is `remove(index:)`, not `remove.index`.
enum ActionPathReader {
  /// The path of `action` as recorded (with its `_0` wrapper or without), or `nil` when it shows no case.
  static func path(of action: JSONValue) -> String? {
    var value = action
    if case .object(let fields) = value, fields.count == 1, fields[0].0 == "_0" { value = fields[0].1 }
    var parts: [String] = []
    // Bounded: a payload cannot make the walk go on for ever.
    while parts.count < 16, let (name, arguments) = enumCase(value) {
      let labels = arguments.map { isPositional($0.0) ? nil : $0.0 }
      parts.append(ActionCasePath.name(name, labels: labels))
      guard labels.allSatisfy({ $0 == nil }), let next = nested(arguments.map(\.1)) else { break }
      value = next
    }
    return parts.isEmpty ? nil : parts.joined(separator: ".")
  }

  /// A case: a one-key object whose value is an object (of its associated values, empty for none).
  private static func enumCase(_ value: JSONValue) -> (String, [(String, JSONValue)])? {
    guard case .object(let fields) = value, fields.count == 1, case .object(let arguments) = fields[0].1
    else {
      return nil
    }
    return (fields[0].0, arguments)
  }

  /// The case unlabelled values lead to: the only one, or the first that is a case; through a struct's
  /// `action` field.
  private static func nested(_ values: [JSONValue]) -> JSONValue? {
    let candidates = values.count == 1 ? values : values.filter { enumCase($0) != nil }
    guard let first = candidates.first else { return nil }
    if enumCase(first) != nil { return first }
    if let inner = first["action"], enumCase(inner) != nil { return inner }
    return nil
  }

  /// `_0`, `_1`…: the key Swift gives an unlabelled associated value.
  static func isPositional(_ key: String) -> Bool {
    key.count > 1 && key.first == "_" && key.dropFirst().allSatisfy(\.isNumber)
  }
}
