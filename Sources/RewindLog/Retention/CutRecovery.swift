/// How the scanner reads a log that retention cut: which segment files it scans and where the chain
/// starts. Segments wholly at or before the cut are leftovers of a cut interrupted before it unlinked them:
/// not scanned, and removed by recovery (``FileJournal``) to finish the cut.
struct CutRecovery {
  /// The cut record; `nil` for a log that was never cut.
  var anchor: CutAnchor?
  /// Segment files the cut accounts for that are still on disk.
  var leftovers: [SegmentEntry] = []
  /// The segment files to scan, in order.
  var kept: [SegmentEntry]

  /// Reads the cut record in `directory` (if any) and splits `names` (sorted by first sequence) at it.
  /// - Throws: the errors of ``CutAnchor/load(directory:fileSystem:)``; ``FileJournalError/corrupted(segment:offset:lastGoodSequence:reason:)``
  ///   when no segment starts right after the cut.
  init(directory: String, fileSystem: any LogFileSystem, names: [SegmentEntry])
    throws(FileJournalError)
  {
    anchor = try CutAnchor.load(directory: directory, fileSystem: fileSystem)
    guard let anchor else {
      kept = names
      return
    }
    let through = anchor.throughSequence
    leftovers = names.filter { $0.firstSequence <= through }
    kept = names.filter { $0.firstSequence > through }
    // The first kept segment starts right after the cut; a segment that straddles it, or none at all,
    // means the segments and the record disagree (the record was edited, or segments removed).
    guard let first = kept.first, first.firstSequence == through + 1 else {
      throw .corrupted(
        segment: CutAnchor.fileName, offset: 0, lastGoodSequence: through,
        reason:
          "the log was cut through event \(through) but no segment starts at event \(through + 1) (missing segment, or the cut record does not belong here)"
      )
    }
  }

  /// The first sequence number the scan expects.
  var firstSequence: UInt64 { (anchor?.throughSequence ?? 0) + 1 }

  /// The chain value the first scanned segment must continue: the cut's, or the log's genesis value.
  /// - Throws: when the cut record belongs to another log or its tag does not match `key`.
  func startChain(logID: [UInt8], key: ChainKey?) throws(FileJournalError) -> SHA256.Digest {
    guard let anchor else { return SegmentHeader.genesisChain(logID: logID) }
    try anchor.authenticate(key: key)
    guard anchor.logID == logID else {
      throw .tamperedCut(reason: "it belongs to another log", lastGoodSequence: anchor.throughSequence)
    }
    return anchor.chain
  }
}
