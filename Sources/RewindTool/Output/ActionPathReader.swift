/// Reads an action's case path from the JSON its synthesized `Codable` conformance wrote, naming each case
/// as Swift does: `remove(index:)` for `.remove(index: 3)`, `list.swipe.began` for
/// `.list(.swipe(.began))`, `move(_:to:)` for `.move(2, to: 5)`.
///
/// Swift writes a case as a one-key object `{"case": {…}}` whose value holds the associated values under
/// their labels, or `_0`, `_1`… for unlabelled ones. An unlabelled value that is itself a case (or a struct
/// whose `action` field is one, as `IdentifiedAction` has) continues the path; labelled values are the
/// case's arguments and end it, so `{"remove": {"index": 3}}` is `remove(index:)`, not `remove.index`.
///
/// The binary codec keeps the values in their declaration order. `JSONEncoder` does not keep an object's
/// keys in order (on Linux they come out in hash order, which changes from process to process), so for a
/// payload recorded with the JSON codec the labels are put in a canonical order instead: each unlabelled
/// value at its position (`_1` is the second), the labelled ones in the other places alphabetically. The
/// names are then the same in every run; a case with several labels may list them in another order than
/// its declaration.
enum ActionPathReader {
  /// The path of `action` as recorded (with its `_0` wrapper or without), or `nil` when it shows no case.
  /// `keysInOrder`: the payload's object keys are in declaration order (the binary codec).
  static func path(of action: JSONValue, keysInOrder: Bool = true) -> String? {
    var value = action
    if case .object(let fields) = value, fields.count == 1, fields[0].0 == "_0" { value = fields[0].1 }
    var parts: [String] = []
    // Bounded: a payload cannot make the walk go on for ever.
    while parts.count < 16, let (name, recorded) = enumCase(value) {
      let arguments = keysInOrder ? recorded : canonicalOrder(recorded)
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

  /// `arguments` in the order described above: each `_N` at place N (when there is such a place), the
  /// labelled ones filling the other places alphabetically.
  static func canonicalOrder(_ arguments: [(String, JSONValue)]) -> [(String, JSONValue)] {
    var places = [(String, JSONValue)?](repeating: nil, count: arguments.count)
    var others: [(String, JSONValue)] = []
    for argument in arguments {
      if isPositional(argument.0), let place = Int(argument.0.dropFirst()), place < places.count,
        places[place] == nil
      {
        places[place] = argument
      } else {
        others.append(argument)
      }
    }
    others.sort { $0.0 < $1.0 }
    var next = others.makeIterator()
    return places.compactMap { $0 ?? next.next() }
  }

  /// `_0`, `_1`…: the key Swift gives an unlabelled associated value.
  static func isPositional(_ key: String) -> Bool {
    key.utf8.count > 1 && key.first == "_" && key.utf8.dropFirst().allSatisfy { (48...57).contains($0) }
  }
}
