extension FileJournal {
  /// The anchor of the newest durable frame, without waiting; `nil` while nothing is durable.
  ///
  /// Only durable frames are anchored: a frame that a crash could still take away must not be vouched for.
  public var durableAnchor: LogAnchor? {
    committer.read { state in
      guard let frame = state.frames.last(where: { $0.lastSequence <= state.durable }) else { return nil }
      return LogAnchor(sequence: frame.lastSequence, chain: frame.chain)
    }
  }

  /// Makes every event appended so far durable, then returns the anchor of the newest frame; `nil` for an
  /// empty log. Store it outside the log (see ``LogAnchor``) and pass it to
  /// ``LogAudit/verify(directory:key:anchor:progress:)`` to detect truncation.
  /// - Throws: ``FileJournalError/durabilityLost(_:)`` when the events cannot be made durable.
  public func anchor() throws -> LogAnchor? {
    try flush()
    return durableAnchor
  }
}
