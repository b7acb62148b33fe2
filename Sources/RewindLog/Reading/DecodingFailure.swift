/// Foundation's `DecodingError`, said in terms of a recorded action: where in the action the payload does
/// not fit the app's type, and how. Its own wording names coding keys and, for an enum case the type does
/// not have, says "Invalid number of keys found, expected one.", which does not say what is wrong.
enum DecodingFailure {
  /// A sentence for `error`, with its coding path taken relative to `base` (where the action sits).
  static func describe(_ error: DecodingError, below base: [String]) -> String {
    func place(_ context: DecodingError.Context) -> String {
      var path = context.codingPath.map(\.stringValue)
      if path.starts(with: base) { path.removeFirst(base.count) }
      return path.isEmpty ? "the action" : "the action's \(path.joined(separator: "."))"
    }
    switch error {
    case .typeMismatch(let type, let context):
      if context.debugDescription.hasPrefix("Invalid number of keys found") {
        return "\(place(context)) names an enum case its type does not have (or none)"
      }
      return "\(place(context)) is not a \(type)"
    case .valueNotFound(let type, let context):
      return "\(place(context)) has no value where a \(type) is needed"
    case .keyNotFound(let key, let context):
      return "\(place(context)) has no field \"\(key.stringValue)\""
    case .dataCorrupted(let context):
      if context.debugDescription.hasPrefix("Invalid number of keys found") {
        return "\(place(context)) names an enum case its type does not have (or none)"
      }
      return "\(place(context)) does not decode: \(context.debugDescription)"
    @unknown default:
      return String(describing: error)
    }
  }
}
