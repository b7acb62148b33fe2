/// What ``FileJournal/verify(directory:key:)`` found: a log that opens, and its size.
public struct VerificationReport: Sendable, Hashable, CustomStringConvertible {
  /// The newest valid event.
  public var lastSequence: UInt64
  /// The number of segment files.
  public var segmentCount: Int
  /// The number of frames.
  public var frameCount: Int
  /// The chain value after the last frame, in hexadecimal: anchor it elsewhere to detect truncation.
  public var headChain: String?
  /// A torn tail that opening for writing would cut off.
  public var tornTail: TornTail?

  public var description: String {
    "\(lastSequence) events in \(frameCount) frames, \(segmentCount) segment(s); head \(headChain ?? "none")"
      + (tornTail.map { "; torn tail: \($0)" } ?? "")
  }
}

/// What ``FileJournal/repair(directory:key:)`` kept and set aside.
public struct RepairReport: Sendable, Hashable, CustomStringConvertible {
  /// The newest event kept.
  public var lastSequence: UInt64
  /// Paths of the files and byte ranges moved into the quarantine directory.
  public var quarantined: [String]

  public var description: String {
    quarantined.isEmpty
      ? "nothing to repair; \(lastSequence) events"
      : "kept events 1...\(lastSequence); set aside \(quarantined.joined(separator: ", "))"
  }
}

extension FileJournal {
  /// Checks every segment header, frame checksum, chain value and event record without changing anything.
  ///
  /// - Throws: ``FileJournalError/corrupted(segment:offset:lastGoodSequence:reason:)`` or
  ///   ``FileJournalError/tampered(segment:offset:lastGoodSequence:)`` naming where.
  ///   With a keyed log, pass its `key`; see ``LogAudit/verify(directory:key:anchor:progress:)`` for a
  ///   report that names the first damaged event instead of throwing.
  public static func verify(directory: String, key: ChainKey? = nil) throws -> VerificationReport {
    try verify(directory: directory, key: key, fileSystem: POSIXFileSystem())
  }

  package static func verify(
    directory: String, key: ChainKey? = nil, fileSystem: any LogFileSystem
  ) throws -> VerificationReport {
    let scanner = LogScanner(fileSystem: fileSystem, directory: directory, key: key)
    let log = try scanner.scan()
    if let bad = try firstUndecodableRecord(in: log, scanner: scanner) { throw bad }
    return VerificationReport(
      lastSequence: log.lastSequence, segmentCount: log.segments.count, frameCount: log.frames.count,
      headChain: log.lastChain?.description, tornTail: log.tornTail)
  }

  /// The first record of `log` that does not parse (or whose binary payload does not decode as a tree), as
  /// the error `verify` throws: the damage a valid checksum and chain value can still hold.
  static func firstUndecodableRecord(in log: ScannedLog, scanner: LogScanner) throws(FileJournalError)
    -> FileJournalError?
  {
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
          if let problem = RecordCheck.problem(
            in: bytes, range, sequence: parsed.firstSequence + UInt64(position))
          {
            // The frame is the unit the chain covers: repair keeps the events before it.
            return .corrupted(
              segment: segment.name, offset: frame.offset, lastGoodSequence: frame.firstSequence - 1,
              reason: problem.description)
          }
        }
      }
    }
    return nil
  }

  /// Keeps the longest valid prefix of the log and moves everything after it (the rest of the damaged
  /// segment and every later segment) into the `quarantine` subdirectory. Deletes nothing.
  ///
  /// It handles every damage ``verify(directory:key:)`` reports: a torn tail, a damaged or misnumbered
  /// frame or segment, a wrong chain value, and a record that does not decode although its frame's
  /// checksum and chain value are valid (the whole frame is set aside: its events before the bad one go
  /// with it, since a frame is never rewritten).
  ///
  /// Takes the directory's lock, so it fails with ``FileJournalError/locked(directory:)`` while a journal
  /// has it open. A keyed log needs its `key`: without it, no chain value can be checked, and the key
  /// errors of ``FileJournalError`` are thrown before anything is moved.
  public static func repair(directory: String, key: ChainKey? = nil) throws -> RepairReport {
    try repair(directory: directory, key: key, fileSystem: POSIXFileSystem())
  }

  package static func repair(
    directory: String, key: ChainKey? = nil, fileSystem: any LogFileSystem
  ) throws -> RepairReport {
    let lock: any LogFileLock
    do { lock = try fileSystem.lock(directory + "/LOCK") } catch {
      throw FileJournalError.locked(directory: directory)
    }
    defer { lock.release() }
    let scanner = LogScanner(fileSystem: fileSystem, directory: directory, key: key)
    var quarantined: [String] = []
    do {
      // Each pass removes the first damage found; a log has finitely many segments and bytes.
      while true {
        let damage: (segment: String, offset: UInt64)
        switch Result(catching: { () throws(FileJournalError) in try scanner.scan() }) {
        case .success(let log):
          if let torn = log.tornTail {
            damage = (torn.segment, torn.wholeSegment ? 0 : torn.offset)
          } else if let bad = try firstUndecodableRecord(in: log, scanner: scanner),
            let located = bad.damageLocation
          {
            damage = located
          } else {
            return RepairReport(lastSequence: log.lastSequence, quarantined: quarantined)
          }
        case .failure(let error):
          guard let located = error.damageLocation else { throw error }
          damage = located
        }
        let (segment, offset) = damage
        let names = try scanner.segmentNames().map(\.name)
        let later = names.drop { $0 != segment }.dropFirst()
        for name in later.reversed() {
          quarantined.append(try Quarantine.move(name, in: directory, fileSystem: fileSystem))
        }
        if offset < UInt64(SegmentHeader.minimumSize) {
          quarantined.append(try Quarantine.move(segment, in: directory, fileSystem: fileSystem))
        } else {
          quarantined.append(
            try setAsideTail(of: segment, from: offset, in: directory, fileSystem: fileSystem))
        }
      }
    } catch let error as IOError {
      throw FileJournalError.io(error)
    }
  }

  /// Copies the bytes of `segment` from `offset` into the quarantine, syncs the copy, then truncates.
  private static func setAsideTail(
    of segment: String, from offset: UInt64, in directory: String, fileSystem: any LogFileSystem
  ) throws(IOError) -> String {
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

extension FileJournalError {
  /// The segment and offset of damage, for the errors that name one (corrupted or tampered). Not for a
  /// retention cut record that does not fit the log: setting it aside would leave segments that start
  /// after event 1 with nothing to say where the chain comes from, so repair refuses and throws instead.
  var damageLocation: (segment: String, offset: UInt64)? {
    guard code == .corrupted || code == .tampered, let segment = location?.segment,
      segment != CutAnchor.fileName, let offset = location?.offset
    else { return nil }
    return (segment, offset)
  }
}
