/// An action that names its event type and schema version, recorded with every event.
///
/// Conforming is optional: without it, the type name is the enum case's name (found by reflection) and
/// the version is 1.
public protocol VersionedAction {
  /// The version of the action's encoding; bump it when the encoded shape changes.
  static var schemaVersion: UInt64 { get }
  /// The event type recorded for this action, e.g. "archive".
  var eventTypeName: String { get }
}

extension VersionedAction {
  /// Version 1.
  public static var schemaVersion: UInt64 { 1 }
  /// The enum case's name, or the type's name for other kinds of value.
  public var eventTypeName: String { reflectedTypeName(of: self) }
}

/// The case name of an enum value (its payload-less description or its first child's label), or the
/// type's name.
func reflectedTypeName(of value: Any) -> String {
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .enum else { return String(describing: type(of: value)) }
  if let label = mirror.children.first?.label { return label }
  return String(describing: value)
}
