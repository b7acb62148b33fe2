import Foundation
import Rewind

/// Reads a log directory without opening it for writing: no lock, no recovery, nothing changed.
///
/// Made for tools (the `rewind` command and app debuggers). The directory is scanned once, by the same rules
/// as opening a ``FileJournal``: damage other than a torn tail throws; a torn tail is reported in
/// ``summary`` and its bytes are not read.
///
/// ```swift
/// let reader = try LogReader(directory: path)
/// try reader.forEachEvent { event, commitTime in print(event.sequence, event.typeName) }
/// ```
public struct LogReader: Sendable {
  /// The log directory.
  public let directory: String
  /// What the scan found.
  public let summary: LogSummary

  let fileSystem: any LogFileSystem
  let scanned: ScannedLog

  /// Scans the log in `directory`; a keyed log needs its `key`.
  ///
  /// - Throws: ``FileJournalError/io(_:)`` when the directory or a segment cannot be read;
  ///   ``FileJournalError/corrupted(segment:offset:lastGoodSequence:reason:)`` or
  ///   ``FileJournalError/tampered(segment:offset:lastGoodSequence:)`` for damage;
  ///   ``FileJournalError/keyRequired(segment:)``, ``FileJournalError/wrongKey(segment:)`` or
  ///   ``FileJournalError/notKeyed(segment:)`` when `key` does not fit the log.
  public init(directory: String, key: ChainKey? = nil) throws(FileJournalError) {
    self.directory = directory
    fileSystem = ReadOnlyFileSystem()
    let scanner = LogScanner(fileSystem: fileSystem, directory: directory, key: key)
    scanned = try scanner.scan()
    var times: [Date] = []
    for location in [scanned.frames.first, scanned.frames.last].compactMap({ $0 }) {
      let bytes = try Self.read(location, in: scanned, directory: directory, fileSystem: fileSystem)
      if case .frame(let frame) = Frame.parse(bytes, at: 0, detectZeros: false) {
        times.append(Date(timeIntervalSince1970: Double(frame.commitTime) / 1e9))
      }
    }
    summary = LogSummary(
      segments: scanned.segments.map {
        LogSummary.Segment(name: $0.name, firstSequence: $0.firstSequence, validBytes: $0.validEnd)
      },
      frameCount: scanned.frames.count, lastSequence: scanned.lastSequence,
      commitTimes: times.count == 2 ? min(times[0], times[1])...max(times[0], times[1]) : nil,
      headChain: scanned.lastChain?.description, tornTail: scanned.tornTail, isKeyed: scanned.isKeyed,
      logID: scanned.logID.map { $0.map { String($0, radix: 16).leftPadded(to: 2) }.joined() },
      cut: scanned.cut?.summary)
  }

  private static func read(
    _ location: FrameLocation, in log: ScannedLog, directory: String, fileSystem: any LogFileSystem
  ) throws(FileJournalError) -> [UInt8] {
    let path = directory + "/" + log.segments[location.segment].name
    do {
      let file = try fileSystem.open(path, create: false)
      defer { file.close() }
      return try file.read(at: location.offset, count: Int(location.size))
    } catch {
      throw .io(error)
    }
  }

  /// Calls `body` with every event from `first` through `last` (default: the newest) as a tree, and the
  /// commit time of its frame. Reads a window of a few MiB (or one frame) at a time.
  ///
  /// - Throws: ``FileJournalError/eventsCut(requested:cut:)`` when `first` is before
  ///   ``LogSummary/firstSequence`` (retention removed it); ``FileJournalError`` when a segment cannot
  ///   be read or changed since the scan, a record or
  ///   binary payload does not decode; and whatever `body` throws.
  public func forEachEvent(
    from first: UInt64 = 1, through last: UInt64? = nil, _ body: (InspectedEvent, Date) throws -> Void
  ) throws {
    try forEachRecord(from: first, through: last) { sequence, record, location in
      let event: InspectedEvent
      do { event = try InspectedEvent(sequence: sequence, record: record) } catch {
        throw FileJournalError.undecodableEvent(
          sequence: sequence, typeName: record.typeName, schemaVersion: record.schemaVersion,
          reason: "\(error)")
      }
      try body(event, location.committed)
    }
  }

