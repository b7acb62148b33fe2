/// The first damage in a log that repair acts on: where it cuts the log, the last event it keeps, and why.
package struct LogDamage: Sendable, Hashable {
  /// The segment where the damage starts.
  package var segment: String
  /// Where in the segment: the frame (or torn tail) offset, or 0 when the whole segment goes.
  package var offset: UInt64
  /// The newest event repair keeps.
  package var lastGoodSequence: UInt64
  /// What is wrong, as the error or torn tail words it.
  package var reason: String
}

/// Repair by the recovery rules: the longest valid prefix a scan finds (``LogScanner``), less the frame of
/// the first record that does not decode (``RecordCheck``), is kept; the rest goes to the quarantine.
package struct LogRepair {
  let fileSystem: any LogFileSystem
  let directory: String
  let key: ChainKey?

  private var scanner: LogScanner { LogScanner(fileSystem: fileSystem, directory: directory, key: key) }

  /// The damage repair would act on first in the log in `directory`, found read-only and without the
  /// lock; `nil` when there is nothing to repair. What `rewind repair` shows before it repairs.
  /// - Throws: the errors of reading the log that repair does not act on (I/O, the key errors, a cut
  ///   record that does not fit the log).
  package static func firstDamage(directory: String, key: ChainKey?) throws(FileJournalError) -> LogDamage? {
    try LogRepair(fileSystem: ReadOnlyFileSystem(), directory: directory, key: key).firstDamage()
  }

  /// The damage repair would act on first; `nil` when there is nothing to repair.
  func firstDamage() throws(FileJournalError) -> LogDamage? { try examine().damage }

  /// Removes the first damage found until there is none; a log has finitely many segments and bytes.
  func run() throws -> RepairReport {
    var quarantined: [String] = []
    do {
      while true {
        let (lastSequence, damage) = try examine()
        guard let damage else { return RepairReport(lastSequence: lastSequence, quarantined: quarantined) }
        let names = try scanner.segmentNames().map(\.name)
        let later = names.drop { $0 != damage.segment }.dropFirst()
        for name in later.reversed() {
          quarantined.append(try Quarantine.move(name, in: directory, fileSystem: fileSystem))
        }
        if damage.offset < UInt64(SegmentHeader.minimumSize) {
          quarantined.append(try Quarantine.move(damage.segment, in: directory, fileSystem: fileSystem))
        } else {
          quarantined.append(try setAsideTail(of: damage.segment, from: damage.offset))
        }
      }
    } catch let error as IOError {
      throw FileJournalError.io(error)
    }
  }

  /// The newest valid event and the first damage after it, if any.
  private func examine() throws(FileJournalError) -> (lastSequence: UInt64, damage: LogDamage?) {
    let log: ScannedLog
    do { log = try scanner.scan() } catch {
      // Not for a cut record that does not fit the log (see ``FileJournal/repair(directory:key:)``).
      guard error.code == .corrupted || error.code == .tampered, let segment = error.location?.segment,
        segment != CutAnchor.fileName, let offset = error.location?.offset
      else { throw error }
      let last = error.lastGoodSequence ?? 0
      return (
        last, LogDamage(segment: segment, offset: offset, lastGoodSequence: last, reason: error.message)
      )
    }
    if let torn = log.tornTail {
      let damage = LogDamage(
        segment: torn.segment, offset: torn.wholeSegment ? 0 : torn.offset,
        lastGoodSequence: log.lastSequence,
        reason: torn.description)
      return (log.lastSequence, damage)
    }
    if let damage = try firstUndecodableRecord(in: log) { return (damage.lastGoodSequence, damage) }
    return (log.lastSequence, nil)
  }

  /// The frame of the first record of `log` that does not decode: the damage a valid checksum and chain
  /// value can still hold. The frame is the unit the chain covers, so repair keeps the events before it.
  private func firstUndecodableRecord(in log: ScannedLog) throws(FileJournalError) -> LogDamage? {
    for (index, segment) in log.segments.enumerated() {
      var reader = try scanner.open(segment.name)
      defer { reader.close() }
      for frame in log.frames where frame.segment == index {
        try reader.load(frame.offset, count: Int(frame.size))
        let bytes = reader.window
        guard
          case .frame(let parsed) = Frame.parse(bytes, at: reader.relative(frame.offset), detectZeros: false)
        else {
          continue
        }
        for (position, range) in parsed.records.enumerated() {
          let sequence = parsed.firstSequence + UInt64(position)
          if let problem = RecordCheck.problem(in: bytes, range, sequence: sequence) {
            let error = FileJournalError.corrupted(
              segment: segment.name, offset: frame.offset, lastGoodSequence: frame.firstSequence - 1,
              reason: problem.description)
            return LogDamage(
              segment: segment.name, offset: frame.offset, lastGoodSequence: frame.firstSequence - 1,
              reason: error.message)
          }
        }
      }
    }
    return nil
  }

  /// Copies the bytes of `segment` from `offset` into the quarantine, syncs the copy, then truncates.
  private func setAsideTail(of segment: String, from offset: UInt64) throws(IOError) -> String {
    let file = try fileSystem.open(directory + "/" + segment, create: false)
    defer { file.close() }
    let size = try file.size()
    let name = segment + ".from-byte-" + String(offset)
    let copy = try fileSystem.open(directory + "/" + name, create: true)
    defer { copy.close() }
    // Copied a chunk at a time, zero chunks left as holes: a tail stretched to gigabytes of zeros costs
    // neither that much memory nor that much disk.
    try copy.truncate(to: 0)
    try copy.truncate(to: size > offset ? size - offset : 0)
    var position = offset
    while position < size {
      let chunk = try file.read(
        at: position, count: Int(min(UInt64(SegmentReader.chunkSize), size - position)))
      guard !chunk.isEmpty else { break }
      if !SegmentReader.isZero(chunk) { try copy.write(chunk, at: position - offset) }
      position += UInt64(chunk.count)
    }
    try copy.sync()
    let path = try Quarantine.move(name, in: directory, fileSystem: fileSystem)
    try file.truncate(to: offset)
    try file.sync()
    return path
  }
}
