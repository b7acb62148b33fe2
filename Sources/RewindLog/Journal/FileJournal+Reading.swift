import Foundation
import Rewind

// Reading: events, records and chain values back from the segments, decoded by the one EventDecoder.
extension FileJournal {
  /// Calls `body` with every event from `sequence` on, read back from the segments, checked and upcast.
  /// - Throws: ``FileJournalError`` when a frame changed on disk or an event cannot be decoded: an unknown
  ///   event type or a schema version with no upcasters is named with its location.
  ///
  /// Inlinable, so that where the app opens its store (`Store.open`) decoding is specialized for its action
  /// type: unspecialized, generic metadata lookups cost a fifth of a replayed event.
  @inlinable
  public func forEachEvent(from sequence: UInt64, _ body: (Event<Action>) throws -> Void) throws {
    // Read once, not per event: reaching a struct in a class from the closure retained its fields each time.
    let decoder = self.decoder
    try forEachRecord(from: max(sequence, 1), through: nil) { record, location in
      try body(try decoder.decodeCommonCase(record, at: location))
    }
  }

  /// The events whose sequence numbers lie in `range`, read back from the segments.
  public func events(in range: ClosedRange<UInt64>) throws -> [Event<Action>] {
    var events: [Event<Action>] = []
    try forEachRecord(from: max(range.lowerBound, 1), through: range.upperBound) { record, location in
      events.append(try decoder.decode(record, at: location))
    }
    return events
  }

  /// Every event from `first` on (through `last`) as a tree, without the app's types: for tools.
  public func inspect(from first: UInt64 = 1, through last: UInt64? = nil) throws -> [InspectedEvent] {
    var result: [InspectedEvent] = []
    try forEachRecord(from: max(first, 1), through: last) { record, location in
      result.append(try InspectedEvent(sequence: location.sequence, record: record))
    }
    return result
  }

  /// The chain value of the frame that holds event `sequence`, when it is written (and, if it lies before
  /// the frame the open started at, when the frames before that read back and check).
  func chainValue(containing sequence: UInt64) -> SHA256.Digest? {
    guard (try? indexPrefixIfNeeded(before: sequence)) != nil else { return nil }
    return committer.read { state in state.frameIndex(containing: sequence).map { state.frames[$0].chain } }
  }

  /// The frame that holds event `sequence` and the chain value before it: where a snapshot at `sequence`
  /// lets a later open start reading.
  func framePosition(containing sequence: UInt64) -> SnapshotFile.FramePosition? {
    committer.read { state in
      guard let index = state.frameIndex(containing: sequence), let previous = state.chain(before: index),
        let segmentFirst = SegmentHeader.firstSequence(
          fromFileName: state.segmentName(state.frames[index].segment))
      else { return nil }
      let frame = state.frames[index]
      return SnapshotFile.FramePosition(
        segmentFirstSequence: segmentFirst, offset: frame.offset, frameFirstSequence: frame.firstSequence,
        previousChain: previous)
    }
  }

  /// Reads and checks the frames before the one the open started at, the first time something asks for
  /// an event among them: a store opened from a snapshot reads only the log after it.
  /// - Throws: ``FileJournalError`` when those frames are damaged, or do not end with the chain value the
  ///   open started from (`tampered`).
  func indexPrefixIfNeeded(before sequence: UInt64) throws(FileJournalError) {
    guard let start = committer.read({ $0.unindexedBefore }), sequence < start.frameFirstSequence else {
      return
    }
    try prefixIndexing.withLock { _ throws(FileJournalError) in
      // Another reader may have indexed it while this one waited.
      guard committer.read({ $0.unindexedBefore }) != nil else { return }
      let prefix = try LogScanner(fileSystem: fileSystem, directory: directory, key: options.chainKey)
        .scan(stoppingAt: start)
      let named = prefix.frames.map { ($0, segment: prefix.segments[$0.segment].name) }
      committer.indexPrefix(named, chainBefore: prefix.chainBeforeFrames)
    }
  }

  /// Blocks until every event appended so far is written to the operating system, without syncing: it
  /// then survives a crash of the process, though not of the machine.
  /// - Throws: ``FileJournalError/durabilityLost(_:)`` when a write failed first, or
  ///   ``FileJournalError/closed``.
  public func waitUntilHandedToOS() throws {
    try committer.wait(for: .written, through: lastSequence)
  }

  /// Waits until everything appended is written to the operating system (not synced).
  func waitUntilWritten(through sequence: UInt64) throws {
    try committer.wait(for: .written, through: sequence)
  }

  @usableFromInline
  func forEachRecord(
    from first: UInt64, through last: UInt64?, _ body: (EventRecord, EventLocation) throws -> Void
  ) throws {
    // Only what the range needs must be written first: after a failure, what was written stays readable.
    let appended = lastSequence
    try waitUntilWritten(through: min(last ?? appended, appended))
    let (cut, writtenSoFar) = committer.read { ($0.cut, $0.written) }
    if let cut, first <= cut.throughSequence, first <= min(last ?? writtenSoFar, writtenSoFar) {
      throw FileJournalError.eventsCut(requested: first, cut: cut.summary)
    }
    try indexPrefixIfNeeded(before: first)
    let (frames, segments, base, written, found) = committer.read {
      ($0.frames, $0.segments, $0.segmentBase, $0.written, $0.frameIndex(containing: first))
    }
    let upper = min(last ?? written, written)
    guard first <= upper, var index = found else { return }
    while index < frames.count, frames[index].firstSequence <= upper {
      // Read a run of frames of one segment with one call, a few MiB at most (or one frame).
      var end = index
      while end + 1 < frames.count, frames[end + 1].segment == frames[index].segment,
        frames[end + 1].firstSequence <= upper,
        frames[end + 1].offset + UInt64(frames[end + 1].size) - frames[index].offset
          <= UInt64(SegmentReader.windowSize)
      {
        end += 1
      }
      let start = frames[index].offset
      let stop = frames[end].offset + UInt64(frames[end].size)
      let name = segments[frames[index].segment - base]
      let bytes: [UInt8]
      do {
        let file = try fileSystem.open(directory + "/" + name, create: false)
        defer { file.close() }
        bytes = try file.read(at: start, count: Int(stop - start))
      } catch {
        throw FileJournalError.io(error)
      }
      for frameIndex in index...end {
        let location = frames[frameIndex]
        let relative = Int(location.offset - start)
        guard relative + Int(location.size) <= bytes.count,
          case .frame(let frame) = Frame.parse(bytes, at: relative, detectZeros: false),
          frame.firstSequence == location.firstSequence
        else {
          throw FileJournalError.corrupted(
            segment: name, offset: location.offset, lastGoodSequence: location.firstSequence - 1,
            reason: "frame changed on disk after the log was opened")
        }
        for (position, range) in frame.records.enumerated() {
          let sequence = frame.firstSequence + UInt64(position)
          guard sequence >= first, sequence <= upper else { continue }
          let record = try RecordCheck.read(
            bytes, range, sequence: sequence, segment: name, frameOffset: location.offset)
          try body(record, EventLocation(sequence: sequence, segment: name, offset: location.offset))
        }
      }
      index = end + 1
    }
  }

  /// The schema version the app reads: `Action.schemaVersion` for a ``VersionedAction``, otherwise 1.
  public static var readSchemaVersion: UInt64 {
    EventDecoder<Action>.readSchemaVersion
  }
}
