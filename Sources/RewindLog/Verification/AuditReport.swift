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

  /// Returns the report when the log is intact, and throws its first problem otherwise: for callers to
  /// whom any problem is an error. A torn tail is not a problem.
  ///
  /// ```swift
  /// try LogAudit.verify(directory: path, key: key).requireIntact()
  /// ```
  ///
  /// - Throws: ``FileJournalError/corrupted(segment:offset:lastGoodSequence:reason:)`` for damage or an
  ///   event that does not decode, ``FileJournalError/tampered(segment:offset:lastGoodSequence:)`` for
  ///   a modification, deletion, reordering, insertion or truncation, naming the segment, the offset and
  ///   the last good event of ``firstProblem``.
  @discardableResult
  public func requireIntact() throws(FileJournalError) -> AuditReport {
    if let firstProblem { throw FileJournalError(firstProblem) }
    return self
  }

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
