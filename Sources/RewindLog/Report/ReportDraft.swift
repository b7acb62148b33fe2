import Foundation
import Rewind

/// A bug report being made from a log directory: its frames read (chain-verified) from the log, their
/// actions redacted, chained again from the anchor before the first, and the states it holds redacted.
/// ``Store/exportReport(to:options:)`` and `rewind report` make one, then write it.
struct ReportDraft {
  var metadata: ReportMetadata
  var frames: [ChainedFrame]
  var startState: [UInt8]
  var endState: [UInt8]

  /// Reads the frames of the log in `directory` that hold events `first...last` (whole frames: a frame's
  /// events are chained together), redacting the actions by `rules`.
  ///
  /// - Parameters:
  ///   - first: the first event to replay; the report's frames may start before it (its frame's start).
  ///   - last: the last event; `nil` for the newest. The report ends at the end of its frame.
  /// - Throws: ``ReportError/cannotReport(_:)`` for a range the log does not hold; the log's errors
  ///   (`FileJournalError`) when it cannot be read or does not verify.
  static func frames(
    directory: String, key: ChainKey?, first: UInt64, through last: UInt64?, rules: RedactionRules,
    fileSystem: any LogFileSystem = POSIXFileSystem()
  ) throws -> (
    frames: [ChainedFrame], anchor: (sequence: UInt64, chain: SHA256.Digest), logHead: LogAnchor,
    logID: String,
    isKeyed: Bool,
    eventTypes: [ReportSchema.EventTypeVersion], redacted: [RedactedValue]
  ) {
    let reader = try LogReader(directory: directory, key: key)
    let summary = reader.summary
    guard let logIDText = summary.logID, let logID = Self.bytes(hexadecimal: logIDText) else {
      throw ReportError.cannotReport("the log in \(directory) holds no events")
    }
    let newest = summary.lastSequence
    let upper = min(last ?? newest, newest)
    let firstHeld = summary.cut.map { $0.throughSequence + 1 } ?? 1
    guard first >= firstHeld, first <= upper else {
      throw ReportError.cannotReport(
        "the log holds events \(firstHeld)...\(newest), not a range from \(first) through \(upper)")
    }
    var previous =
      summary.cut.flatMap { Self.bytes(hexadecimal: $0.chain) }.map { SHA256.Digest(bytes: $0) }
      ?? SegmentHeader.genesisChain(logID: logID)
    var anchor: (sequence: UInt64, chain: SHA256.Digest)?
    var logHead = LogAnchor(sequence: 0, chain: previous)
    var frames: [ChainedFrame] = []
    var reportChain = previous
    var types: Set<ReportSchema.EventTypeVersion> = []
    var redacted: [RedactedValue] = []
    try LogAudit.forEachFrame(directory: directory, key: key, fileSystem: fileSystem) { frame, _ in
      defer { previous = frame.chain }
      guard frame.lastSequence >= first else { return true }
      if anchor == nil {
        anchor = (frame.firstSequence - 1, previous)
        reportChain = previous
      }
      var copy = frame
      for (position, record) in frame.records.enumerated() {
        let sequence = frame.firstSequence + UInt64(position)
        let parsed = try RecordCheck.parse(record, record.indices, sequence: sequence)
        types.insert(ReportSchema.EventTypeVersion(name: parsed.typeName, version: parsed.schemaVersion))
        guard !rules.actionPaths.isEmpty, sequence >= first, parsed.kind == .action else { continue }
        if let rewritten = try redactAction(parsed, sequence: sequence, rules: rules, into: &redacted) {
          copy.records[position] = rewritten
        }
      }
      copy = copy.chained(after: reportChain)
      reportChain = copy.chain
      frames.append(copy)
      logHead = LogAnchor(sequence: frame.lastSequence, chain: frame.chain)
      return frame.lastSequence < upper
    }
    guard let anchor else { throw ReportError.cannotReport("no frame of the log holds event \(first)") }
    return (
      frames, anchor, logHead, logIDText, summary.isKeyed,
      types.sorted { ($0.name, $0.version) < ($1.name, $1.version) }, redacted
    )
  }

