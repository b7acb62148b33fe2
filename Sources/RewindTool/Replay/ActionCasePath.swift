/// The full case path of an action, read by reflection: `list.swipe.began` for
/// `.list(.swipe(IdentifiedAction(id: 3, action: .began(…))))`.
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
      names.append(child.label ?? String(describing: current))
      guard let next = nestedEnum(in: child.value) else { break }
      current = next
    }
    return names.isEmpty ? String(describing: type(of: value)) : names.joined(separator: ".")
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
