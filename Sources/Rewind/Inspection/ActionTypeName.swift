/// The full path of an action's type, for an inspector and the tool: every enum case from the root action
/// down to the innermost one, `list.swipe.panBegan`, where the log records only the top-level case.
///
/// Read by reflection. An optional is looked through; a struct whose value holds an `action` field that is
/// an enum (``IdentifiedAction``, or an app's own wrapper) is passed through to it, its id being in the
/// payload; a case with several associated values ends the path.
package enum ActionTypeName {
  /// How deep a path is followed: deeper nesting is cut off (a recursive action type).
  static var depthLimit: Int { 16 }

  /// The path of `action`, such as `list.swipe.panBegan`; the type's name for a value that is not an enum.
  package static func path(of action: Any) -> String {
    var parts: [String] = []
    var current = action
    while parts.count < depthLimit {
      let mirror = Mirror(reflecting: current)
      switch mirror.displayStyle {
      case .optional:
        guard let wrapped = mirror.children.first?.value else { return joined(parts, or: "nil") }
        current = wrapped
        continue
      case .enum:
        parts.append(caseName(of: current) ?? mirror.children.first?.label ?? String(describing: current))
        guard let payload = mirror.children.first?.value else { return joined(parts, or: "") }
        current = payload
      case .struct, .class:
        guard !parts.isEmpty, let inner = mirror.children.first(where: { $0.label == "action" })?.value,
          isEnum(inner)
        else { return joined(parts, or: String(describing: type(of: current))) }
        current = inner
      default:
        return joined(parts, or: String(describing: type(of: current)))
      }
    }
    return joined(parts, or: "")
  }

  static func joined(_ parts: [String], or fallback: String) -> String {
    parts.isEmpty ? fallback : parts.joined(separator: ".")
  }

  static func isEnum(_ value: Any) -> Bool {
    let style = Mirror(reflecting: value).displayStyle
    return style == .enum || style == .optional
  }

  /// The case name of an enum value, read from the runtime's metadata: unlike its description, it is not
  /// replaced by a `CustomStringConvertible` conformance.
  package static func caseName(of value: Any) -> String? {
    func name<T>(_ value: T) -> String? {
      guard let pointer = unsafe swiftEnumCaseName(value) else { return nil }
      return unsafe String(validatingCString: pointer)
    }
    return _openExistential(value, do: name)
  }
}

/// The Swift runtime's case name of an enum value (what `print` shows for a case without a description);
/// `nil` when the metadata has no names (reflection metadata stripped).
@_silgen_name("swift_EnumCaseName")
private func swiftEnumCaseName<T>(_ value: T) -> UnsafePointer<CChar>?
