/// The one classifier of segment header problems, used by recovery (``LogScanner``) and by verification
/// (`LogVerifier`): whether a segment's header continues the log where the log so far left off.
///
/// The first header read fixes what every later one must repeat (``start(_:segment:key:cut:)``): the log
/// id and the key check value, after checking the key against it. Each header then must hold that log
/// id and key check, start at the next sequence number (as must its file name), and continue the chain
/// value the log reached (the previous segment's last frame, the cut record's value, or the log's genesis
/// value). Recovery turns a ``Problem`` into a ``FileJournalError``; verification into a finding, which it
/// may refine (a segment that starts too late may be a deletion or a reordering).
struct SegmentContinuity {
  /// The log id of the first segment.
  let logID: [UInt8]
  /// The key check value of the first segment; `nil` for an unkeyed log.
  let keyCheck: SHA256.Digest?

  /// What is wrong with a header, in the order the checks run.
  enum Problem: Equatable, CustomStringConvertible {
    /// The header names another log.
    case otherLog
    /// The header's key check value differs from the first segment's (it was rewritten).
    case keyCheckDiffers
    /// The header starts at `found` where event `expected` belongs.
    case startsAt(found: UInt64, expected: UInt64)
    /// The header starts where it should, but the file is named for event `named`.
    case misnamed(named: UInt64, header: UInt64)
    /// The chain value before the segment differs from the one the log reached: the previous segment's
    /// end, or (`cutThrough`) the cut record's value after that event.
    case chainBreak(cutThrough: UInt64?, segment: String)

    /// The one text for the problem, in errors and findings alike.
    var description: String {
      switch self {
      case .otherLog: "segment belongs to another log"
      case .keyCheckDiffers: "segment header's key check differs from the first segment's"
      case .startsAt(let found, let expected): "segment starts at event \(found), expected \(expected)"
      case .misnamed(let named, let header):
        "segment file is named for event \(named), its header says \(header)"
      case .chainBreak(let through?, let segment):
        "its chain value after event \(through) differs from the one \(segment) continues "
          + "(forged or edited record, or a replaced segment)"
      case .chainBreak(nil, _): "the chain value before this segment differs from the previous segment's end"
      }
    }

    /// The error recovery throws for it; `lastGoodSequence` is the last event before the segment.
    func error(segment: String, lastGoodSequence: UInt64) -> FileJournalError {
      switch self {
      case .otherLog, .startsAt, .misnamed:
        .corrupted(segment: segment, offset: 0, lastGoodSequence: lastGoodSequence, reason: description)
      case .keyCheckDiffers, .chainBreak(nil, _):
        .tampered(segment: segment, offset: 0, lastGoodSequence: lastGoodSequence)
      case .chainBreak(let through?, _): .tamperedCut(reason: description, lastGoodSequence: through)
      }
    }
  }

  /// Takes the first header read (`segment`'s): the log it names, checked against `key`, and the chain
  /// value it must continue, the cut record's (checked against `key` and the log id) or the log's genesis.
  ///
  /// - Throws: the key errors (``FileJournalError/keyRequired(segment:)``,
  ///   ``FileJournalError/wrongKey(segment:)``, ``FileJournalError/notKeyed(segment:)``), and
  ///   ``FileJournalError/tamperedCut(reason:lastGoodSequence:)`` for a cut record that does not fit.
  static func start(_ header: SegmentHeader, segment: String, key: ChainKey?, cut: CutRecovery)
    throws(FileJournalError) -> (continuity: SegmentContinuity, chain: SHA256.Digest)
  {
    switch (header.keyCheck, key) {
    case (nil, nil): break
    case (nil, .some): throw .notKeyed(segment: segment)
    case (.some, nil): throw .keyRequired(segment: segment)
    case (.some(let stored), .some(let key)):
      guard stored == key.checkValue(logID: header.logID) else { throw .wrongKey(segment: segment) }
    }
    let chain = try cut.startChain(logID: header.logID, key: key)
    return (SegmentContinuity(logID: header.logID, keyCheck: header.keyCheck), chain)
  }

  /// The first problem with `header`, the header of segment file `entry`, or `nil` when it continues the
  /// log.
  ///
  /// - Parameters:
  ///   - position: Where the segment must start: the next sequence number and the chain value before it;
  ///     `nil` to check only that the header belongs to this log (a scan that starts inside the segment).
  ///   - cutThrough: For the first segment of a cut log, the cut's last event: its chain value is the
  ///     cut record's, and a break is the record's problem.
  func problem(
    with header: SegmentHeader, of entry: SegmentEntry,
    at position: (sequence: UInt64, chain: SHA256.Digest?)?, cutThrough: UInt64? = nil
  ) -> Problem? {
    guard header.logID == logID else { return .otherLog }
    guard header.keyCheck == keyCheck else { return .keyCheckDiffers }
    guard let position else { return nil }
    guard header.firstSequence == position.sequence else {
      return .startsAt(found: header.firstSequence, expected: position.sequence)
    }
    guard entry.firstSequence == position.sequence else {
      return .misnamed(named: entry.firstSequence, header: header.firstSequence)
    }
    guard header.previousChain == position.chain else {
      return .chainBreak(cutThrough: cutThrough, segment: entry.name)
    }
    return nil
  }
}
