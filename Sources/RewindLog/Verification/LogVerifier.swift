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
    /// Where the log starts: event 1, or the event after a retention cut.
    var firstSequence: UInt64 = 1
    /// The walk along the chain, from the first segment header on.
    var chain: ChainVerifier?
    /// What every segment header must repeat, from the first one.
    var continuity: SegmentContinuity?
    var done: UInt64 = 0
    var total: UInt64 = 0
    var reported: UInt64 = 0
    /// The verified frame that holds the anchor's sequence number: its last sequence and chain value.
    var anchorFrame: (last: UInt64, chain: SHA256.Digest)?
    var lastSegment = ""
    var lastEnd: UInt64 = 0
    var cut: CutRecovery?

    /// The sequence number the next frame must start at.
    var expected: UInt64 { chain?.nextSequence ?? firstSequence }

    /// Records the first problem, at `sequence` (by default the next expected event).
    mutating func find(
      _ kind: AuditFinding.Kind, _ segment: String, _ offset: Int, _ detail: String, sequence: UInt64? = nil
    ) {
      report.firstProblem = AuditFinding(
        kind: kind, sequence: sequence ?? expected, segment: segment, offset: UInt64(offset), detail: detail)
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
    walk.firstSequence = cut.firstSequence
    walk.report.cut = cut.anchor?.summary
    walk.report.segmentCount = names.count
    for entry in names { walk.total += try size(of: entry.name) }
    segments: for (index, entry) in names.enumerated() {
      var segment = try scanner.open(entry.name)
      defer { segment.close() }
      let base = walk.done
      let complete = try verifySegment(
        entry, &segment, isFirst: index == 0, isLast: index == names.count - 1, rest: names[(index + 1)...],
        base: base, &walk)
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
    _ entry: SegmentEntry, _ segment: inout SegmentReader, isFirst: Bool, isLast: Bool,
    rest: ArraySlice<SegmentEntry>, base: UInt64, _ walk: inout Walk
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
    if walk.continuity == nil, let cut = walk.cut {
      walk.report.isKeyed = header.isKeyed
      do {
        let started = try SegmentContinuity.start(header, segment: name, key: key, cut: cut)
        walk.continuity = started.continuity
        walk.chain = ChainVerifier(chain: started.chain, nextSequence: walk.firstSequence, key: key)
      } catch  where error.code == .tampered {
        walk.find(.modified, CutAnchor.fileName, 0, error.message)
        return false
      }
    }
    if let problem = walk.continuity?.problem(
      with: header, of: entry, at: (walk.expected, walk.chain?.chain),
      cutThrough: isFirst ? walk.cut?.anchor?.throughSequence : nil)
    {
      let (kind, segment, detail) = finding(for: problem, in: name, rest: rest)
      walk.find(kind, segment, 0, detail)
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

  /// The finding for a header problem of segment `name`: what it means for the log, where, and why.
  private func finding(
    for problem: SegmentContinuity.Problem, in name: String, rest: ArraySlice<SegmentEntry>
  )
    -> (AuditFinding.Kind, segment: String, detail: String)
  {
    switch problem {
    case .otherLog, .misnamed: return (.corrupted, name, problem.description)
    case .keyCheckDiffers, .chainBreak(nil, _): return (.modified, name, problem.description)
    case .chainBreak(let through?, _):
      // The first segment after a cut: the record does not fit the log.
      let error = FileJournalError.tamperedCut(reason: problem.description, lastGoodSequence: through)
      return (.modified, CutAnchor.fileName, error.message)
    case .startsAt(let found, let expected):
      // A later segment in its place: deleted only if the missing events are nowhere; a segment that
      // belongs further on while the expected one comes later is out of order.
      if found < expected { return (.inserted, name, problem.description) }
      if rest.contains(where: { $0.firstSequence == expected }) || Self.isRenamed(expected, in: rest, scanner)
      {
        return (
          .reordered, name,
          problem.description + "; the segment holding event \(expected) comes later (segments out of order)"
        )
      }
      return (.deleted, name, problem.description)
    }
  }

  /// Whether a later segment's header says it starts at `sequence` (a file renamed along with others).
  private static func isRenamed(
    _ sequence: UInt64, in rest: ArraySlice<SegmentEntry>, _ scanner: LogScanner
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
    rest: ArraySlice<SegmentEntry>, _ walk: inout Walk
  ) throws(FileJournalError) -> Bool {
    guard var chain = walk.chain else { return false }
    // The frame's ranges are relative to the reader's window, read before anything below moves it.
    if let problem = chain.verify(frame, in: reader.window) {
      let (kind, detail) = try refine(problem, of: frame, at: absolute, in: &reader, rest: rest, chain: chain)
      var sequence: UInt64?
      if case .undecodable(let record) = problem { sequence = record.sequence }
      walk.find(kind, reader.name, Int(absolute), detail, sequence: sequence)
      return false
    }
    walk.chain = chain
    guard let head = chain.head else { return false }
    walk.report.frameCount += 1
    walk.report.lastSequence = head.sequence
    walk.report.head = head
    if let anchor, frame.firstSequence <= anchor.sequence, anchor.sequence <= head.sequence {
      walk.anchorFrame = (head.sequence, head.chain)
    }
    return true
  }

  /// What a frame's problem means for the log, told apart by the frames after it: a copy of a later frame
  /// or a frame slipped in before the right one is an insertion, and a frame whose missing events come
  /// later is a reordering.
  private func refine(
    _ problem: FrameProblem, of frame: Frame.Parsed, at absolute: UInt64, in reader: inout SegmentReader,
    rest: ArraySlice<SegmentEntry>, chain: ChainVerifier
  ) throws(FileJournalError) -> (AuditFinding.Kind, detail: String) {
    let next = absolute + UInt64(frame.totalSize)
    switch problem {
    case .startsAfter(let first, let expected):
      let later = try laterFrames(after: next, in: &reader, rest: rest)
      if later.contains(where: { $0.chain == frame.storedChain }) {
        let last = first + UInt64(frame.count) - 1
        return (.inserted, "a copy of the frame of events \(first)...\(last) where event \(expected) belongs")
      }
      if later.contains(where: { $0.first == expected }) {
        return (
          .reordered,
          "a frame starting at event \(first) where event \(expected) belongs; event \(expected)'s frame comes later"
        )
      }
    case .chainMismatch:
      if case .frame(let following) = try reader.parse(at: next, detectZeros: false),
        following.firstSequence == chain.nextSequence, chain.links(following, in: reader.window)
      {
        return (.inserted, "a frame whose chain value does not link; the frame after it does")
      }
    case .startsBefore, .undecodable, .malformed: break
    }
    return (problem.kind, problem.description)
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
    for entry in names.reversed() where entry.firstSequence <= sequence {
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
    after offset: UInt64, in reader: inout SegmentReader, rest: ArraySlice<SegmentEntry>
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
