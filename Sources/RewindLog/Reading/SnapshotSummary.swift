/// A snapshot file as a tool sees it: where it stands and whether it matches the log.
public struct SnapshotSummary: Sendable, Hashable {
  /// The file name.
  public var file: String
  /// The event after which the state was taken (from the file's name when the file is damaged).
  public var sequence: UInt64
  /// The file size in bytes.
  public var bytes: UInt64
  /// The codec of the state, when the file parsed.
  public var codec: EventCodec?
  /// Why the journal would pass it over; `nil` when it matches the log.
  public var problem: SnapshotRejection.Reason?
  /// The state as a tree, when the file parsed (JSON-coded states are parsed into the same tree).
  public var state: BinaryValue?
}