  /// Calls `body` with every event from `first` through `last`, decoded as the app's `Action` type;
  /// events of an older schema version are converted by `upcasters` first, as ``FileJournal`` does.
  ///
  /// - Throws: ``FileJournalError/undecodableEvent(sequence:typeName:schemaVersion:reason:)``,
  ///   ``FileJournalError/unknownEventType(_:schemaVersion:at:reason:)`` and the upcasting errors, naming
  ///   the event; other ``FileJournalError``s; and whatever `body` throws.
  public func forEachEvent<Action: Codable & Sendable>(
    as type: Action.Type, upcasters: EventUpcasters = EventUpcasters(), from first: UInt64 = 1,
    through last: UInt64? = nil, _ body: (Event<Action>) throws -> Void
  ) throws {
    let decoder = EventDecoder<Action>(upcasters: upcasters)
    try forEachRecord(from: first, through: last) { _, record, location in
      try body(try decoder.decode(record, at: location.event))
    }
  }

  private func forEachRecord(
    from first: UInt64, through last: UInt64?, _ body: (UInt64, EventRecord, RecordLocation) throws -> Void
  ) throws {
    let upper = min(last ?? scanned.lastSequence, scanned.lastSequence)
    let lower = max(first, 1)
    guard lower <= upper else { return }
    if let cut = scanned.cut, lower <= cut.throughSequence {
      throw FileJournalError.eventsCut(requested: lower, cut: cut.summary)
    }
    let scanner = LogScanner(fileSystem: fileSystem, directory: directory)
    for (index, segment) in scanned.segments.enumerated() {
      let frames = scanned.frames.filter {
        $0.segment == index && $0.lastSequence >= lower && $0.firstSequence <= upper
      }
      guard !frames.isEmpty else { continue }
      // A window of the segment at a time (a few MiB, or one frame), whatever the segment's size.
      var reader = try scanner.open(segment.name)
      defer { reader.close() }
      for location in frames {
        try reader.load(location.offset, count: Int(location.size))
        let bytes = reader.window
        let start = reader.relative(location.offset)
        guard start + Int(location.size) <= bytes.count,
          case .frame(let frame) = Frame.parse(bytes, at: start, detectZeros: false),
          frame.firstSequence == location.firstSequence
        else {
          throw FileJournalError.corrupted(
            segment: segment.name, offset: location.offset, lastGoodSequence: location.firstSequence - 1,
            reason: "frame changed on disk while it was being read")
        }
        let time = Date(timeIntervalSince1970: Double(frame.commitTime) / 1e9)
        for (position, range) in frame.records.enumerated() {
          let sequence = frame.firstSequence + UInt64(position)
          guard sequence >= lower, sequence <= upper else { continue }
          let record = try RecordCheck.read(
            bytes, range, sequence: sequence, segment: segment.name, frameOffset: location.offset)
          try body(
            sequence, record,
            RecordLocation(
              event: EventLocation(sequence: sequence, segment: segment.name, offset: location.offset),
              committed: time))
        }
      }
    }
  }

  /// Every snapshot file in the directory, newest first, checked against this log.
  public func snapshots() -> [SnapshotSummary] {
    return SnapshotFile.files(in: directory, fileSystem: fileSystem).map { name, sequence in
      var summary = SnapshotSummary(file: name, sequence: sequence, bytes: 0)
      let loaded: Result<SnapshotFile, SnapshotRejection.Reason>
      do {
        (summary.bytes, loaded) = try SnapshotFile.load(directory + "/" + name, fileSystem: fileSystem)
      } catch {
        summary.problem = .damaged(String(describing: error))
        return summary
      }
      switch loaded {
      case .failure(let reason): summary.problem = reason
      case .success(let snapshot):
        summary.codec = snapshot.codec
        summary.state =
          snapshot.codec == .binary
          ? try? BinaryValue.decode(snapshot.state) : try? BinaryValue.parseJSON(snapshot.state)
        if snapshot.sequence != sequence || snapshot.logID != scanned.logID {
          summary.problem = .mismatch("another log or a renamed file")
        } else if chainValue(containing: sequence) != snapshot.chain {
          summary.problem = .mismatch("the log has no frame with its chain value at event \(sequence)")
        }
      }
      return summary
    }
  }

  /// The chain value, in hexadecimal, after the frame that ends with event `sequence`; `nil` when no frame
  /// ends there. An anchor taken when `sequence` was the newest event holds this value.
  public func chainValue(endingAt sequence: UInt64) -> String? {
    scanned.frames.first { $0.lastSequence == sequence }?.chain.description
  }

  private func chainValue(containing sequence: UInt64) -> SHA256.Digest? {
    scanned.frames.first { $0.firstSequence <= sequence && sequence <= $0.lastSequence }?.chain
  }
}

/// Where a record was read: for error messages, and its frame's commit time.
struct RecordLocation {
  var event: EventLocation
  var committed: Date
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
