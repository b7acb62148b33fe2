import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// Why a log could not be read for shipping.
package enum LogTailError: Error, Sendable, Hashable {
  /// A file could not be read.
  case io(String)
  /// The directory holds no segment.
  case noLog(directory: String)
  /// Damage that is not the torn tail of the newest segment (the same rule as recovery).
  case damaged(segment: String, offset: UInt64, reason: String)
  /// A frame whose chain value does not match its contents (or the one before it).
  case tampered(segment: String, offset: UInt64, firstSequence: UInt64)
  /// The events asked for were removed by retention; the log now starts at `firstAvailable`.
  case eventsCut(requested: UInt64, firstAvailable: UInt64)
  /// A key was given for a log that is not keyed.
  case notKeyed(segment: String)
  /// The key does not fit the log.
  case wrongKey(segment: String)
  /// A frame whose bytes are not laid out the way a shipped frame is rebuilt (flags set, a longer varint):
  /// shipping it would give a verifier a frame whose chain it cannot recompute.
  case unshippable(segment: String, offset: UInt64, reason: String)
}

/// Reads a log's frames in order from any event on, while a journal (in this or another process) may be
/// appending to it: each call to ``next()`` returns the next complete, verified frame, or `nil` when the
/// log holds no more yet. A frame the writer is still writing (or a torn one a crash left, which the next
/// open of the journal cuts off) is never returned.
///
/// Each frame returned has passed its checksum, follows the one before it, and (unless the log is keyed
/// and no key was given) its chain value has been recomputed. Memory: one segment window at a time.
package final class LogTail {
  /// The log directory.
  package let directory: String
  private let key: ChainKey?
  private let fileSystem: any LogFileSystem = ReadOnlyFileSystem()

  /// The log's id (16 bytes), known once ``open()`` has read a segment header.
  package private(set) var logID: [UInt8] = []
  /// Whether the log's chain is keyed (HMAC-SHA-256).
  package private(set) var isKeyed = false
  /// Whether chain values are recomputed: always, except for a keyed log read without its key (then
  /// only the links between stored values are checked).
  package var recomputesChain: Bool { !isKeyed || key != nil }

  /// The next event to read.
  package private(set) var nextSequence: UInt64 = 1
  /// The chain value before ``nextSequence``'s frame.
  private var chain = SHA256.Digest(bytes: [UInt8](repeating: 0, count: 32))
  /// What every segment header after the first must repeat (the one classifier recovery and verification
  /// use); set by ``open()``.
  private var continuity: SegmentContinuity?
  private var segment: SegmentEntry?
  private var offset: UInt64 = 0
  /// The segment being read, kept open between calls; its size is read again only when its end is reached.
  private var reader: SegmentReader?

  /// A reader of the log in `directory`; `key` for a keyed log (without it, its chain values are not
  /// recomputed).
  package init(directory: String, key: ChainKey?) {
    self.directory = directory
    self.key = key
  }

  deinit { reader?.close() }

  /// The segment files, oldest first.
  private func segmentNames() throws(LogTailError) -> [SegmentEntry] {
    let names: [String]
    do { names = try fileSystem.contents(of: directory) } catch { throw .io("\(error)") }
    return names.compactMap(SegmentEntry.init(fileName:)).sorted { $0.firstSequence < $1.firstSequence }
  }

  /// Reads the oldest segment's header (log id, key) and positions the tail at the oldest event on disk.
  /// Returns that event's sequence number.
  @discardableResult
  package func open() throws(LogTailError) -> UInt64 {
    guard let first = try segmentNames().first else { throw .noLog(directory: directory) }
    let header = try readHeader(first)
    logID = header.logID
    isKeyed = header.isKeyed
    continuity = SegmentContinuity(logID: header.logID, keyCheck: header.keyCheck)
    if let key {
      guard let check = header.keyCheck else { throw .notKeyed(segment: first.name) }
      guard key.checkValue(logID: header.logID) == check else { throw .wrongKey(segment: first.name) }
    }
    try enter(first, header: header)
    chainBeforeFirstEvent = header.previousChain
    return header.firstSequence
  }

  /// The chain value before the oldest event on disk (the genesis value, or a retention cut's).
  package private(set) var chainBeforeFirstEvent = SHA256.Digest(bytes: [UInt8](repeating: 0, count: 32))

  private func enter(_ entry: SegmentEntry, header: SegmentHeader)
    throws(LogTailError)
  {
    segment = entry
    offset = UInt64(header.size)
    nextSequence = header.firstSequence
    chain = header.previousChain
  }

  private func readHeader(_ entry: SegmentEntry) throws(LogTailError) -> SegmentHeader {
    let reader: SegmentReader
    do { reader = try SegmentReader(fileSystem: fileSystem, directory: directory, name: entry.name) } catch {
      throw .io("\(error)")
    }
    defer { reader.close() }
    let bytes: [UInt8]
    do { bytes = try reader.headerBytes() } catch { throw .io("\(error)") }
    switch SegmentHeader.parse(bytes) {
    case .success(let header):
      guard header.firstSequence == entry.firstSequence else {
        let problem = SegmentContinuity.Problem.misnamed(
          named: entry.firstSequence, header: header.firstSequence)
        throw .damaged(segment: entry.name, offset: 0, reason: problem.description)
      }
      return header
    case .failure(let problem): throw .damaged(segment: entry.name, offset: 0, reason: problem.reason)
    }
  }

  /// Positions the tail so that ``next()`` returns the frame holding event `sequence`, walking the
  /// stored chain values of the frames before it in its segment (they are not recomputed: the frame
  /// returned is, and its previous value is what the caller compares with what it shipped).
  /// - Throws: ``LogTailError/eventsCut(requested:firstAvailable:)`` when retention removed it.
  package func seek(toFrameContaining sequence: UInt64) throws(LogTailError) {
    let names = try segmentNames()
    guard let oldest = names.first else { throw .noLog(directory: directory) }
    guard sequence >= oldest.firstSequence else {
      throw .eventsCut(requested: sequence, firstAvailable: oldest.firstSequence)
    }
    guard let entry = names.last(where: { $0.firstSequence <= sequence }) else {
      throw .eventsCut(requested: sequence, firstAvailable: oldest.firstSequence)
    }
    let header = try readHeader(entry)
    try check(header, of: entry, continuing: nil)
    try enter(entry, header: header)
    var reader = try openReader(entry.name)
    defer { reader.close() }
    while offset < reader.size {
      guard case .frame(let frame) = try parse(&reader, at: offset) else { return }
      let last = frame.firstSequence + UInt64(frame.count) - 1
      guard frame.firstSequence == nextSequence, last < sequence else { return }
      chain = frame.storedChain
      nextSequence = last + 1
      offset += UInt64(frame.totalSize)
    }
  }

  /// Checks that `header` belongs to the log ``open()`` read and, with a `position`, that it starts there
  /// (sequence number and chain value), with the classifier recovery and verification use.
  private func check(
    _ header: SegmentHeader, of entry: SegmentEntry,
    continuing position: (sequence: UInt64, chain: SHA256.Digest?)?
  ) throws(LogTailError) {
    guard let problem = continuity?.problem(with: header, of: entry, at: position) else { return }
    switch problem {
    case .otherLog, .startsAt, .misnamed:
      throw .damaged(segment: entry.name, offset: 0, reason: problem.description)
    case .keyCheckDiffers, .chainBreak:
      throw .tampered(segment: entry.name, offset: 0, firstSequence: header.firstSequence)
    }
  }

  private func openReader(_ name: String) throws(LogTailError) -> SegmentReader {
    do { return try SegmentReader(fileSystem: fileSystem, directory: directory, name: name) } catch {
      throw .io("\(error)")
    }
  }

  private func parse(_ reader: inout SegmentReader, at offset: UInt64) throws(LogTailError) -> Frame.Parse {
    do { return try reader.parse(at: offset) } catch { throw .io("\(error)") }
  }

  /// The next complete, verified frame, or `nil` when the log holds no more yet.
  /// - Throws: ``LogTailError``: damage, a wrong chain value, a frame that cannot be shipped verifiably, or
  ///   an I/O error.
  package func next() throws(LogTailError) -> ShippedFrame? {
    // A place that looks damaged is read again a few times: a frame being written can be seen half done.
    var attempt = 0
    while true {
      guard let current = segment else { throw .noLog(directory: directory) }
      switch try step(current) {
      case .frame(let frame): return frame
      case .wait: return nil
      case .moved: attempt = 0
      case .damaged(let error):
        attempt += 1
        guard attempt < 4 else { throw error }
        Thread.sleep(forTimeInterval: 0.01)
      }
    }
  }

  private enum Step {
    case frame(ShippedFrame)
    case wait
    case moved
    case damaged(LogTailError)
  }

  private func step(_ current: SegmentEntry) throws(LogTailError) -> Step {
    var segmentReader: SegmentReader
    if let reader, reader.name == current.name {
      segmentReader = reader
    } else {
      reader?.close()
      segmentReader = try openReader(current.name)
    }
    defer { reader = segmentReader }
    var refreshed = false
    if offset >= segmentReader.size {
      // Whether a newer segment exists is read before the size: once it exists, this one is complete.
      let names = try segmentNames()
      let newer = names.first { $0.firstSequence > current.firstSequence }
      segmentReader.close()
      segmentReader = try openReader(current.name)
      refreshed = true
      if offset >= segmentReader.size {
        guard let newer else { return .wait }
        return try move(to: newer, names: names)
      }
    }
    var parse = try parse(&segmentReader, at: offset)
    if case .frame = parse {
    } else if !refreshed {
      // A frame written after the size was read looks incomplete: read the size again once.
      segmentReader.close()
      segmentReader = try openReader(current.name)
      parse = try self.parse(&segmentReader, at: offset)
    }
    switch parse {
    case .frame(let frame):
      return try accept(frame, window: segmentReader.window, segment: current.name)
    case .malformed(let why):
      return .damaged(.damaged(segment: current.name, offset: offset, reason: why))
    case .incomplete, .zeros, .badLength, .badChecksum:
      if try segmentNames().contains(where: { $0.firstSequence > current.firstSequence }) {
        return .damaged(
          .damaged(
            segment: current.name, offset: offset,
            reason: "\(parse.reason) in a segment that is not the newest"))
      }
      if case .zeros = parse { return .wait }
      let later: UInt64?
      do { later = try segmentReader.firstFrame(after: offset) } catch { throw .io("\(error)") }
      if let later {
        return .damaged(
          .damaged(
            segment: current.name, offset: offset,
            reason: "\(parse.reason), followed by a valid frame at byte \(later)"
          ))
      }
      return .wait
    }
  }

  /// Whether two byte runs are equal (`memcmp`; the generic comparison cost a fifth of reading a frame).
  private static func same(_ left: [UInt8], _ right: ArraySlice<UInt8>) -> Bool {
    guard left.count == right.count else { return false }
    return left.withUnsafeBytes { a in
      right.withUnsafeBytes { b in
        guard let first = a.baseAddress, let second = b.baseAddress else { return a.count == b.count }
        return memcmp(first, second, a.count) == 0
      }
    }
  }

  /// Moves on to the next segment once the current one is complete.
  private func move(to newer: SegmentEntry, names: [SegmentEntry]) throws(LogTailError) -> Step {
    guard newer.firstSequence == nextSequence else {
      let problem = SegmentContinuity.Problem.startsAt(found: newer.firstSequence, expected: nextSequence)
      return .damaged(.damaged(segment: newer.name, offset: 0, reason: problem.description))
    }
    let header: SegmentHeader
    do { header = try readHeader(newer) } catch {
      // A header being written by a rollover: wait for it, unless a later segment proves it damaged.
      if names.last?.firstSequence ?? 0 > newer.firstSequence { return .damaged(error) }
      return .wait
    }
    try check(header, of: newer, continuing: (nextSequence, chain))
    try enter(newer, header: header)
    return .moved
  }

  private func accept(_ frame: Frame.Parsed, window: [UInt8], segment name: String)
    throws(LogTailError)
    -> Step
  {
    guard frame.firstSequence == nextSequence else {
      return .damaged(
        .damaged(
          segment: name, offset: offset,
          reason: "a frame starting at event \(frame.firstSequence) where event \(nextSequence) belongs"))
    }
    let records = frame.records.map { Array(window[$0]) }
    let rebuilt = ShippedFrame.hashedBytes(
      firstSequence: frame.firstSequence, commitTime: frame.commitTime, records: records)
    guard Self.same(rebuilt, window[frame.hashed]) else {
      throw .unshippable(
        segment: name, offset: offset, reason: "its flags or length fields are not in the canonical form")
    }
    if recomputesChain {
      let computed = Frame.chainValue(previous: chain, hashed: rebuilt[...], key: key)
      guard computed == frame.storedChain else {
        throw .tampered(segment: name, offset: offset, firstSequence: frame.firstSequence)
      }
    }
    // Each record's envelope must parse (its payload is decoded by the verifier, not on the shipping path).
    for (position, record) in records.enumerated()
    where (try? ShippedFrame.summary(ofRecord: record, sequence: frame.firstSequence + UInt64(position)))
      == nil
    {
      throw .damaged(
        segment: name, offset: offset,
        reason: "event \(frame.firstSequence + UInt64(position)) does not parse (checksum and chain hold)")
    }
    let shipped = ShippedFrame(
      firstSequence: frame.firstSequence, commitTime: frame.commitTime, records: records,
      previousChain: chain,
      chain: frame.storedChain)
    chain = frame.storedChain
    nextSequence = shipped.lastSequence + 1
    offset += UInt64(frame.totalSize)
    return .frame(shipped)
  }
}
