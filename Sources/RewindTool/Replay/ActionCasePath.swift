/// The full case path of an action, read by reflection: `list.swipe.began` for
/// `.list(.swipe(IdentifiedAction(id: 3, action: .began)))`, `remove(index:)` for `.remove(index: 3)`
/// (the names `rewind events` shows, see `ActionPathReader`).
///
/// Each enum contributes its case name; a payload that holds a single enum (or a struct whose one enum
/// field is named `action`, as `IdentifiedAction` has) is followed into. Anything else ends the path.
enum ActionCasePath {
  /// The path of `value`, or its type's name when it is not an enum.
  static func of(_ value: Any) -> String {
    var names: [String] = []
    var current: Any = value
    // Bounded: a recursive action type cannot make the walk go on for ever.
    for _ in 0..<16 {
      let mirror = Mirror(reflecting: current)
      guard mirror.displayStyle == .enum else { break }
      guard let child = mirror.children.first else {
        names.append(String(describing: current))
        break
      }
      let labels = argumentLabels(child.value)
      names.append(name(child.label ?? String(describing: current), labels: labels))
      // Labelled values are the case's arguments: only an unlabelled one continues the path.
      guard labels.allSatisfy({ $0 == nil }), let next = nestedEnum(in: child.value) else { break }
      current = next
    }
    return names.isEmpty ? String(describing: type(of: value)) : names.joined(separator: ".")
  }

  /// A case's name as Swift writes it: `remove(index:)` when one of its values has a label (`_:` for an
  /// unlabelled one beside it, as in `move(_:to:)`), the bare name otherwise.
  static func name(_ name: String, labels: [String?]) -> String {
    guard labels.contains(where: { $0 != nil }) else { return name }
    return name + "(" + labels.map { ($0 ?? "_") + ":" }.joined() + ")"
  }

  /// The labels of a case's associated values (`nil` for an unlabelled one): a payload of several values,
  /// or of one labelled value, is a tuple whose unlabelled elements Mirror names `.0`, `.1`…
  private static func argumentLabels(_ payload: Any) -> [String?] {
    let mirror = Mirror(reflecting: payload)
    guard mirror.displayStyle == .tuple else { return [nil] }
    return mirror.children.map { child in child.label.flatMap { $0.hasPrefix(".") ? nil : $0 } }
  }

  /// The enum a case's payload leads to: the payload itself, the only element of a one-element tuple, or
  /// the `action` field of a struct (an identified action).
  private static func nestedEnum(in payload: Any) -> Any? {
    let mirror = Mirror(reflecting: payload)
    switch mirror.displayStyle {
    case .enum: return payload
    case .tuple:
      let children = Array(mirror.children)
      if children.count == 1 { return nestedEnum(in: children[0].value) }
      return children.first { Mirror(reflecting: $0.value).displayStyle == .enum }.map(\.value)
    case .struct:
      return mirror.children.first { $0.label == "action" }.map(\.value).flatMap { value in
        Mirror(reflecting: value).displayStyle == .enum ? value : nil
      }
    default: return nil
    }
  }
}
