extension LogAudit {
  /// Calls `body` with each event of the log in `directory` (within `range`), read without the app's
  /// types, in order, with where it is.
  ///
  /// Read-only and lock-free like ``verify(directory:key:anchor:progress:)``; frames are checksummed and
  /// chain-verified as they are read, and one read window (a few MiB) is held in memory. Stops early when `body`
  /// returns false.
  /// - Throws: ``FileJournalError`` when the log cannot be read, does not fit `key`, or is damaged or
  ///   tampered (the events before it were already delivered), and what `body` throws.
  public static func forEachEvent(
    directory: String, key: ChainKey? = nil, range: ClosedRange<UInt64>? = nil,
    _ body: (InspectedEvent, EventLocation) throws -> Bool
  ) throws {
    try forEachEvent(directory: directory, key: key, range: range, fileSystem: POSIXFileSystem(), body)
  }

  package static func forEachEvent(
    directory: String, key: ChainKey? = nil, range: ClosedRange<UInt64>? = nil, fileSystem: any LogFileSystem,
    _ body: (InspectedEvent, EventLocation) throws -> Bool
  ) throws {
    try LogScanner(fileSystem: fileSystem, directory: directory, key: key).forEachFrame { visit in
      for (position, recordRange) in visit.frame.records.enumerated() {
        let sequence = visit.frame.firstSequence + UInt64(position)
        if let range {
          if sequence < range.lowerBound { continue }
          if sequence > range.upperBound { return false }
        }
        let location = EventLocation(sequence: sequence, segment: visit.segment, offset: visit.offset)
        let record = try RecordCheck.read(
          visit.bytes, recordRange, sequence: sequence, segment: visit.segment, frameOffset: visit.offset)
        let event: InspectedEvent
        do { event = try InspectedEvent(sequence: sequence, record: record) } catch {
          throw FileJournalError.corrupted(
            segment: visit.segment, offset: location.offset, lastGoodSequence: sequence - 1,
            reason: UndecodableRecord(sequence: sequence, reason: "\(error)").description)
        }
        guard try body(event, location) else { return false }
      }
      return true
    }
  }
}

extension LogAudit {
  /// Calls `body` with each frame of the log in `directory` as a ``ChainedFrame`` (its fields, record bytes
  /// and chain value: what a shipper sends, and what ``ChainVerifier`` checks on the other side), with the
  /// location of its first event, in order. Read-only and lock-free like ``forEachEvent(directory:key:range:_:)``;
  /// each frame is checksummed and chain-verified before `body` sees it. Stops early when `body` returns
  /// false.
  /// - Throws: ``FileJournalError`` when the log cannot be read, does not fit `key`, or is damaged or
  ///   tampered (the frames before it were already delivered), and what `body` throws.
  package static func forEachFrame(
    directory: String, key: ChainKey? = nil, fileSystem: any LogFileSystem = POSIXFileSystem(),
    _ body: (ChainedFrame, EventLocation) throws -> Bool
  ) throws {
    try LogScanner(fileSystem: fileSystem, directory: directory, key: key).forEachFrame { visit in
      let frame = ChainedFrame(
        firstSequence: visit.frame.firstSequence, commitTime: visit.frame.commitTime,
        records: visit.frame.records.map { Array(visit.bytes[$0]) }, chain: visit.frame.storedChain)
      return try body(
        frame, EventLocation(sequence: frame.firstSequence, segment: visit.segment, offset: visit.offset))
    }
  }
}
