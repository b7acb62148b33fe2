/// One place where a log is not what its chain committed to.
public struct AuditFinding: Sendable, Hashable, Codable, CustomStringConvertible {
  /// What happened to the log.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A frame's contents differ from what the chain committed to (bytes changed and the checksum
    /// recomputed, a checksum-valid frame that does not parse, a rewritten segment header, or a chain
    /// that no longer matches the anchor).
    case modified
    /// Events are missing: the sequence numbers jump forward.
    case deleted
    /// Frames are out of order: an earlier event's frame comes later in the log.
    case reordered
    /// A frame that does not belong: a duplicate of earlier events, or a forged frame.
    case inserted
    /// The log ends before the anchor's sequence number.
    case truncated
    /// Bytes are damaged (a checksum mismatch, a header that does not parse, a segment of another log)
    /// somewhere other than an incomplete tail.
    case corrupted
    /// The chain verifies but an event's record or payload does not decode as a tree.
    case undecodable
  }

  /// What happened.
  public var kind: Kind
  /// The first event affected: the first sequence number at which the log is not what was written.
  public var sequence: UInt64
  /// The segment file where it was found.
  public var segment: String
  /// The byte offset in the segment of the frame (or header, at 0) where it was found.
  public var offset: UInt64
  /// Details, e.g. which check failed.
  public var detail: String

  /// Creates a finding.
  public init(kind: Kind, sequence: UInt64, segment: String, offset: UInt64, detail: String) {
    self.kind = kind
    self.sequence = sequence
    self.segment = segment
    self.offset = offset
    self.detail = detail
  }

  /// The last event before the finding that is still as written.
  public var lastGoodSequence: UInt64 { sequence > 0 ? sequence - 1 : 0 }

  public var description: String {
    "\(kind.rawValue) at event \(sequence) (\(segment), byte \(offset)): \(detail)"
  }
}
