import Foundation

// Retention: removing whole segments from the start of the log, crash-safe at every step
// (Docs/Persistence.md, "Retention").
extension FileJournal {
  /// What retention has cut from this log, as its cut record says; `nil` when nothing was ever cut.
  public var cut: LogCut? { committer.read { $0.cut?.summary } }

  /// Why the newest retention cut could not be made (the archive hook or a file operation failed), or
  /// `nil` when it succeeded. Nothing is lost either way: a failed cut is retried at the next opportunity.
  public var retentionFailure: FileJournalError? { retention.failure }

  /// Calls `handler` (on the retention thread) each time a cut fails; `Store.open` reports it as a
  /// `journalFailed` diagnostic.
  public func onRetentionFailure(_ handler: @escaping @Sendable (FileJournalError) -> Void) {
    retention.setFailureHandler(handler)
  }

  /// Applies ``FileJournalOptions/retention`` now and waits for it: removes the segments the policy lets
  /// go (see ``RetentionPolicy``), after the archive hook took them and the cut record is durable.
  ///
  /// The journal also cuts on its own after it rolls to a new segment, when it opens and when it closes,
  /// on its retention thread; appends never wait for a cut.
  /// - Returns: the log's cut after this one, or `nil` when nothing was removed now.
  /// - Throws: ``FileJournalError/cutFailed(_:underlying:)`` when the archive hook or a file operation
  ///   failed; nothing the cut record does not account for was removed.
  @discardableResult
  public func applyRetention() throws(FileJournalError) -> LogCut? {
    try retention.run { () throws(FileJournalError) in try cutSegments(now: Date()) }
  }

  /// Queues a cut on the retention thread.
  func scheduleRetention() {
    guard !options.retention.keepsEverything else { return }
    retention.schedule { [weak self] () throws(FileJournalError) in
      guard let self else { return }
      _ = try cutSegments(now: Date())
    }
  }

  /// Finishes an interrupted cut, then removes what the policy lets go; runs on the retention thread.
  func cutSegments(now: Date) throws(FileJournalError) -> LogCut? {
    try removeCutLeftovers()
    guard !options.retention.keepsEverything else { return nil }
    // The extents come from the frame index: an open from a snapshot left the older frames unread. (A
    // retained log is short, so reading them here, off the appending thread, costs little.)
    try indexPrefixIfNeeded(before: 0)
    let (frames, segments, base, previous, written, durable) = committer.read {
      ($0.frames, $0.segments, $0.segmentBase, $0.cut, $0.written, $0.durable)
    }
    let extents = Self.extents(of: frames, base: base, segmentCount: segments.count)
    let count = RetentionFloor.removableCount(
      segments: extents.map(\.floor), policy: options.retention,
      snapshotSequence: newestMatchingSnapshot(durableThrough: durable), lastSequence: written, now: now,
      newestTimestamp: { index in newestTimestamp(in: segments[index], frame: extents[index].lastFrame) })
    guard count > 0 else { return nil }
    let removed = (0..<count).map { index in
      SegmentArchive.Segment(
        path: directory + "/" + segments[index], name: segments[index],
        sequences: extents[index].floor.firstSequence...extents[index].floor.lastSequence,
        bytes: extents[index].floor.bytes)
    }
    // (a) The archive takes every segment first; if it fails, nothing is removed.
    if let archive = options.archive {
      for segment in removed {
        do { try archive.archive(segment) } catch {
          throw .cutFailed("the archive hook failed for \(segment.name): \(error)")
        }
      }
    }
    // (b) The cut record, durable before any segment goes: the first kept segment continues its chain.
    let through = removed[count - 1].sequences.upperBound
    var anchor = CutAnchor(
      logID: logID, throughSequence: through, chain: extents[count - 1].lastFrame.chain,
      cutTime: Int64(now.timeIntervalSince1970 * 1e9), eventsCut: through,
      bytesCut: (previous?.bytesCut ?? 0) + removed.reduce(0) { $0 + $1.bytes },
      segmentsCut: (previous?.segmentsCut ?? 0) + UInt64(count))
    do { try anchor.write(directory: directory, fileSystem: fileSystem, key: options.chainKey) } catch {
      throw .cutFailed("the cut record could not be written: \(error)", underlying: error)
    }
    if options.chainKey != nil, let tagged = try? CutAnchor.parse(anchor.encoded(key: options.chainKey)) {
      anchor = tagged
    }
    // From here readers get the typed error for cut events, before the files go.
    committer.applyCut(anchor, removingSegments: count)
    // (c) Unlink oldest first, with the snapshots the cut made useless, then (d) sync the directory. A
    // crash or failure in between leaves leftovers that the next open or cut removes.
    try removeCutLeftovers()
    return anchor.summary
  }

