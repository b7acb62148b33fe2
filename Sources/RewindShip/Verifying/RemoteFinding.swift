/// The first place where a stream is not what a shipper writes: by stream sequence, with why.
public struct RemoteFinding: Sendable, Hashable, CustomStringConvertible {
  /// What kind of problem.
  public enum Kind: String, Sendable, Hashable {
    /// A message the shipper did not write: not a shipped event, another log's, a frame whose chain
    /// value does not match its events, a chain that does not continue.
    case forged
    /// Events are missing: the stream skips from one event to a later one.
    case missing
    /// Events are out of order: the missing event comes later in the stream.
    case reordered
    /// An event the stream already holds, again.
    case duplicated
    /// The chain holds but an event's record does not decode.
    case undecodable
  }

  /// The kind.
  public var kind: Kind
  /// The stream sequence of the first bad message.
  public var streamSequence: UInt64
  /// The event sequence number there, when the message names one.
  public var eventSequence: UInt64?
  /// Why, in a sentence.
  public var detail: String

  /// Creates a finding.
  public init(kind: Kind, streamSequence: UInt64, eventSequence: UInt64?, detail: String) {
    self.kind = kind
    self.streamSequence = streamSequence
    self.eventSequence = eventSequence
    self.detail = detail
  }

  public var description: String {
    "\(kind.rawValue) at stream sequence \(streamSequence)"
      + (eventSequence.map { " (event \($0))" } ?? "") + ": \(detail)"
  }
}
