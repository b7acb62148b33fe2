import Foundation

/// The envelope of an event read without the app's types, for tools (listing, filtering, a timeline).
extension InspectedEvent {
  /// When the store accepted the event.
  public var timestamp: Date? {
    payload["timestamp"]?.number.map { Date(timeIntervalSinceReferenceDate: $0) }
  }

  /// The actor recorded in the metadata, if any.
  public var actor: String? {
    if case .string(let actor)? = payload[path: "metadata", "actor"] { return actor }
    return nil
  }

  /// Who sent it: `"user"`, `"effect"` or `"system"`.
  public var origin: String? {
    guard case .keyed(let fields)? = payload[path: "metadata", "source"] else { return nil }
    return fields.first?.key
  }

  /// For an event sent by an effect, the sequence number of the event that caused it.
  public var cause: UInt64? { payload[path: "metadata", "source", "effect", "cause"]?.unsigned }

  /// The correlation id.
  public var correlationID: UInt64? { payload[path: "metadata", "correlationID"]?.unsigned }

  /// The app's action as a tree (as its `Codable` conformance encoded it); `nil` for a history command.
  public var action: BinaryValue? { payload[path: "payload", "action", "_0"] }

  /// The history command (undo, redo, restore, transaction bounds) as a tree; `nil` for an action.
  public var command: BinaryValue? { payload[path: "payload", "command", "_0"] }
}
