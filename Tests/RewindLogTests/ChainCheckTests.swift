import Foundation
import Rewind
import RewindTestSupport
import RewindTesting
import Testing

@testable import RewindLog

/// The hash chain is checked on another thread while the store replays: a tampered log is refused just as
/// when the check ran first, with the same error, and nothing is cut off it.
@Suite struct ChainCheckTests {
  /// A log of `count` events of `Edit` (a `BinaryCodable` action, so replay takes the inlined decoding) in
  /// frames of three and segments of about 1 KiB.
  func makeLog(in directory: String, count: UInt64 = 60) throws -> [Event<Edit>] {
    var random = SplitMix64(seed: 7)
    let events = (1...count).map { sequence in
      Event(
        sequence: sequence, timestamp: Date(timeIntervalSinceReferenceDate: Double(sequence)),
        metadata: EventMetadata(actor: nil, source: .user, correlationID: CorrelationID(rawValue: sequence)),
        action: Edit.random(using: &random))
    }
    let journal = try FileJournal<Edit>(
      directory: directory, options: FileJournalOptions(durability: .grouped(), segmentSize: 1024))
    for chunk in stride(from: 0, to: events.count, by: 3) {
      for event in events[chunk..<min(chunk + 3, events.count)] { try journal.append(event) }
      try journal.flush()
    }
    try journal.close()
    return events
  }

