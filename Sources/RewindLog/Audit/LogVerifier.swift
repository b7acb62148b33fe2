/// Checks a log directory frame by frame and reports the first place where it is not what the chain
/// committed to. Read-only: it opens files for reading, takes no lock and writes nothing, so it runs on
/// a log that a journal (in this or another process) has open for writing; an incomplete frame at the very
/// end is then a frame being written, reported as a torn tail.
struct LogVerifier {
  let fileSystem: any LogFileSystem
  let directory: String
  let key: ChainKey?
  let anchor: LogAnchor?
  let progress: ((AuditProgress) -> Void)?

  /// Reports progress at most every this many bytes (and once at the end).
  private static let progressStep: UInt64 = 1 << 20

  private var scanner: LogScanner { LogScanner(fileSystem: fileSystem, directory: directory, key: key) }

  /// The state of the walk along the chain.
  private struct Walk {
    var report: AuditReport
    var expected: UInt64 = 1
    var chain: SHA256.Digest?
    var logID: [UInt8]?
    var keyCheck: SHA256.Digest?
    var done: UInt64 = 0
    var total: UInt64 = 0
    var reported: UInt64 = 0
    /// The verified frame that holds the anchor's sequence number: its last sequence and chain value.
    var anchorFrame: (last: UInt64, chain: SHA256.Digest)?
    var lastSegment = ""
    var lastEnd: UInt64 = 0
    var cut: CutRecovery?

    mutating func find(_ kind: AuditFinding.Kind, _ segment: String, _ offset: Int, _ detail: String) {
      report.firstProblem = AuditFinding(
        kind: kind, sequence: expected, segment: segment, offset: UInt64(offset), detail: detail)
    }
  }

  /// - Throws: ``FileJournalError/io(_:)`` when the directory or a segment cannot be read, and the key
  ///   errors (``FileJournalError/keyRequired(segment:)`` and the others) when `key` does not fit the log.
  func run() throws(FileJournalError) -> AuditReport {
    var walk = Walk(
      report: AuditReport(
        isKeyed: false, segmentCount: 0, frameCount: 0, lastSequence: 0, head: nil,
        bytesVerified: 0,
        anchor: anchor, firstProblem: nil, tornTail: nil))
    // A cut log is proved from its cut record on: the record's checksum here, its tag and chain value
    // with the first kept segment's header.
    let cut: CutRecovery
    do {
      cut = try CutRecovery(directory: directory, fileSystem: fileSystem, names: try scanner.segmentNames())
    } catch  where error.code == .corrupted || error.code == .tampered {
      walk.find(error.code == .tampered ? .modified : .corrupted, CutAnchor.fileName, 0, error.message)
      return walk.report
    }
    let names = cut.kept
    walk.cut = cut
    walk.expected = cut.firstSequence
    walk.report.cut = cut.anchor?.summary
    walk.report.segmentCount = names.count
    for entry in names { walk.total += try size(of: entry.name) }
    segments: for (index, entry) in names.enumerated() {
      var segment = try scanner.open(entry.name)
      defer { segment.close() }
      let base = walk.done
      let complete = try verifySegment(
        entry, &segment, isLast: index == names.count - 1, rest: names[(index + 1)...], base: base, &walk)
      guard complete else { break segments }
      walk.done = base + segment.size
      reportProgress(&walk, force: false)
    }
    if walk.report.firstProblem == nil, let anchor { checkAnchor(anchor, &walk) }
    walk.report.bytesVerified = walk.done
    reportProgress(&walk, force: true)
    return walk.report
  }

  private func size(of name: String) throws(FileJournalError) -> UInt64 {
    do {
      let file = try fileSystem.openForReading(directory + "/" + name)
      defer { file.close() }
      return try file.size()
    } catch {
      throw .io(error)
    }
  }

  private func reportProgress(_ walk: inout Walk, force: Bool) {
    guard let progress, force || walk.done >= walk.reported + Self.progressStep else { return }
    walk.reported = walk.done
    progress(
      AuditProgress(
        bytesDone: walk.done, bytesTotal: max(walk.total, walk.done), framesDone: walk.report.frameCount))
  }

