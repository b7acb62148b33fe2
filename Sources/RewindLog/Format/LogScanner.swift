/// Where one frame lives and how it ends the chain.
struct FrameLocation: Sendable {
  var segment: Int
  var offset: UInt64
  var size: UInt32
  var firstSequence: UInt64
  var count: UInt32
  var chain: SHA256.Digest

  var lastSequence: UInt64 { firstSequence + UInt64(count) - 1 }
}

/// A segment file as found on disk.
struct SegmentInfo: Sendable {
  var name: String
  var firstSequence: UInt64
  /// The end of its last valid frame.
  var validEnd: UInt64
}

/// Damage at the end of the last segment that a crashed writer can leave: recovery cuts it off.
public struct TornTail: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The segment file.
  public var segment: String
  /// Where the damage begins.
  public var offset: UInt64
  /// How many bytes follow from there (cut off when recovering).
  public var discardedBytes: UInt64
  /// What was found.
  public var reason: String
  /// True when the whole segment file was incomplete (its header was never completely written).
  public var wholeSegment: Bool
  /// What was found there: an incomplete write, or a complete-length frame whose checksum failed.
  public var kind: Kind

  /// What a discarded tail holds. Recovery cuts off every kind alike (a torn write can leave a
  /// complete-length frame with bad bytes); verification reports which it was, because a crash rarely
  /// leaves a whole frame with a bad checksum and damage can (`rewind verify --strict` fails on it).
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A segment whose header was never completely written.
    case incompleteSegment
    /// Fewer bytes than a frame's header, or a frame whose length runs past the end of the file.
    case incompleteFrame
    /// Zero bytes to the end: preallocated or never-written space.
    case zeroFilled
    /// A frame length outside the allowed bounds.
    case badLength
    /// A frame of complete length whose checksum does not match its bytes.
    case checksumMismatch

    /// Whether it is what an interrupted write leaves: everything but a complete frame with a bad checksum.
    public var isIncompleteWrite: Bool { self != .checksumMismatch }
  }

  /// A torn tail.
  public init(
    segment: String, offset: UInt64, discardedBytes: UInt64, reason: String, wholeSegment: Bool,
    kind: Kind
  ) {
    self.segment = segment
    self.offset = offset
    self.discardedBytes = discardedBytes
    self.reason = reason
    self.wholeSegment = wholeSegment
    self.kind = kind
  }

  enum CodingKeys: String, CodingKey {
    case segment, offset, discardedBytes, reason, wholeSegment, kind
  }

  /// Decodes a torn tail; one recorded before `kind` existed reads as an incomplete frame (or segment).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    segment = try container.decode(String.self, forKey: .segment)
    offset = try container.decode(UInt64.self, forKey: .offset)
    discardedBytes = try container.decode(UInt64.self, forKey: .discardedBytes)
    reason = try container.decode(String.self, forKey: .reason)
    wholeSegment = try container.decode(Bool.self, forKey: .wholeSegment)
    kind =
      try container.decodeIfPresent(Kind.self, forKey: .kind)
      ?? (wholeSegment ? .incompleteSegment : .incompleteFrame)
  }

  public var description: String {
    wholeSegment
      ? "incomplete segment \(segment) (\(reason)) set aside"
      : "\(reason) in \(segment) at byte \(offset); \(discardedBytes) bytes cut off"
  }
}

/// The result of reading a log directory: its valid frames and any torn tail.
struct ScannedLog: Sendable {
  var logID: [UInt8]?
  var segments: [SegmentInfo] = []
  var frames: [FrameLocation] = []
  var lastSequence: UInt64 = 0
  var lastChain: SHA256.Digest?
  var tornTail: TornTail?
  /// Whether the segment headers say the chain is keyed.
  var isKeyed = false
  /// The chain value before `frames[0]`: where the first indexed frame continues the chain.
  var chainBeforeFrames: SHA256.Digest?
  /// Set when the scan started at a frame (``ScanStart``): the frames before it are not in `frames`.
  var unindexedBefore: ScanStart?
  /// The cut record of a log cut by retention.
  var cut: CutAnchor?
  /// Segments at or before the cut still on disk (a cut interrupted before it unlinked them).
  var cutLeftovers: [String] = []
}

/// A frame to start a scan at instead of the log's first byte: the frame a snapshot's event is in.
struct ScanStart: Sendable, Hashable {
  /// The first sequence number of the segment (which names its file).
  var segmentFirstSequence: UInt64
  var offset: UInt64
  /// The first event in the frame.
  var frameFirstSequence: UInt64
  /// The chain value before the frame.
  var previousChain: SHA256.Digest
}

/// Reads and checks a log directory by the recovery rules of Docs/Persistence.md, without changing it.
struct LogScanner {
  let fileSystem: any LogFileSystem
  let directory: String
  /// The chain key the log must be keyed with; `nil` for an unkeyed log.
  var key: ChainKey? = nil

  /// The segment files in the directory, in log order.
  func segmentNames() throws(FileJournalError) -> [SegmentEntry] {
    let names: [String]
    do { names = try fileSystem.contents(of: directory) } catch { throw .io(error) }
    return names.compactMap(SegmentEntry.init(fileName:)).sorted { $0.firstSequence < $1.firstSequence }
  }

