import Foundation
import Rewind

/// A bug report, read and verified: a range of a log's events (possibly redacted), the state before
/// them and after them, and where they come from (``ReportMetadata``).
///
/// A report comes from a user's device, so it is untrusted input. ``read(from:expecting:maxBytes:)``
/// checks it before anything of it is used, in this order: that it is a report (of a format version this
/// build reads, no larger than `maxBytes`), its SHA-256 checksum (a flipped byte anywhere is refused),
/// its metadata against the app reading it (another app's report, or events in a schema version no
/// upcaster leads from, is refused with a ``ReportError`` that says so), and then the hash chain over its
/// events and that each event decodes as a record. A report that passes is what the device wrote.
///
/// ```swift
/// let report = try ReportBundle.read(
///   from: "bug-4711.rwreport", expecting: ReportExpectation(app: "com.example.inbox", action: InboxAction.self))
/// try report.forEachEvent(as: InboxAction.self) { event in print(event.sequence, event.payload) }
/// ```
///
/// `RewindDebugger` replays one (`replay FILE.rwreport`), and `Store.exportReport(to:)` writes one.
public struct ReportBundle: Sendable {
  /// The file it was read from.
  public let path: String
  /// Where it comes from, what it holds and what was redacted.
  public let metadata: ReportMetadata
  let file: ReportFile

  /// The events it holds.
  public var range: ClosedRange<UInt64> { metadata.range }

  /// The largest report ``read(from:expecting:maxBytes:)`` reads by default: 1 GiB.
  public static let defaultMaxBytes: UInt64 = 1 << 30

  /// Reads and verifies the report at `path`.
  /// - Throws: ``ReportError``: ``ReportError/io(_:)`` when the file cannot be read,
  ///   ``ReportError/notAReport(path:)``, ``ReportError/unsupportedVersion(_:)`` (both from the first 12
  ///   bytes, before the rest is read), ``ReportError/tooLarge(bytes:limit:)``, ``ReportError/damaged(_:)``, ``ReportError/otherApp(expected:found:)``,
  ///   ``ReportError/incompatibleSchema(type:version:appVersion:reason:)`` or
  ///   ``ReportError/chainBroken(sequence:problem:)``, the first that applies.
  public static func read(
    from path: String, expecting expectation: ReportExpectation, maxBytes: UInt64 = defaultMaxBytes
  ) throws(ReportError) -> ReportBundle {
    try read(from: path, expecting: expectation, maxBytes: maxBytes, fileSystem: POSIXFileSystem())
  }

  /// Reads and verifies the report at `path` through `fileSystem`: its header first (a few bytes, so that
  /// a file that is not a report is refused before its body is read), then the body, bounded by `maxBytes`.
  static func read(
    from path: String, expecting expectation: ReportExpectation, maxBytes: UInt64,
    fileSystem: any LogFileSystem
  ) throws(ReportError) -> ReportBundle {
    let bytes: [UInt8]
    do {
      let file = try fileSystem.openForReading(path)
      defer { file.close() }
      // The size costs no read: a file too short for a header (a FIFO reads as empty) is not a report.
      let size = try file.size()
      guard size >= UInt64(ReportFile.headerSize) else { throw ReportError.notAReport(path: path) }
      let header = try file.read(at: 0, count: ReportFile.headerSize)
      do { try ReportFile.checkHeader(header) } catch {
        if case .notAReport = error { throw ReportError.notAReport(path: path) }
        throw error
      }
      guard size <= maxBytes else { throw ReportError.tooLarge(bytes: size, limit: maxBytes) }
      bytes = header + (try file.read(at: UInt64(header.count), count: max(0, Int(size) - header.count)))
    } catch let error as ReportError {
      throw error
    } catch let error as IOError {
      throw .io(error)
    } catch {
      throw .damaged("\(error)")
    }
    return try verify(bytes, path: path, expecting: expectation)
  }