  /// Verifies one segment; false when a finding or a torn tail ends the walk.
  private func verifySegment(
    _ entry: (name: String, first: UInt64), _ segment: inout SegmentReader, isLast: Bool,
    rest: ArraySlice<(name: String, first: UInt64)>, base: UInt64, _ walk: inout Walk
  ) throws(FileJournalError) -> Bool {
    let name = entry.name
    let header: SegmentHeader
    switch SegmentHeader.parse(try segment.headerBytes()) {
    case .success(let parsed): header = parsed
    case .failure(let problem):
      switch try TearRule.header(problem, of: &segment, name: name, isLast: isLast) {
      case .torn(let torn): walk.report.tornTail = torn
      case .damaged(let reason): walk.find(.corrupted, name, 0, reason)
      }
      return false
    }
    if walk.logID == nil {
      try LogScanner.checkKey(key, against: header, segment: name)
      walk.logID = header.logID
      walk.keyCheck = header.keyCheck
      walk.report.isKeyed = header.isKeyed
      do {
        walk.chain =
          try walk.cut?.startChain(logID: header.logID, key: key)
          ?? SegmentHeader.genesisChain(logID: header.logID)
      } catch
        where
        error.code == .tampered
      {
        walk.find(.modified, CutAnchor.fileName, 0, error.message)
        return false
      }
    }
    guard header.logID == walk.logID else {
      walk.find(.corrupted, name, 0, "segment belongs to another log")
      return false
    }
    guard header.keyCheck == walk.keyCheck else {
      walk.find(.modified, name, 0, "segment header's key check differs from the first segment's")
      return false
    }
    if header.firstSequence != walk.expected {
      // A later segment in its place: deleted only if the missing events are nowhere; a segment that
      // belongs further on while the expected one comes later is out of order.
      let kind: AuditFinding.Kind
      if header.firstSequence < walk.expected {
        kind = .inserted
      } else if rest.contains(where: { $0.first == walk.expected })
        || Self.isRenamed(walk.expected, in: rest, scanner)
      {
        kind = .reordered
      } else {
        kind = .deleted
      }
      walk.find(
        kind, name, 0,
        kind == .reordered
          ? "segment starts at event \(header.firstSequence), expected \(walk.expected); the segment holding event \(walk.expected) comes later (segments out of order)"
          : "segment starts at event \(header.firstSequence), expected \(walk.expected)")
      return false
    }
    guard entry.first == walk.expected else {
      walk.find(
        .corrupted, name, 0,
        "segment file is named for event \(entry.first), its header says \(walk.expected)")
      return false
    }
    guard header.previousChain == walk.chain else {
      if walk.report.frameCount == 0, let anchor = walk.cut?.anchor {
        walk.find(
          .modified, CutAnchor.fileName, 0,
          "the cut record's chain value after event \(anchor.throughSequence) differs from the one \(name) continues (forged or edited record, or a replaced segment)"
        )
        return false
      }
      walk.find(
        .modified, name, 0, "the chain value before this segment differs from the previous segment's end")
      return false
    }
    walk.lastSegment = name
    var offset = UInt64(header.size)
    walk.lastEnd = offset
    while offset < segment.size {
      let parse = try segment.parse(at: offset)
      switch parse {
      case .frame(let frame):
        guard try verifyFrame(frame, at: offset, in: &segment, rest: rest, &walk) else { return false }
        offset += UInt64(frame.totalSize)
        walk.lastEnd = offset
        walk.done = base + offset
        reportProgress(&walk, force: false)
      case .malformed(let why):
        walk.find(.modified, name, Int(offset), "the frame's checksum is valid but its body is not: \(why)")
        return false
      case .incomplete, .zeros, .badLength, .badChecksum:
        switch try TearRule.frame(parse, at: offset, of: &segment, name: name, isLast: isLast) {
        case .torn(let torn): walk.report.tornTail = torn
        case .damaged(let reason): walk.find(.corrupted, name, Int(offset), reason)
        }
        return false
      }
    }
    return true
  }

