/// Why a frame does not continue a log's hash chain (``ChainVerifier``).
public enum FrameProblem: Error, Sendable, Hashable, CustomStringConvertible {
  /// The frame starts before the next sequence number: it repeats events already verified (a duplicate,
  /// or a frame that does not belong).
  case startsBefore(first: UInt64, count: UInt32, expected: UInt64)
  /// The frame starts after the next sequence number: the events before it are missing, or come later.
  case startsAfter(first: UInt64, expected: UInt64)
  /// The frame's chain value does not match its contents and the chain value before it: it was changed
  /// (or forged, or belongs elsewhere), with or without its checksum recomputed. `keyed` says whether the
  /// chain is HMAC-SHA-256.
  case chainMismatch(keyed: Bool)
  /// An event record does not decode although the chain holds.
  case undecodable(UndecodableRecord)
  /// The frame cannot be a frame of a log (`reason` says why).
  case malformed(String)

  /// What it means for the log, seen from this frame alone: a verifier that sees later frames may refine
  /// ``startsAfter(first:expected:)`` into ``AuditFinding/Kind/reordered`` (the missing events come later)
  /// or ``AuditFinding/Kind/inserted`` (a copy of a later frame), and ``chainMismatch(keyed:)`` into
  /// ``AuditFinding/Kind/inserted`` (the frame after it links to the chain before it).
  public var kind: AuditFinding.Kind {
    switch self {
    case .startsBefore: .inserted
    case .startsAfter: .deleted
    case .chainMismatch, .malformed: .modified
    case .undecodable: .undecodable
    }
  }

  /// What is wrong, in the words verification reports it with.
  public var description: String {
    switch self {
    case .startsBefore(let first, let count, let expected):
      "a frame holding events \(first)...\(first + UInt64(count) - 1) where event \(expected) belongs"
    case .startsAfter(let first, let expected):
      "events \(expected)...\(first - 1) are missing: the next frame starts at event \(first)"
    case .chainMismatch(let keyed):
      keyed
        ? "the frame's keyed chain value (HMAC-SHA-256) does not match its contents"
        : "the frame's chain value (SHA-256) does not match its contents"
    case .undecodable(let problem): problem.description
    case .malformed(let reason): reason
    }
  }
}
