import Foundation

/// Appends frames to the newest segment and rolls to a new segment by size. Used by one thread at a time
/// (the committer), so it needs no lock of its own.
final class LogWriter {
  let fileSystem: any LogFileSystem
  let directory: String
  let segmentSize: Int
  let logID: [UInt8]
  /// The chain key of a keyed log.
  let key: ChainKey?
  private(set) var file: (any LogFile)?
  private(set) var segmentName: String
  private(set) var segmentIndex: Int
  private(set) var offset: UInt64
  private(set) var chain: SHA256.Digest
  private(set) var nextSequence: UInt64
  /// Whether bytes were written since the last sync.
  private(set) var dirty = false

  /// Continues the scanned log, creating its first segment when there is none.
  init(
    fileSystem: any LogFileSystem, directory: String, segmentSize: Int, scanned: ScannedLog,
    key: ChainKey? = nil
  ) throws(IOError) {
    self.fileSystem = fileSystem
    self.key = key
    self.directory = directory
    self.segmentSize = segmentSize
    let logID = scanned.logID ?? Self.newLogID()
    self.logID = logID
    chain = scanned.lastChain ?? SegmentHeader.genesisChain(logID: logID)
    nextSequence = scanned.lastSequence + 1
    segmentIndex = max(scanned.segments.count - 1, 0)
    if let last = scanned.segments.last {
      segmentName = last.name
      offset = last.validEnd
      let opened = try fileSystem.open(directory + "/" + last.name, create: false)
      file = opened
      // What recovery keeps is reported durable, so it must be synced: a previous writer may have died (or
      // failed a sync) with frames only in the page cache. Only the newest segment can hold unsynced
      // frames: rolling syncs the old segment before the new one gets any.
      do { try opened.sync() } catch {
        opened.close()
        throw error
      }
    } else {
      segmentName = ""
      offset = 0
      segmentIndex = -1
      try startSegment()
    }
  }

  private static func newLogID() -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    return (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
  }

  /// Creates the next segment: header written and synced, directory entry synced, before any frame.
  private func startSegment() throws(IOError) {
    if let file, dirty {
      try file.sync()
      dirty = false
    }
    file?.close()
    file = nil
    let name = SegmentHeader.fileName(firstSequence: nextSequence)
    let path = directory + "/" + name
    let created = try fileSystem.open(path, create: true)
    file = created
    try created.truncate(to: 0)
    let header = SegmentHeader(
      logID: logID, firstSequence: nextSequence, previousChain: chain, keyCheck: key?.checkValue(logID: logID)
    ).encoded
    try created.write(header, at: 0)
    try created.sync()
    try fileSystem.syncDirectory(directory)
    segmentName = name
    segmentIndex += 1
    offset = UInt64(header.count)
  }

  /// Writes one frame (not synced) and returns where it went.
  func write(records: [UInt8], count: UInt32, firstSequence: UInt64) throws(IOError) -> FrameLocation {
    precondition(firstSequence == nextSequence, "frames are written in sequence order")
    let frame = Frame.build(
      records: records, count: count, firstSequence: firstSequence,
      commitTime: Int64(Date().timeIntervalSince1970 * 1e9), previousChain: chain, key: key)
    let headerSize = key == nil ? SegmentHeader.unkeyedSize : SegmentHeader.keyedSize
    if offset > UInt64(headerSize), offset + UInt64(frame.bytes.count) > UInt64(segmentSize) {
      try startSegment()
    }
    guard let file else { throw IOError(operation: "write", path: segmentName, code: 9) }
    try file.write(frame.bytes, at: offset)
    dirty = true
    let location = FrameLocation(
      segment: segmentIndex, offset: offset, size: UInt32(frame.bytes.count), firstSequence: firstSequence,
      count: count, chain: frame.chain)
    offset += UInt64(frame.bytes.count)
    chain = frame.chain
    nextSequence += UInt64(count)
    return location
  }

  /// Makes every written frame durable.
  func sync() throws(IOError) {
    guard dirty, let file else { return }
    try file.sync()
    dirty = false
  }

  func close() {
    file?.close()
    file = nil
  }
}