  /// Verifies the report in `bytes` (read from `path`), as ``read(from:expecting:maxBytes:)`` does.
  public static func verify(
    _ bytes: [UInt8], path: String = "report", expecting expectation: ReportExpectation
  )
    throws(ReportError) -> ReportBundle
  {
    let file: ReportFile
    do { file = try ReportFile.parse(bytes) } catch {
      if case .notAReport = error { throw .notAReport(path: path) }
      throw error
    }
    let metadata = file.metadata
    if let app = expectation.app, app != metadata.app { throw .otherApp(expected: app, found: metadata.app) }
    try checkSchema(metadata.schema, against: expectation)
    try checkChain(file)
    guard (metadata.firstSequence > 1) == !file.baseState.isEmpty else {
      throw .damaged(
        metadata.firstSequence > 1
          ? "it starts at event \(metadata.firstSequence) but holds no state to start from"
          : "it starts at event 1 but holds a start state")
    }
    return ReportBundle(path: path, metadata: metadata, file: file)
  }

  /// Every event type of the report must be in the app's schema version, or have upcasters to it.
  private static func checkSchema(_ schema: ReportSchema, against expectation: ReportExpectation)
    throws(ReportError)
  {
    let target = expectation.actionVersion
    for entry in schema.eventTypes where !entry.name.hasPrefix("rewind.") && entry.version != target {
      if entry.version > target {
        throw .incompatibleSchema(
          type: entry.name, version: entry.version, appVersion: target,
          reason: "it was written by a newer schema than this app reads")
      }
      if let missing = expectation.upcasters.missingStep(for: entry.name, from: entry.version, to: target) {
        throw .incompatibleSchema(
          type: entry.name, version: entry.version, appVersion: target,
          reason: "no upcaster is registered for \"\(entry.name)\" from version \(missing)")
      }
    }
  }

  /// The frames must cover the range exactly, continue the chain from the anchor, hold records that
  /// decode, and hold no event type the metadata does not list.
  private static func checkChain(_ file: ReportFile) throws(ReportError) {
    let metadata = file.metadata
    // The first frame may start before the first event replayed (a frame's events are chained together),
    // but must hold it.
    guard metadata.anchorSequence < metadata.firstSequence, metadata.firstSequence <= metadata.lastSequence,
      let firstFrame = file.frames.first, firstFrame.lastSequence >= metadata.firstSequence,
      let anchorChain = ReportDraft.bytes(hexadecimal: metadata.anchorChain), anchorChain.count == 32
    else {
      throw .damaged(
        "its range \(metadata.firstSequence)...\(metadata.lastSequence) does not fit its anchor and frames")
    }
    let listed = Set(metadata.schema.eventTypes)
    var chain = ChainVerifier(
      chain: SHA256.Digest(bytes: anchorChain), nextSequence: metadata.anchorSequence + 1, key: nil)
    for frame in file.frames {
      let first = chain.nextSequence
      if let problem = chain.verify(frame) { throw .chainBroken(sequence: first, problem: problem) }
      for (position, record) in frame.records.enumerated() {
        let sequence = frame.firstSequence + UInt64(position)
        // The chain verifier has checked that each record parses.
        guard let parsed = try? EventRecord.parse(record, record.indices, sequence: sequence) else {
          continue
        }
        let entry = ReportSchema.EventTypeVersion(name: parsed.typeName, version: parsed.schemaVersion)
        guard listed.contains(entry) else {
          throw .damaged(
            "event \(sequence) is a \"\(entry.name)\" of schema version \(entry.version), which its metadata "
              + "does not list")
        }
      }
    }
    guard chain.nextSequence - 1 == metadata.lastSequence else {
      throw .damaged(
        "its frames end at event \(chain.nextSequence - 1), its metadata at event \(metadata.lastSequence)")
    }
  }

  // MARK: Contents

  /// The state the report starts from (as of the event before ``range``), as a tree; `nil` when the
  /// report starts at event 1 (the app's initial state).
  public var startStateTree: BinaryValue? { tree(of: file.baseState) }

  /// The state after the report's last event, as the device had it, as a tree; `nil` when the report
  /// holds none.
  public var endStateTree: BinaryValue? { tree(of: file.endState) }

