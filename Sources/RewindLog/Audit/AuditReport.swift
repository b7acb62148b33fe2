/// What ``LogAudit/verify(directory:key:anchor:progress:)`` found: the verified prefix of the log and the
/// first place where it was changed, if any.
public struct AuditReport: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Whether the log's chain is keyed with HMAC-SHA-256.
  public var isKeyed: Bool
  /// The number of segment files found.
  public var segmentCount: Int
  /// The number of frames whose checksum and chain value were verified.
  public var frameCount: Int
  /// The last event of the verified prefix; 0 when none.
  public var lastSequence: UInt64
  /// The anchor of the last verified frame: store it elsewhere to detect a later truncation.
  public var head: LogAnchor?
  /// The bytes read and checked.
  public var bytesVerified: UInt64
  /// The anchor the log was checked against, if one was given.
  public var anchor: LogAnchor?
  /// The first place where the log was modified, deleted from, reordered, inserted into, truncated or
  /// damaged; `nil` when the whole log verified.
  public var firstProblem: AuditFinding?
  /// An incomplete frame or segment at the very end: a writer that died mid-write, or one still writing.
  /// Not a problem by itself; opening the log for writing cuts it off.
  public var tornTail: TornTail?

  /// The cut record of a log cut by retention: the verified part starts after it (its checksum, and for a
  /// keyed log its HMAC tag, were checked, and the first kept segment continues its chain value).
  public var cut: LogCut?

  /// Whether every frame and the whole chain verified (and matched the anchor, if one was given).
  public var isIntact: Bool { firstProblem == nil }

  public var description: String {
    var text =
      "\(lastSequence) events in \(frameCount) frames, \(segmentCount) segment(s)\(isKeyed ? ", keyed chain" : "")"
    if let cut { text += "; cut through event \(cut.throughSequence)" }
    text += firstProblem.map { "; \($0)" } ?? "; intact"
    if let anchor { text += firstProblem == nil ? "; matches anchor \(anchor.sequence)" : "" }
    if let head { text += "; head \(head)" }
    if let tornTail { text += "; torn tail: \(tornTail)" }
    return text
  }
}

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

/// How far a verification or an export has come, for a progress bar.
public struct AuditProgress: Sendable, Hashable {
  /// The bytes of segment files processed so far.
  public var bytesDone: UInt64
  /// The total size of the segment files when the work started.
  public var bytesTotal: UInt64
  /// The frames processed so far.
  public var framesDone: Int

  /// Creates a progress value.
  public init(bytesDone: UInt64, bytesTotal: UInt64, framesDone: Int) {
    self.bytesDone = bytesDone
    self.bytesTotal = bytesTotal
    self.framesDone = framesDone
  }

  /// `bytesDone / bytesTotal`, between 0 and 1 (1 for an empty log).
  public var fraction: Double {
    bytesTotal == 0 ? 1 : min(1, Double(bytesDone) / Double(bytesTotal))
  }
}