  /// Whether a later segment's header says it starts at `sequence` (a file renamed along with others).
  private static func isRenamed(
    _ sequence: UInt64, in rest: ArraySlice<(name: String, first: UInt64)>, _ scanner: LogScanner
  ) -> Bool {
    rest.contains { entry in
      guard let segment = try? scanner.open(entry.name) else { return false }
      defer { segment.close() }
      guard let bytes = try? segment.headerBytes(), case .success(let header) = SegmentHeader.parse(bytes)
      else {
        return false
      }
      return header.firstSequence == sequence
    }
  }

  /// Checks one checksum-valid frame against the chain; false after a finding.
  private func verifyFrame(
    _ frame: Frame.Parsed, at absolute: UInt64, in reader: inout SegmentReader,
    rest: ArraySlice<(name: String, first: UInt64)>, _ walk: inout Walk
  ) throws(FileJournalError) -> Bool {
    let expected = walk.expected
    let offset = Int(absolute)
    let segment = reader.name
    // The frame's ranges are relative to the reader's window, read before anything below moves it.
    let bytes = reader.window
    guard let chain = walk.chain else { return false }
    if frame.firstSequence < expected {
      walk.find(
        .inserted, segment, offset,
        "a frame holding events \(frame.firstSequence)...\(frame.firstSequence + UInt64(frame.count) - 1) where event \(expected) belongs"
      )
      return false
    }
    if frame.firstSequence > expected {
      let later = try laterFrames(after: absolute + UInt64(frame.totalSize), in: &reader, rest: rest)
      if later.contains(where: { $0.chain == frame.storedChain }) {
        walk.find(
          .inserted, segment, offset,
          "a copy of the frame of events \(frame.firstSequence)...\(frame.firstSequence + UInt64(frame.count) - 1) where event \(expected) belongs"
        )
      } else if later.contains(where: { $0.first == expected }) {
        walk.find(
          .reordered, segment, offset,
          "a frame starting at event \(frame.firstSequence) where event \(expected) belongs; event \(expected)'s frame comes later"
        )
      } else {
        walk.find(
          .deleted, segment, offset,
          "events \(expected)...\(frame.firstSequence - 1) are missing: the next frame starts at event \(frame.firstSequence)"
        )
      }
      return false
    }
    let computed = Frame.chainValue(previous: chain, hashed: bytes[frame.hashed], key: key)
    guard computed == frame.storedChain else {
      // A frame slipped in before the right one: the following frame still links to the chain before it.
      if case .frame(let next) = try reader.parse(at: absolute + UInt64(frame.totalSize), detectZeros: false),
        next.firstSequence == expected,
        Frame.chainValue(previous: chain, hashed: reader.window[next.hashed], key: key) == next.storedChain
      {
        walk.find(
          .inserted, segment, offset, "a frame whose chain value does not link; the frame after it does")
      } else {
        walk.find(
          .modified, segment, offset,
          walk.report.isKeyed
            ? "the frame's keyed chain value (HMAC-SHA-256) does not match its contents"
            : "the frame's chain value (SHA-256) does not match its contents")
      }
      return false
    }
    for (position, range) in frame.records.enumerated() {
      let sequence = frame.firstSequence + UInt64(position)
      do {
        let record = try EventRecord.parse(bytes, range, sequence: sequence)
        if record.codec == .binary { _ = try BinaryValue.decode(Array(record.payload)) }
        if record.typeNameIsCase, EventRecord.firstKey(in: record.bytes, record.payloadRange) == nil {
          throw BinaryCodecError.mismatch(
            expected: "a keyed payload naming the event type", found: "none", offset: 0)
        }
      } catch {
        walk.expected = sequence
        walk.find(.undecodable, segment, offset, "event \(sequence) does not decode: \(error)")
        return false
      }
    }
    let last = frame.firstSequence + UInt64(frame.count) - 1
    walk.chain = computed
    walk.expected = last + 1
    walk.report.frameCount += 1
    walk.report.lastSequence = last
    walk.report.head = LogAnchor(sequence: last, chain: computed)
    if let anchor, frame.firstSequence <= anchor.sequence, anchor.sequence <= last {
      walk.anchorFrame = (last, computed)
    }
    return true
  }

