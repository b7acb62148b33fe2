/// One change an event made to the state, by path.
struct StateChange: Equatable {
  /// What happened at the path.
  enum Operation: String {
    /// The value changed from `old` to `new`.
    case set
    /// A collection gained the element at the path.
    case insert
    /// A collection lost the element at the path.
    case remove
    /// The collection at the path holds some of the same elements in another order.
    case move
  }

  var operation: Operation
  var path: String
  var old: InspectorJSON?
  var new: InspectorJSON?

  /// The change as the protocol sends it.
  var json: InspectorJSON {
    var fields: [(String, InspectorJSON)] = [("op", .string(operation.rawValue)), ("path", .string(path))]
    if let old { fields.append(("old", old)) }
    if let new { fields.append(("new", new)) }
    return .object(fields)
  }
}
