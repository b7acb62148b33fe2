import Foundation

extension LogAudit {
  /// Streams the events of the log in `directory` as CloudEvents 1.0 JSON (a batch or JSON lines) or as
  /// plain JSON lines, without the app's types.
  ///
  /// Frames are read and verified (checksum and chain) one at a time and written as they go; memory stays
  /// bounded by a read window (a few MiB) plus a 64 KiB output buffer, whatever the log's size. Read-only and lock-free,
  /// like ``verify(directory:key:anchor:progress:)``: an incomplete frame at the end of a log being written
  /// is not exported. The mapping is in Docs/Audit.md.
  ///
  /// - Parameters:
  ///   - directory: The log directory.
  ///   - options: The format, the CloudEvents source and type prefix, a range, the chain key.
  ///   - progress: Called on the calling thread after each frame with the bytes read so far.
  ///   - write: Receives the output in chunks, in order.
  /// - Returns: What was written.
  /// - Throws: the errors of `write`; ``FileJournalError`` when the log cannot be read or is damaged or
  ///   tampered (what was written before it is a verified prefix; the error names where it stopped).
  public static func export(
    directory: String, options: ExportOptions = ExportOptions(), progress: ((AuditProgress) -> Void)? = nil,
    write: ([UInt8]) throws -> Void
  ) throws -> ExportSummary {
    try export(
      directory: directory, options: options, progress: progress, fileSystem: POSIXFileSystem(), write: write)
  }

  /// Streams the events of the log in `directory` to `output`, e.g. `FileHandle.standardOutput` or a file
  /// opened for writing; see ``export(directory:options:progress:write:)``.
  public static func export(
    directory: String, to output: FileHandle, options: ExportOptions = ExportOptions(),
    progress: ((AuditProgress) -> Void)? = nil
  ) throws -> ExportSummary {
    try export(directory: directory, options: options, progress: progress) { chunk in
      try output.write(contentsOf: Data(chunk))
    }
  }

  /// Streams the events of the log in `directory` to an open `output` stream; see
  /// ``export(directory:options:progress:write:)``.
  /// - Throws: the stream's error when a write fails, and the errors of the log.
  public static func export(
    directory: String, to output: OutputStream, options: ExportOptions = ExportOptions(),
    progress: ((AuditProgress) -> Void)? = nil
  ) throws -> ExportSummary {
    try export(directory: directory, options: options, progress: progress) { chunk in
      var done = 0
      while done < chunk.count {
        let written = chunk[done...].withUnsafeBufferPointer { buffer in
          buffer.baseAddress.map { output.write($0, maxLength: buffer.count) } ?? 0
        }
        guard written > 0 else {
          throw output.streamError ?? CocoaError(.fileWriteUnknown)
        }
        done += written
      }
    }
  }

  package static func export(
    directory: String, options: ExportOptions, progress: ((AuditProgress) -> Void)?,
    fileSystem: any LogFileSystem,
    write: ([UInt8]) throws -> Void
  ) throws -> ExportSummary {
    let scanner = LogScanner(fileSystem: fileSystem, directory: directory, key: options.key)
    let names = try scanner.segmentNames()
    var bases: [UInt64] = []
    var total: UInt64 = 0
    for entry in names {
      bases.append(total)
      total += try size(of: directory + "/" + entry.name, fileSystem: fileSystem)
    }
    let logID =
      try names.first.map { try readLogID(of: directory + "/" + $0.name, fileSystem: fileSystem) } ?? nil
    let logIDHex = logID?.hexadecimal ?? "unknown"
    let mapper = EventExportMapper(
      options: options, source: options.source ?? "urn:rewind:log:" + logIDHex, logIDHex: logIDHex)

    var summary = ExportSummary(eventCount: 0, sequences: nil, binaryPayloads: 0, bytesWritten: 0)
    var buffer: [UInt8] = []
    buffer.reserveCapacity(1 << 17)
    var failure: (any Error)?
    func drain(_ minimum: Int) throws {
      guard buffer.count >= minimum, !buffer.isEmpty else { return }
      try write(buffer)
      summary.bytesWritten += UInt64(buffer.count)
      buffer.removeAll(keepingCapacity: true)
    }
    let batch = options.format == .cloudEventsBatch
    if batch { buffer.append(UInt8(ascii: "[")) }
    var framesDone = 0
    let scan = Result { () throws(FileJournalError) in
      try scanner.scan { visit in
        for (position, range) in visit.frame.records.enumerated() {
          let sequence = visit.frame.firstSequence + UInt64(position)
          if let wanted = options.range {
            if sequence < wanted.lowerBound { continue }
            if sequence > wanted.upperBound { return false }
          }
          let record: EventRecord
          do {
            record = try RecordCheck.read(
              visit.bytes, range, sequence: sequence, segment: visit.segment, frameOffset: visit.offset)
          } catch {
            failure = error
            return false
          }
          if batch { buffer.append(contentsOf: (summary.eventCount == 0 ? "\n" : ",\n").utf8) }
          if mapper.append(record, sequence: sequence, to: &buffer) { summary.binaryPayloads += 1 }
          if !batch { buffer.append(UInt8(ascii: "\n")) }
          summary.eventCount += 1
          summary.sequences = (summary.sequences?.lowerBound ?? sequence)...sequence
          do { try drain(1 << 16) } catch {
            failure = error
            return false
          }
        }
        framesDone += 1
        progress?(
          AuditProgress(
            bytesDone: bases[visit.segmentIndex] + visit.offset + UInt64(visit.frame.totalSize),
            bytesTotal: total, framesDone: framesDone))
        return true
      }
    }
    if case .failure(let damage) = scan {
      // Keep what verified before the damage, then report where it is.
      try drain(0)
      throw damage
    }
    if let failure { throw failure }
    if batch { buffer.append(contentsOf: (summary.eventCount == 0 ? "]\n" : "\n]\n").utf8) }
    try drain(0)
    return summary
  }

  private static func size(of path: String, fileSystem: any LogFileSystem) throws(FileJournalError) -> UInt64
  {
    do {
      let file = try fileSystem.openForReading(path)
      defer { file.close() }
      return try file.size()
    } catch {
      throw .io(error)
    }
  }

  /// The log id in a segment's header, or `nil` when the header does not parse (the scan then reports why).
  private static func readLogID(of path: String, fileSystem: any LogFileSystem) throws(FileJournalError)
    -> [UInt8]?
  {
    do {
      let file = try fileSystem.openForReading(path)
      defer { file.close() }
      guard
        case .success(let header) = SegmentHeader.parse(try file.read(at: 0, count: SegmentHeader.keyedSize))
      else {
        return nil
      }
      return header.logID
    } catch {
      throw .io(error)
    }
  }
}
