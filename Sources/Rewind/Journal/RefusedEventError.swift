/// The journal did not take event ``sequence``: the store applied it and goes on in memory, but neither it
/// nor any later event will be durable.
///
/// ``Store/journalStatus`` reports it as `.failed`, and ``Store/waitForDurability()`` throws it once the
/// store has accepted that event.
public struct RefusedEventError: Error, CustomStringConvertible {
  /// The first event the journal refused.
  public var sequence: UInt64
  /// The journal's error, e.g. an event too large for a frame, an action the codec cannot encode (such as
  /// NaN in JSON), or durability lost after a failed write.
  public var reason: any Error

  /// Creates the error for event `sequence`, refused because of `reason`.
  public init(sequence: UInt64, reason: any Error) {
    self.sequence = sequence
    self.reason = reason
  }

  public var description: String {
    "event \(sequence) was not journaled (\(reason)): it and every later event are in memory only, not durable"
  }
}
