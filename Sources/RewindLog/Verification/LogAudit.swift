/// Audit operations on a log directory that need none of the app's types: verification against the hash
/// chain and an anchor and the current anchor (here), export (`Export/LogAudit+Export.swift`) and reading
/// events as trees (`Reading/LogAudit+Reading.swift`).
///
/// ``verify(directory:key:anchor:progress:)`` is the one way to verify a log directory; its
/// ``AuditReport`` names the first problem, and ``AuditReport/requireIntact()`` throws it instead.
/// ``ChainVerifier`` runs the same frame checks over frames that come from elsewhere.
///
/// All of them are read-only: they open segment files for reading, take no lock and never change the
/// log, so they work while a journal (in this or another process) has the log open for writing.
public enum LogAudit {
  /// Checks every segment header, frame checksum, chain value and event record, and reports the first
  /// event at which the log was modified, deleted from, reordered, inserted into, damaged or, against
  /// `anchor`, truncated.
  ///
  /// Findings are returned in the report, not thrown: check ``AuditReport/isIntact``, or call
  /// ``AuditReport/requireIntact()`` to throw the first problem. Without an anchor, a log whose tail was
  /// cut off at a frame boundary verifies: store ``AuditReport/head`` (or ``FileJournal/anchor()``)
  /// elsewhere and pass it back to detect that.
  ///
  /// ```swift
  /// let report = try LogAudit.verify(directory: path)
  /// if let problem = report.firstProblem { print(problem) }  // "deleted at event 812 (segment-…, byte 40960): …"
  /// // or, where any problem is an error:
  /// try LogAudit.verify(directory: path).requireIntact()
  /// ```
  ///
  /// - Parameters:
  ///   - directory: The log directory.
  ///   - key: The chain key of a keyed log; `nil` for an unkeyed one.
  ///   - anchor: A head stored earlier; the log must still contain its frame with the same chain value.
  ///   - progress: Called on the calling thread as segments are read (at most every MiB, and at the end).
  /// - Returns: The report; ``AuditReport/isIntact`` says whether everything verified.
  /// - Throws: ``FileJournalError/io(_:)`` when the directory or a segment cannot be read;
  ///   ``FileJournalError/keyRequired(segment:)``, ``FileJournalError/wrongKey(segment:)`` or
  ///   ``FileJournalError/notKeyed(segment:)`` when `key` does not fit the log.
  /// - Complexity: O(log size); memory is bounded by a read window (a few MiB, or one frame), whatever the
  ///   size of a segment.
  public static func verify(
    directory: String, key: ChainKey? = nil, anchor: LogAnchor? = nil,
    progress: ((AuditProgress) -> Void)? = nil
  ) throws(FileJournalError) -> AuditReport {
    try verify(
      directory: directory, key: key, anchor: anchor, progress: progress, fileSystem: POSIXFileSystem())
  }

  package static func verify(
    directory: String, key: ChainKey? = nil, anchor: LogAnchor? = nil,
    progress: ((AuditProgress) -> Void)? = nil,
    fileSystem: any LogFileSystem
  ) throws(FileJournalError) -> AuditReport {
    try LogVerifier(
      fileSystem: fileSystem, directory: directory, key: key, anchor: anchor, progress: progress
    ).run()
  }

  /// The anchor of the log's newest frame, after verifying the whole log; `nil` for an empty log.
  ///
  /// - Throws: ``FileJournalError/tampered(segment:offset:lastGoodSequence:)`` or
  ///   ``FileJournalError/corrupted(segment:offset:lastGoodSequence:reason:)`` naming the first problem
  ///   when the log does not verify (an anchor of a damaged log would vouch for it), and the errors of
  ///   ``verify(directory:key:anchor:progress:)``.
  public static func anchor(directory: String, key: ChainKey? = nil) throws(FileJournalError) -> LogAnchor? {
    try anchor(directory: directory, key: key, fileSystem: POSIXFileSystem())
  }

  package static func anchor(
    directory: String, key: ChainKey? = nil, fileSystem: any LogFileSystem
  ) throws(FileJournalError) -> LogAnchor? {
    try verify(directory: directory, key: key, fileSystem: fileSystem).requireIntact().head
  }
}

extension FileJournalError {
  /// The error that matches a finding: damage is `corrupted`, a change to what was written is `tampered`,
  /// with the finding's words.
  init(_ finding: AuditFinding) {
    switch finding.kind {
    case .corrupted, .undecodable:
      self = .corrupted(
        segment: finding.segment, offset: finding.offset, lastGoodSequence: finding.lastGoodSequence,
        reason: finding.detail)
    case .modified, .deleted, .reordered, .inserted, .truncated:
      self.init(
        .tampered, "tampered log: \(finding); last good event is \(finding.lastGoodSequence)",
        location: LogLocation(segment: finding.segment, offset: finding.offset),
        lastGoodSequence: finding.lastGoodSequence)
    }
  }
}