  /// The record of `record` (event `sequence`) with its action redacted by `rules`, or `nil` when the
  /// rules match nothing in it.
  static func redactAction(
    _ record: EventRecord, sequence: UInt64, rules: RedactionRules, into redacted: inout [RedactedValue]
  ) throws -> [UInt8]? {
    let tree: BinaryValue
    switch record.codec {
    case .binary: tree = try BinaryValue.decode(Array(record.payload))
    case .json: tree = try BinaryValue.parseJSON(record.payload)
    }
    let (result, paths) = Redaction.redact(tree, paths: rules.actionPaths)
    guard !paths.isEmpty else { return nil }
    redacted += paths.map { RedactedValue(place: .event(sequence: sequence), path: $0) }
    let payload: [UInt8]
    switch record.codec {
    case .binary: payload = result.encoded
    case .json:
      guard let text = result.jsonText else {
        throw ReportError.cannotReport("event \(sequence)'s redacted action has no JSON form")
      }
      payload = Array(text.utf8)
    }
    return record.replacingPayload(with: payload, sequence: sequence)
  }

  /// `state` (encoded with `codec`) with `paths` redacted, and what was redacted (as of `sequence`).
  static func redactState(
    _ state: [UInt8], codec: EventCodec, paths: [String], sequence: UInt64,
    into redacted: inout [RedactedValue]
  ) throws -> [UInt8] {
    guard !paths.isEmpty, !state.isEmpty else { return state }
    let tree: BinaryValue
    switch codec {
    case .binary: tree = try BinaryValue.decode(state)
    case .json: tree = try BinaryValue.parseJSON(state[...])
    }
    let (result, found) = Redaction.redact(tree, paths: paths)
    guard !found.isEmpty else { return state }
    redacted += found.map { RedactedValue(place: .state(sequence: sequence), path: $0) }
    switch codec {
    case .binary: return result.encoded
    case .json:
      guard let text = result.jsonText else {
        throw ReportError.cannotReport("the redacted state as of event \(sequence) has no JSON form")
      }
      return Array(text.utf8)
    }
  }

  /// The bytes of a hexadecimal string, or `nil`.
  static func bytes(hexadecimal text: String) -> [UInt8]? {
    let digits = Array(text.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    var index = 0
    while index < digits.count {
      guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
      bytes.append(high << 4 | low)
      index += 2
    }
    return bytes
  }

  private static func hexValue(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// The report's file.
  var file: ReportFile {
    ReportFile(metadata: metadata, baseState: startState, endState: endState, frames: frames)
  }

  /// Writes a report's `bytes` to `path`: to a temporary file beside it, synced, then renamed over it. On
  /// failure the temporary file is removed, so nothing half-written is left beside `path`.
  ///
  /// The temporary file is created anew (`createNew`: `O_EXCL`, no link followed), after removing a stale
  /// regular one: a link to someone's file planted as `.partial` while the report was being assembled
  /// (which can take seconds) makes the write fail instead of overwriting that file.
  static func write(_ bytes: [UInt8], to path: String, fileSystem: any LogFileSystem = POSIXFileSystem())
    throws(ReportError)
  {
    let temporary = path + ".partial"
    try checkDestination(path)
    if fileSystem.exists(temporary) { try? fileSystem.remove(temporary) }
    do throws(IOError) {
      let handle = try fileSystem.createNew(temporary)
      defer { handle.close() }
      do throws(IOError) {
        try handle.write(bytes, at: 0)
        try handle.sync()
        try fileSystem.rename(temporary, to: path)
      } catch {
        try? fileSystem.remove(temporary)
        throw error
      }
    } catch {
      throw .io(error)
    }
  }
}

extension EventRecord {
  /// This record (event `sequence`) with `payload` in place of its payload, everything else as it was,
  /// without a length prefix.
  func replacingPayload(with payload: [UInt8], sequence: UInt64) -> [UInt8] {
    var writer = ByteWriter(capacity: bytes.count + payload.count)
    let caseName = typeNameIsCase ? EventRecord.firstKey(in: payload, payload.indices) : nil
    let name = typeName
    EventRecord.append(
      codec: codec, schemaVersion: schemaVersion, sequence: sequence, timestamp: timestamp,
      metadata: metadata,
      kind: kind, draws: draws, fingerprint: fingerprint, to: &writer,
      payload: { writer in
        writer.append(payload)
        return caseName
      },
      typeName: { _ in name })
    var reader = ByteReader(writer.bytes)
    _ = try? reader.varint()
    return Array(writer.bytes[reader.offset...])
  }
}