  func segmentNames(_ directory: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("segment-") }
      .sorted()
  }

  func frames(_ bytes: [UInt8]) throws -> [Frame.Parsed] {
    var offset = try SegmentHeader.parse(bytes).get().size
    var found: [Frame.Parsed] = []
    while case .frame(let frame) = Frame.parse(bytes, at: offset) {
      found.append(frame)
      offset += frame.totalSize
    }
    return found
  }

  /// Applies `change` to the bytes of frame `frameIndex` in segment `segmentIndex` and recomputes its
  /// checksum, as a forger without the chain would. Returns the segment, the frame's offset and its first
  /// sequence number.
  func tamper(
    _ directory: String, segment segmentIndex: Int, frame frameIndex: Int,
    _ change: (inout [UInt8], Frame.Parsed) -> Void
  ) throws -> (segment: String, offset: UInt64, first: UInt64) {
    let name = try segmentNames(directory)[segmentIndex]
    let path = directory + "/" + name
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let frame = try frames(bytes)[frameIndex]
    change(&bytes, frame)
    let crc = CRC32C.mask(CRC32C.checksum(bytes[(frame.offset + 4)..<(frame.offset + frame.totalSize)]))
    withUnsafeBytes(of: crc.littleEndian) {
      bytes.replaceSubrange(frame.offset..<(frame.offset + 4), with: $0)
    }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return (name, UInt64(frame.offset), frame.firstSequence)
  }

  /// Opens a store of `Edit`s counting the actions its reducer sees.
  func open(_ directory: String, seen: SeenCount, checkFirst: Bool = false) throws -> Store<Int, Edit> {
    try Store.open(
      directory: directory, initialState: 0, reducer: CountingEdits(seen: seen),
      options: FileJournalOptions(segmentSize: 1024, checksChainBeforeReplay: checkFirst),
      diagnostics: { _ in })
  }

  @Test func anIntactLogReplaysEveryEventThroughTheInlinedDecoding() throws {
    let directory = TemporaryDirectory()
    let events = try makeLog(in: directory.path)
    #expect(try segmentNames(directory.path).count >= 3)
    let seen = SeenCount()
    let store = try open(directory.path, seen: seen)
    #expect(store.sequence == UInt64(events.count))
    #expect(seen.value == events.count)
    // The same events as the general decoding reads them.
    let journal = try #require(store.journal as? FileJournal<Edit>)
    var replayed: [Event<Edit>] = []
    try journal.forEachEvent(from: 1) { replayed.append($0) }
    #expect(replayed == events)
    #expect(try journal.events(in: 1...UInt64(events.count)) == events)
  }

  @Test func aTamperedFrameInALaterSegmentIsRefusedNamingIt() throws {
    let directory = TemporaryDirectory()
    _ = try makeLog(in: directory.path)
    let tampered = try tamper(directory.path, segment: 1, frame: 1) { bytes, frame in
      bytes[frame.records[0].upperBound - 1] ^= 0x01
    }
    for checkFirst in [false, true] {
      #expect("check first: \(checkFirst)") {
        _ = try open(directory.path, seen: SeenCount(), checkFirst: checkFirst)
      } throws: { error in
        guard let error = error as? FileJournalError, error.code == .tampered else { return false }
        return error.location == LogLocation(segment: tampered.segment, offset: tampered.offset)
          && error.lastGoodSequence == tampered.first - 1
      }
    }
    // The journal alone, and verification, say the same.
    #expect(throws: FileJournalError.self) { try FileJournal<Edit>(directory: directory.path) }
    #expect(throws: FileJournalError.self) { try LogAudit.verify(directory: directory.path).requireIntact() }
  }

  /// A forged payload that does not decode either: the chain is the cause, so it is the error.
  @Test func tamperingIsReportedRatherThanTheDecodingErrorItCauses() throws {
    let directory = TemporaryDirectory()
    _ = try makeLog(in: directory.path)
    let tampered = try tamper(directory.path, segment: 0, frame: 2) { bytes, frame in
      for index in frame.records[0] { bytes[index] = 0xEE }
    }
    // Without the chain check the damage is a decoding error: the record no longer parses.
    let seen = SeenCount()
    #expect {
      _ = try open(directory.path, seen: seen)
    } throws: { error in
      guard let error = error as? FileJournalError, error.code == .tampered else { return false }
      return error.location == LogLocation(segment: tampered.segment, offset: tampered.offset)
    }
  }

  @Test func nothingIsCutOffATamperedLogWithATornTail() throws {
    let directory = TemporaryDirectory()
    _ = try makeLog(in: directory.path)
    _ = try tamper(directory.path, segment: 0, frame: 0) { bytes, frame in
      bytes[frame.records[0].upperBound - 1] ^= 0x01
    }
    let last = directory.path + "/" + (try segmentNames(directory.path).last ?? "")
    let handle = try #require(FileHandle(forWritingAtPath: last))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data([0x17, 0, 0, 0, 0xFF, 0xFF]))  // a frame cut short
    try handle.close()
    let size = try FileManager.default.attributesOfItem(atPath: last)[.size] as? Int
    #expect(throws: FileJournalError.self) { _ = try open(directory.path, seen: SeenCount()) }
    #expect(throws: FileJournalError.self) { try FileJournal<Edit>(directory: directory.path) }
    #expect(try FileManager.default.attributesOfItem(atPath: last)[.size] as? Int == size)
  }

  @Test func checkingFirstKeepsTamperedEventsFromTheReducer() throws {
    let directory = TemporaryDirectory()
    _ = try makeLog(in: directory.path)
    _ = try tamper(directory.path, segment: 2, frame: 0) { bytes, frame in
      bytes[frame.records[0].upperBound - 1] ^= 0x01
    }
    let seen = SeenCount()
    #expect(throws: FileJournalError.self) { _ = try open(directory.path, seen: seen, checkFirst: true) }
    #expect(seen.value == 0)
  }

  /// Segments checked out of the scan's thread still report the first wrong frame in log order.
  @Test func theFirstWrongFrameIsReported() throws {
    let check = ChainCheck(key: nil)
    let bytes: [UInt8] = Array(0..<200)
    func item(_ range: Range<Int>, previous: SHA256.Digest, wrong: Bool, last: UInt64) -> ChainCheck.Item {
      let right = Frame.chainValue(previous: previous, hashed: bytes[range])
      return ChainCheck.Item(
        hashed: range, previous: previous, stored: wrong ? SHA256.hash([1]) : right, offset: range.lowerBound,
        lastGoodSequence: last)
    }
    let genesis = SHA256.hash([0])
    let first = item(0..<50, previous: genesis, wrong: false, last: 0)
    check.submit(
      segment: "a", bytes: bytes,
      frames: [first, item(50..<90, previous: first.stored, wrong: false, last: 1)])
    check.submit(
      segment: "b", bytes: bytes,
      frames: [
        item(90..<120, previous: genesis, wrong: false, last: 2),
        item(120..<150, previous: genesis, wrong: true, last: 3),
        item(150..<200, previous: genesis, wrong: true, last: 4),
      ])
    check.submit(segment: "c", bytes: bytes, frames: [item(0..<10, previous: genesis, wrong: true, last: 5)])
    #expect(throws: FileJournalError.tampered(segment: "b", offset: 120, lastGoodSequence: 3)) {
      try check.finish()
    }
    // A check with nothing wrong passes, and finishing twice is harmless.
    let clean = ChainCheck(key: nil)
    clean.submit(segment: "a", bytes: bytes, frames: [first])
    try clean.finish()
    try clean.finish()
  }
}

/// A thread-safe count of the actions a reducer saw.
final class SeenCount: Sendable {
  private let count = Locked(0)
  var value: Int { count.withLock { $0 } }
  func increment() { count.withLock { $0 += 1 } }
}

/// Counts the `Edit`s it reduces.
struct CountingEdits: Reducer {
  let seen: SeenCount

  func reduce(into state: inout Int, action: Edit) -> Effect<Edit> {
    seen.increment()
    state += 1
    return .none
  }
}
