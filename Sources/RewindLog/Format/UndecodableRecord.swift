/// An event record that does not decode although the frame holding it passed its checksum and chain
/// check: the damage a valid checksum and chain value can still hold.
public struct UndecodableRecord: Error, Sendable, Hashable, CustomStringConvertible {
  /// The event's sequence number.
  public var sequence: UInt64
  /// Why it does not decode (the codec's error).
  public var reason: String

  /// The one text every reader and verifier uses for it: `"event 38 does not decode: …"`.
  public var description: String { "event \(sequence) does not decode: \(reason)" }
}
