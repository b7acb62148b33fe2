import Foundation
import Rewind

/// What a bug report says about its maker, and what it takes out.
public struct ReportOptions: Sendable {
  /// The app's identifier (a bundle identifier, say): only that app's debugger reads the report.
  public var app: String
  /// The build, by name.
  public var build: String
  /// The build's identity, as its fingerprints record it.
  public var buildIdentity: BuildIdentity
  /// What the person reporting wrote.
  public var note: String?
  /// What to take out before the report leaves the device.
  public var redaction: RedactionRules

  /// Options for a report of `app`, made by `build` (by default the running program, see
  /// `BuildIdentity.current`).
  public init(
    app: String, build: String = BuildIdentity.currentName, buildIdentity: BuildIdentity? = nil,
    note: String? = nil, redaction: RedactionRules = RedactionRules()
  ) {
    self.app = app
    self.build = build
    self.buildIdentity = buildIdentity ?? BuildIdentity(build)
    self.note = note
    self.redaction = redaction
  }
}

extension ReportBundle {
  /// Writes a bug report of the log in `directory` to `path`, without the app's types (what `rewind
  /// report` does; an app's store writes its own with `Store.exportReport(to:options:)`).
  ///
  /// The report needs the state before its first event: it starts at event 1, or just after a snapshot
  /// of the log (whose state it holds). By default it starts after the newest snapshot before `last`, or
  /// at 1 when there is none. The frames it holds are whole frames of the log, so it may end a little after
  /// `last`; it holds no end state unless a snapshot is as of its last event.
  ///
  /// - Returns: the report's metadata.
  /// - Throws: ``ReportError/cannotReport(_:)`` for a range without a state to start from, or that the log
  ///   does not hold; ``ReportError/notARegularFile(path:kind:)`` when `path` (or `path.partial`) exists
  ///   and is not a regular file (a directory, a FIFO, a device, a symbolic link), before anything is
  ///   written; the log's `FileJournalError`s; ``ReportError/io(_:)`` when the file cannot be written.
  @discardableResult
  public static func write(
    log directory: String, key: ChainKey? = nil, from first: UInt64? = nil, through last: UInt64? = nil,
    options: ReportOptions, to path: String
  ) throws -> ReportMetadata {
    try ReportDraft.checkDestination(path)
    let report = try make(log: directory, key: key, from: first, through: last, options: options)
    try ReportDraft.write(report.bytes, to: path)
    return report.metadata
  }

  /// A bug report of the log in `directory`, as ``write(log:key:from:through:options:to:)`` writes it: its
  /// metadata and the file's bytes, for a caller that writes them itself (`rewind report` writes them by
  /// the tool's rules for `-o FILE`).
  /// - Throws: what ``write(log:key:from:through:options:to:)`` throws, except writing errors.
  public static func make(
    log directory: String, key: ChainKey? = nil, from first: UInt64? = nil, through last: UInt64? = nil,
    options: ReportOptions
  ) throws -> (metadata: ReportMetadata, bytes: [UInt8]) {
    let reader = try LogReader(directory: directory, key: key)
    let newest = reader.summary.lastSequence
    let upper = min(last ?? newest, newest)
    let snapshots = reader.snapshots().filter { $0.problem == nil && $0.state != nil && $0.codec != nil }
    let start: UInt64
    if let first {
      start = first
    } else if let newestBefore = snapshots.filter({ $0.sequence < upper }).max(by: {
      $0.sequence < $1.sequence
    }) {
      start = newestBefore.sequence + 1
    } else {
      start = reader.summary.cut.map { $0.throughSequence + 1 } ?? 1
    }
    var startState: [UInt8] = []
    var codec = EventCodec.binary
    if start > 1 {
      guard let snapshot = snapshots.first(where: { $0.sequence == start - 1 }), let tree = snapshot.state,
        let snapshotCodec = snapshot.codec
      else {
        // Where a report can start: after a snapshot, in order, and only inside the log.
        let available = snapshots.map { $0.sequence + 1 }.filter { $0 <= upper }.sorted()
          .map(String.init).joined(separator: ", ")
        throw ReportError.cannotReport(
          "no state as of event \(start - 1) to start from: start at event 1"
            + (available.isEmpty ? "" : " or just after a snapshot (at \(available))"))
      }
      codec = snapshotCodec
      startState = try encode(tree, codec: codec)
    }
    let drafted = try ReportDraft.frames(
      directory: directory, key: key, first: start, through: upper, rules: options.redaction)
    let end = drafted.frames.last?.lastSequence ?? upper
    var redacted = drafted.redacted
    startState = try ReportDraft.redactState(
      startState, codec: codec, paths: options.redaction.statePaths, sequence: start - 1, into: &redacted)
    var endState: [UInt8] = []
    if let snapshot = snapshots.first(where: { $0.sequence == end }), let tree = snapshot.state,
      snapshot.codec == codec || start == 1
    {
      codec = snapshot.codec ?? codec
      endState = try ReportDraft.redactState(
        try encode(tree, codec: codec), codec: codec, paths: options.redaction.statePaths, sequence: end,
        into: &redacted)
    }
    let actionVersion =
      drafted.eventTypes.filter { !$0.name.hasPrefix("rewind.") }.map(\.version).max() ?? 1
    var manifest = RedactionManifest(rules: options.redaction)
    manifest.redacted = redacted
    let metadata = ReportMetadata(
      app: options.app, build: options.build, buildIdentity: options.buildIdentity,
      platform: ReportMetadata.currentPlatform, created: Date(), note: options.note, logID: drafted.logID,
      logIsKeyed: drafted.isKeyed, firstSequence: start, lastSequence: end,
      anchorSequence: drafted.anchor.sequence, anchorChain: drafted.anchor.chain.description,
      logHead: drafted.logHead,
      schema: ReportSchema(
        actionType: "unknown", stateType: "unknown", actionVersion: actionVersion,
        eventTypes: drafted.eventTypes),
      stateCodec: codec.rawValue, baseFingerprint: nil, redaction: manifest)
    let draft = ReportDraft(
      metadata: metadata, frames: drafted.frames, startState: startState, endState: endState)
    return (metadata, try draft.file.encoded())
  }

  /// A state tree in `codec`'s bytes.
  static func encode(_ tree: BinaryValue, codec: EventCodec) throws -> [UInt8] {
    switch codec {
    case .binary: return tree.encoded
    case .json:
      guard let text = tree.jsonText else {
        throw ReportError.cannotReport("a snapshot's state has no JSON form")
      }
      return Array(text.utf8)
    }
  }
}