  /// The state the report starts from, decoded as the app's state type; `nil` when the report starts at
  /// event 1 (replay from the app's initial state).
  /// - Throws: ``ReportError/incompatibleState(reason:)`` when it does not decode.
  public func startState<State: Decodable>(as type: State.Type) throws(ReportError) -> State? {
    guard !file.baseState.isEmpty else { return nil }
    do {
      switch EventCodec(rawValue: metadata.stateCodec) {
      case .binary: return try BinaryDecoder().decode(State.self, from: file.baseState)
      case .json: return try JSONDecoder().decode(State.self, from: Data(file.baseState))
      case nil: throw ReportError.incompatibleState(reason: "unknown codec \(metadata.stateCodec)")
      }
    } catch let error as ReportError {
      throw error
    } catch {
      throw .incompatibleState(reason: "\(error)")
    }
  }

  private func tree(of bytes: [UInt8]) -> BinaryValue? {
    guard !bytes.isEmpty else { return nil }
    switch EventCodec(rawValue: metadata.stateCodec) {
    case .binary: return try? BinaryValue.decode(bytes)
    case .json: return try? BinaryValue.parseJSON(bytes[...])
    case nil: return nil
    }
  }

  /// Calls `body` with each event of the report from `first` through `last` (default: all of them),
  /// decoded as the app's action type; events of older schema versions are converted by `upcasters`.
  /// - Throws: `FileJournalError` (``FileJournalError/Code/undecodableEvent``,
  ///   ``FileJournalError/Code/unknownEventType``, ``FileJournalError/Code/noUpcastPath``,
  ///   ``FileJournalError/Code/upcastFailed``) naming an event that does not decode, and what `body`
  ///   throws.
  public func forEachEvent<Action: Codable & Sendable>(
    as type: Action.Type, upcasters: EventUpcasters = EventUpcasters(), from first: UInt64? = nil,
    through last: UInt64? = nil, _ body: (Event<Action>) throws -> Void
  ) throws {
    let decoder = EventDecoder<Action>(upcasters: upcasters)
    try forEachRecord(from: first, through: last) { sequence, record, frameIndex in
      let location = EventLocation(sequence: sequence, segment: path, offset: UInt64(frameIndex))
      try body(try decoder.decode(record, at: location))
    }
  }

  /// Calls `body` with each event of the report as a tree, without the app's types.
  public func forEachInspectedEvent(
    from first: UInt64? = nil, through last: UInt64? = nil, _ body: (InspectedEvent) throws -> Void
  ) throws {
    try forEachRecord(from: first, through: last) { sequence, record, _ in
      try body(try InspectedEvent(sequence: sequence, record: record))
    }
  }

  private func forEachRecord(
    from first: UInt64?, through last: UInt64?, _ body: (UInt64, EventRecord, Int) throws -> Void
  ) throws {
    let lower = max(first ?? range.lowerBound, range.lowerBound)
    let upper = min(last ?? range.upperBound, range.upperBound)
    guard lower <= upper else { return }
    for (index, frame) in file.frames.enumerated()
    where frame.lastSequence >= lower && frame.firstSequence <= upper {
      for (position, bytes) in frame.records.enumerated() {
        let sequence = frame.firstSequence + UInt64(position)
        guard sequence >= lower, sequence <= upper else { continue }
        let record = try RecordCheck.parse(bytes, bytes.indices, sequence: sequence)
        try body(sequence, record, index)
      }
    }
  }
}

/// What the app reading a report expects of it: whose it is, and which schema it reads.
public struct ReportExpectation: Sendable {
  /// The app's identifier; `nil` accepts any app's report.
  public var app: String?
  /// The schema version the app reads actions in.
  public var actionVersion: UInt64
  /// The steps that convert events of older schema versions.
  public var upcasters: EventUpcasters

  /// Expects a report of `app` whose actions `Action` reads, through `upcasters`.
  public init<Action>(app: String?, action: Action.Type, upcasters: EventUpcasters = EventUpcasters()) {
    self.app = app
    actionVersion = (Action.self as? any VersionedAction.Type)?.schemaVersion ?? 1
    self.upcasters = upcasters
  }
}