  /// Opens segment `name` for reading through bounded buffers.
  func open(_ name: String) throws(FileJournalError) -> SegmentReader {
    try SegmentReader(fileSystem: fileSystem, directory: directory, name: name)
  }

  /// A verified frame handed to the `visit` callback of ``scan(chainCheck:visit:)``.
  struct Visit {
    /// The bytes of the segment read around the frame: the file from byte `base` on.
    var bytes: [UInt8]
    /// Where `bytes` starts in the segment; the frame's offsets and ranges are relative to `bytes`.
    var base: UInt64
    var frame: Frame.Parsed
    var segment: String
    var segmentIndex: Int

    /// The frame's offset in its segment.
    var offset: UInt64 { base + UInt64(frame.offset) }
  }

  /// Scans every segment, a window at a time. Throws for damage anywhere but an incomplete tail of the
  /// last segment.
  ///
  /// - Parameters:
  ///   - chainCheck: When given, the scan takes each frame's stored chain value on trust and hands the
  ///     frames to `chainCheck`, which checks them on another thread: the caller must call
  ///     ``ChainCheck/finish()`` before it relies on the log (and prefer its error to the scan's, since a
  ///     wrong chain value comes earlier in the log). Without it, every chain value is checked here.
  ///   - visit: Called with each frame right after it verified, in log order, so a reader can stream the
  ///     log; returning false stops the scan there (the result then covers what was read).
  ///   - start: A frame to start at, trusting the chain value the caller says it continues from; the
  ///     frames before it are not read (``ScannedLog/unindexedBefore``). The first frame's chain value is
  ///     checked here even with `chainCheck`, so a start that does not fit the log fails the scan at once.
  ///   - stop: Scan only the frames before this one (the prefix a scan from `stop` left out); the scan
  ///     must reach it, and no segment counts as the last.
  func scan(
    chainCheck: ChainCheck? = nil, from start: ScanStart? = nil, stoppingAt stop: ScanStart? = nil,
    visit: (Visit) -> Bool = { _ in true }
  ) throws(FileJournalError) -> ScannedLog {
    var log = ScannedLog()
    // A log cut by retention starts after its cut record; segments the record accounts for are skipped.
    let cut = try CutRecovery(directory: directory, fileSystem: fileSystem, names: try segmentNames())
    var names = cut.kept
    log.cut = cut.anchor
    log.cutLeftovers = cut.leftovers.map(\.name)
    if let stop { names.removeAll { $0.firstSequence > stop.segmentFirstSequence } }
    if let start {
      guard names.contains(where: { $0.firstSequence == start.segmentFirstSequence }) else {
        throw .corrupted(
          segment: SegmentHeader.fileName(firstSequence: start.segmentFirstSequence), offset: start.offset,
          lastGoodSequence: 0, reason: "no segment holds the frame to start from")
      }
      log.unindexedBefore = start
      log.chainBeforeFrames = start.previousChain
    }
    var expected = cut.firstSequence
    var chain: SHA256.Digest?
    var continuity: SegmentContinuity?
    var reachedStop = false
    segments: for (index, entry) in names.enumerated() {
      let isLast = stop == nil && index == names.count - 1
      if let start, entry.firstSequence < start.segmentFirstSequence {
        // Before the start: known by name only, read when something asks for its events.
        log.segments.append(SegmentInfo(name: entry.name, firstSequence: entry.firstSequence, validEnd: 0))
        continue
      }
      var segment = try open(entry.name)
      defer { segment.close() }
      // Frames whose chain values the check thread verifies, with the window they lie in; handed over
      // whenever the window moves, and also when the scan throws: a wrong chain value before the damage
      // is the error to report.
      var unchecked: [ChainCheck.Item] = []
      var uncheckedBytes: [UInt8] = []
      var uncheckedBase: UInt64 = 0
      defer { chainCheck?.submit(segment: entry.name, bytes: uncheckedBytes, frames: unchecked) }
      let header: SegmentHeader
      switch SegmentHeader.parse(try segment.headerBytes()) {
      case .success(let parsed): header = parsed
      case .failure(let problem):
        switch try TearRule.header(problem, of: &segment, name: entry.name, isLast: isLast) {
        case .torn(let torn): log.tornTail = torn
        case .damaged(let reason):
          throw .corrupted(segment: entry.name, offset: 0, lastGoodSequence: expected - 1, reason: reason)
        }
        continue
      }
      if continuity == nil {
        let started = try SegmentContinuity.start(header, segment: entry.name, key: key, cut: cut)
        (continuity, chain) = (started.continuity, started.chain)
        log.logID = header.logID
        log.isKeyed = header.isKeyed
        if start == nil { log.chainBeforeFrames = chain }
      }
      var offset = UInt64(header.size)
      let startsHere = start.map { entry.firstSequence == $0.segmentFirstSequence } ?? false
      if let start, startsHere {
        guard header.firstSequence == entry.firstSequence, start.offset >= offset,
          start.frameFirstSequence >= header.firstSequence
        else {
          throw .corrupted(
            segment: entry.name, offset: start.offset, lastGoodSequence: 0,
            reason: "the frame to start from is not in this segment")
        }
        (expected, chain, offset) = (start.frameFirstSequence, start.previousChain, start.offset)
      }
      // A scan that starts inside the segment takes its position from the start; the header's own chain
      // value is checked by a whole scan.
      if let problem = continuity?.problem(
        with: header, of: entry, at: startsHere ? nil : (expected, chain),
        cutThrough: index == 0 ? cut.anchor?.throughSequence : nil)
      {
        throw problem.error(segment: entry.name, lastGoodSequence: expected - 1)
      }
      scanning: while offset < segment.size {
        if let stop, entry.firstSequence == stop.segmentFirstSequence, offset == stop.offset {
          reachedStop = true
          log.segments.append(
            SegmentInfo(name: entry.name, firstSequence: header.firstSequence, validEnd: offset))
          break segments
        }
        let parse = try segment.parse(at: offset)
        if startsHere, offset == start?.offset {
          // Nothing at the start but a whole frame will do: a torn tail found there would cut the log at
          // an offset the caller only believed in.
          guard case .frame = parse else {
            throw .corrupted(
              segment: entry.name, offset: offset, lastGoodSequence: 0,
              reason: "no frame at the offset to start from (\(parse.reason))")
          }
        }
        switch parse {
        case .frame(let frame):
          let previous = chain ?? frame.storedChain
          let computed: SHA256.Digest
          if let chainCheck, !(startsHere && offset == start?.offset) {
            if segment.base != uncheckedBase || segment.window.count != uncheckedBytes.count {
              chainCheck.submit(segment: entry.name, bytes: uncheckedBytes, frames: unchecked)
              (unchecked, uncheckedBytes, uncheckedBase) = ([], segment.window, segment.base)
            }
            unchecked.append(
              ChainCheck.Item(
                hashed: frame.hashed, previous: previous, stored: frame.storedChain, offset: Int(offset),
                lastGoodSequence: expected - 1))
            computed = frame.storedChain
          } else {
            computed = Frame.chainValue(previous: previous, hashed: segment.window[frame.hashed], key: key)
          }
          guard computed == frame.storedChain else {
            throw .tampered(segment: entry.name, offset: offset, lastGoodSequence: expected - 1)
          }
          guard frame.firstSequence == expected else {
            throw .corrupted(
              segment: entry.name, offset: offset, lastGoodSequence: expected - 1,
              reason: "frame starts at event \(frame.firstSequence), expected \(expected)")
          }
          log.frames.append(
            FrameLocation(
              segment: log.segments.count, offset: offset, size: UInt32(frame.totalSize),
              firstSequence: frame.firstSequence, count: frame.count, chain: computed))
          chain = computed
          expected += UInt64(frame.count)
          offset += UInt64(frame.totalSize)
          let visited = Visit(
            bytes: segment.window, base: segment.base, frame: frame, segment: entry.name, segmentIndex: index)
          if !visit(visited) {
            log.segments.append(
              SegmentInfo(name: entry.name, firstSequence: header.firstSequence, validEnd: offset))
            break segments
          }
        case .malformed:
          throw .corrupted(
            segment: entry.name, offset: offset, lastGoodSequence: expected - 1, reason: parse.reason)
        case .incomplete, .zeros, .badLength, .badChecksum:
          switch try TearRule.frame(parse, at: offset, of: &segment, name: entry.name, isLast: isLast) {
          case .torn(let torn): log.tornTail = torn
          case .damaged(let reason):
            throw .corrupted(
              segment: entry.name, offset: offset, lastGoodSequence: expected - 1, reason: reason)
          }
          break scanning
        }
      }
      log.segments.append(
        SegmentInfo(name: entry.name, firstSequence: header.firstSequence, validEnd: offset))
    }
    if let stop {
      // The prefix ends exactly where the scan from `stop` began, with the chain value it trusted.
      guard reachedStop, expected == stop.frameFirstSequence, chain == stop.previousChain else {
        throw .tampered(
          segment: SegmentHeader.fileName(firstSequence: stop.segmentFirstSequence), offset: stop.offset,
          lastGoodSequence: expected - 1)
      }
    }
    log.lastSequence = expected - 1
    log.lastChain = chain ?? cut.anchor?.chain
    if log.logID == nil { log.logID = cut.anchor?.logID }
    return log
  }

  /// Scans every segment like ``scan(chainCheck:from:stoppingAt:visit:)``, handing each verified frame to
  /// `body`, which may throw: its error ends the scan and is thrown; otherwise damage is thrown after the
  /// frames before it were handed over. Returning false stops the scan.
  func forEachFrame(_ body: (Visit) throws -> Bool) throws {
    var failure: (any Error)?
    let scan = Result { () throws(FileJournalError) in
      try self.scan { visit in
        do { return try body(visit) } catch {
          failure = error
          return false
        }
      }
    }
    if let failure { throw failure }
    if case .failure(let damage) = scan { throw damage }
  }
}
