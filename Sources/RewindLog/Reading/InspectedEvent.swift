import Rewind

/// An event read without the app's types: its envelope and payload as a tree.
public struct InspectedEvent: Sendable, Hashable {
  /// The position in the log.
  public var sequence: UInt64
  /// The recorded event type, e.g. the action's case name.
  public var typeName: String
  /// The recorded schema version.
  public var schemaVersion: UInt64
  /// The codec the payload was written with.
  public var codec: EventCodec
  /// The whole encoded `Event` as a tree (a JSON payload is parsed into one; shown as a string only if it
  /// does not parse).
  public var payload: BinaryValue

  init(sequence: UInt64, record: EventRecord) throws {
    self.sequence = sequence
    typeName = record.typeName
    schemaVersion = record.schemaVersion
    codec = record.codec
    payload = try record.tree(sequence: sequence)
  }
}
