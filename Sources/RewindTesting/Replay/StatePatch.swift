import Foundation

/// How a state changed, as operations on its JSON form: what generated replay tests assert after each
/// recorded event (`rewind replay --test-from N --through M`).
///
/// The operations are a JSON array; each is `["replace", path, value]`, `["add", path, value]` or
/// `["remove", path]`, where `path` is an array of object keys (strings) and array indices (numbers)
/// from the root. `add` on an array appends at its end (the index is its count); operations apply in
/// order.
///
/// ```swift
/// store.send(.toggle(id: 3)) {
///   try StatePatch(#"[["replace",["rows",2,"flag"],true]]"#).apply(to: &$0)
/// }
/// ```
public struct StatePatch: Sendable, Hashable {
  /// The operations, as JSON text.
  public let text: String

  /// A patch of the operations in `text`.
  public init(_ text: String) { self.text = text }

  /// Applies the patch to `state`: through its `Codable` form with `JSONEncoder` and `JSONDecoder`.
  /// - Throws: ``StatePatchError`` when the patch does not parse or a path does not lead anywhere; the
  ///   coders' errors when the patched state does not decode.
  public func apply<State: Codable>(to state: inout State) throws {
    var tree = try JSONTree.parse(Array(try JSONEncoder().encode(state)))
    guard case .array(let operations) = try JSONTree.parse(Array(text.utf8)) else {
      throw StatePatchError("a patch is an array of operations")
    }
    for operation in operations { try apply(operation, to: &tree) }
    state = try JSONDecoder().decode(State.self, from: Data(tree.serialized().utf8))
  }

  private func apply(_ operation: JSONTree, to tree: inout JSONTree) throws {
    guard case .array(let parts) = operation, parts.count >= 2, case .string(let verb) = parts[0],
      case .array(let path) = parts[1]
    else {
      throw StatePatchError("an operation is [verb, path, value?]: \(operation.serialized())")
    }
    switch (verb, parts.count) {
    case ("replace", 3), ("add", 3): try tree.set(parts[2], at: path[...], adding: verb == "add")
    case ("remove", 2): try tree.remove(at: path[...])
    default: throw StatePatchError("unknown operation \(operation.serialized())")
    }
  }
}

/// Why a ``StatePatch`` could not be applied.
public struct StatePatchError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong.
  public var description: String

  init(_ description: String) { self.description = description }
}

/// Decoding the recorded values a generated replay test holds as JSON text.
public enum RecordedJSON {
  /// `json` decoded as `type` with `JSONDecoder`.
  /// - Throws: the decoder's error.
  public static func decode<Value: Decodable>(_ type: Value.Type, _ json: String) throws -> Value {
    try JSONDecoder().decode(Value.self, from: Data(json.utf8))
  }
}
