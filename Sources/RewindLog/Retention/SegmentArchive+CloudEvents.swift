import Foundation

extension SegmentArchive {
  /// Exports each removed segment's events as CloudEvents 1.0 JSON lines (the mapping of `rewind export`,
  /// Docs/Audit.md) into `directory/<segment name>.cloudevents.jsonl`, one file per segment, written to a
  /// temporary file, synced and renamed (and the directory synced) before the segment is removed.
  ///
  /// A segment handed over again after a failed cut overwrites its file with the same events.
  /// - Parameters:
  ///   - directory: where the files go (created when missing); keep it outside the log directory.
  ///   - source: the CloudEvents `source` attribute; default `urn:rewind:log:<log id>`.
  public static func cloudEvents(directory: String, source: String? = nil) -> SegmentArchive {
    SegmentArchive(name: "cloudEvents:" + directory) { segment in
      try CloudEventsSegmentExport(
        segment: segment, directory: directory, source: source, fileSystem: POSIXFileSystem()
      ).run()
    }
  }

  /// The archive file name for a segment file name.
  static func cloudEventsFileName(segment name: String) -> String {
    (name.hasSuffix(".log") ? String(name.dropLast(4)) : name) + ".cloudevents.jsonl"
  }
}

/// Exports one segment file's events as CloudEvents JSON lines.
struct CloudEventsSegmentExport {
  var segment: SegmentArchive.Segment
  var directory: String
  var source: String?
  var fileSystem: any LogFileSystem

  func run() throws {
    let logDirectory = String(segment.path.dropLast(segment.name.count + 1))
    var reader = try SegmentReader(fileSystem: fileSystem, directory: logDirectory, name: segment.name)
    defer { reader.close() }
    guard case .success(let header) = SegmentHeader.parse(try reader.headerBytes()) else {
      throw FileJournalError.corrupted(
        segment: segment.name, offset: 0, lastGoodSequence: segment.sequences.lowerBound - 1,
        reason: "segment header does not parse")
    }
    let logIDHex = header.logID.hexadecimal
    let mapper = EventExportMapper(
      options: ExportOptions(format: .cloudEventsLines), source: source ?? "urn:rewind:log:" + logIDHex,
      logIDHex: logIDHex)
    var out: [UInt8] = []
    var offset = UInt64(header.size)
    while offset < reader.size, case .frame(let frame) = try reader.parse(at: offset) {
      for (position, range) in frame.records.enumerated() {
        let sequence = frame.firstSequence + UInt64(position)
        let record = try EventRecord.parse(reader.window, range, sequence: sequence)
        _ = mapper.append(record, sequence: sequence, to: &out)
        out.append(UInt8(ascii: "\n"))
      }
      offset += UInt64(frame.totalSize)
    }
    let name = SegmentArchive.cloudEventsFileName(segment: segment.name)
    let temporary = directory + "/" + name + ".tmp"
    try fileSystem.createDirectory(directory)
    let file = try fileSystem.open(temporary, create: true)
    defer { file.close() }
    try file.truncate(to: 0)
    try file.write(out, at: 0)
    try file.sync()
    try fileSystem.rename(temporary, to: directory + "/" + name)
    try fileSystem.syncDirectory(directory)
  }
}