  private func checkAnchor(_ anchor: LogAnchor, _ walk: inout Walk) {
    // An anchor at or before a retention cut names events the log no longer holds: it is checked only
    // where the cut record states the chain value (at the cut itself).
    if let cut = walk.cut?.anchor, anchor.sequence <= cut.throughSequence {
      if anchor.sequence == cut.throughSequence, anchor.chain != cut.chain {
        walk.report.firstProblem = AuditFinding(
          kind: .modified, sequence: anchor.sequence, segment: CutAnchor.fileName, offset: 0,
          detail: "the chain value at event \(anchor.sequence) differs from the anchor")
      }
      return
    }
    guard let frame = walk.anchorFrame else {
      walk.find(
        .truncated, walk.lastSegment.isEmpty ? "(none)" : walk.lastSegment, Int(walk.lastEnd),
        "the log ends after event \(walk.report.lastSequence) but the anchor covers events through \(anchor.sequence)"
      )
      return
    }
    guard frame.last == anchor.sequence, frame.chain == anchor.chain else {
      let (segment, offset) = locate(anchor.sequence) ?? (walk.lastSegment, walk.lastEnd)
      walk.report.firstProblem = AuditFinding(
        kind: .modified, sequence: anchor.sequence, segment: segment, offset: offset,
        detail:
          "the chain value at event \(anchor.sequence) differs from the anchor: events up to it were changed "
          + "and the chain recomputed, or the anchor belongs to another log")
      return
    }
  }

  /// The segment and frame offset holding `sequence`, found by a second, structural pass (rarely needed).
  private func locate(_ sequence: UInt64) -> (String, UInt64)? {
    guard let names = try? scanner.segmentNames() else { return nil }
    for entry in names.reversed() where entry.first <= sequence {
      guard var segment = try? scanner.open(entry.name) else { return nil }
      defer { segment.close() }
      guard let bytes = try? segment.headerBytes(), case .success(let header) = SegmentHeader.parse(bytes)
      else {
        return nil
      }
      var offset = UInt64(header.size)
      while case .frame(let frame)? = try? segment.parse(at: offset) {
        if frame.firstSequence <= sequence, sequence < frame.firstSequence + UInt64(frame.count) {
          return (entry.name, offset)
        }
        offset += UInt64(frame.totalSize)
      }
      return nil
    }
    return nil
  }

  /// The first sequence numbers and stored chain values of the checksum-valid frames from `offset` on, in
  /// this segment and the later ones: enough to tell a reordering from a deletion or a duplicate.
  private func laterFrames(
    after offset: UInt64, in reader: inout SegmentReader, rest: ArraySlice<(name: String, first: UInt64)>
  ) throws(FileJournalError) -> [(first: UInt64, chain: SHA256.Digest)] {
    var found = try Self.frames(in: &reader, from: offset)
    for entry in rest {
      var later = try scanner.open(entry.name)
      defer { later.close() }
      guard case .success(let header) = SegmentHeader.parse(try later.headerBytes()) else { continue }
      found += try Self.frames(in: &later, from: UInt64(header.size))
    }
    return found
  }

  private static func frames(in reader: inout SegmentReader, from start: UInt64) throws(FileJournalError)
    -> [(first: UInt64, chain: SHA256.Digest)]
  {
    var found: [(first: UInt64, chain: SHA256.Digest)] = []
    var offset = start
    while case .frame(let frame) = try reader.parse(at: offset, detectZeros: false) {
      found.append((frame.firstSequence, frame.storedChain))
      offset += UInt64(frame.totalSize)
    }
    return found
  }
}