  /// Removes segment files at or before the cut that are still on disk, and snapshots at or before it,
  /// then syncs the directory.
  func removeCutLeftovers() throws(FileJournalError) {
    guard let through = committer.read(\.cut)?.throughSequence else { return }
    let names: [String]
    do { names = try fileSystem.contents(of: directory) } catch {
      throw .cutFailed("the log directory could not be listed: \(error)", underlying: error)
    }
    let segments = names.compactMap { name in
      SegmentHeader.firstSequence(fromFileName: name).flatMap { $0 <= through ? (name, $0) : nil }
    }.sorted { $0.1 < $1.1 }.map(\.0)
    let snapshots = names.filter { name in
      SnapshotFile.sequence(fromFileName: name).map { $0 <= through } ?? false
    }
    guard !segments.isEmpty || !snapshots.isEmpty else { return }
    do {
      for name in segments + snapshots { try fileSystem.remove(directory + "/" + name) }
      try fileSystem.syncDirectory(directory)
    } catch {
      throw .cutFailed(
        "a segment or snapshot at or before the cut could not be removed: \(error)", underlying: error)
    }
  }

  /// A segment's extent from its frames, and its newest frame.
  struct SegmentExtent {
    var floor: RetentionFloor.Segment
    var lastFrame: FrameLocation
  }

  /// The extents of the segments that hold frames, oldest first (the active segment last, when it has
  /// frames).
  static func extents(of frames: [FrameLocation], base: Int, segmentCount: Int) -> [SegmentExtent] {
    var extents: [SegmentExtent] = []
    for frame in frames {
      let index = frame.segment - base
      if index == extents.count {
        extents.append(
          SegmentExtent(
            floor: RetentionFloor.Segment(
              firstSequence: frame.firstSequence, lastSequence: frame.lastSequence,
              bytes: frame.offset + UInt64(frame.size)),
            lastFrame: frame))
      } else if index == extents.count - 1 {
        extents[index].floor.lastSequence = frame.lastSequence
        extents[index].floor.bytes = frame.offset + UInt64(frame.size)
        extents[index].lastFrame = frame
      } else {
        break  // A segment without frames: only the newest can be one; nothing after it is cut anyway.
      }
    }
    // The active segment is never cut: if it holds no frames, the floor must still see it.
    if extents.count < segmentCount, let last = extents.last {
      extents.append(
        SegmentExtent(
          floor: RetentionFloor.Segment(
            firstSequence: last.floor.lastSequence + 1, lastSequence: last.floor.lastSequence, bytes: 0),
          lastFrame: last.lastFrame))
    }
    return extents
  }

  /// The sequence number of the newest snapshot that matches the log through `durable`, if any.
  func newestMatchingSnapshot(durableThrough durable: UInt64) -> UInt64? {
    for (name, sequence) in SnapshotFile.files(in: directory, fileSystem: fileSystem)
    where sequence <= durable {
      guard
        case .success(let snapshot)? = try? SnapshotFile.loadHeader(
          directory + "/" + name, fileSystem: fileSystem, checkingState: true
        ).snapshot
      else { continue }
      if mismatch(of: snapshot, named: sequence) == nil { return sequence }
    }
    return nil
  }

  /// The timestamp of the newest event in `frame` of segment `name`; `nil` when it cannot be read.
  func newestTimestamp(in name: String, frame location: FrameLocation) -> Date? {
    guard let file = try? fileSystem.openForReading(directory + "/" + name) else { return nil }
    defer { file.close() }
    guard let bytes = try? file.read(at: location.offset, count: Int(location.size)),
      case .frame(let frame) = Frame.parse(bytes, at: 0, detectZeros: false), let range = frame.records.last,
      let record = try? EventRecord.parse(bytes, range, sequence: location.lastSequence)
    else {
      return nil
    }
    return record.timestamp
  }
}
