import Foundation
import Rewind
import RewindTestSupport
import RewindTesting
import Testing

@testable import RewindLog

/// The chain step over frames that do not come from a segment file: frames rebuilt from the fields a
/// shipped event carries verify exactly as the files do, and every disorder is named.
@Suite struct ChainVerifierTests {
  static let key = TamperTests.key

  /// The frames of a journal's log as a shipping message carries them (`LogAudit.forEachFrame`): each
  /// record's bytes and the frame's first sequence number, commit time and chain value.
  func shippedFrames(_ fileSystem: FaultyFileSystem, key: ChainKey?) throws -> (
    logID: [UInt8], frames: [ChainedFrame]
  ) {
    var frames: [ChainedFrame] = []
    var locations: [EventLocation] = []
    try LogAudit.forEachFrame(directory: "/log", key: key, fileSystem: fileSystem) { frame, location in
      frames.append(frame)
      locations.append(location)
      return true
    }
    #expect(locations.map(\.sequence) == frames.map(\.firstSequence))
    #expect(locations.first?.segment == SegmentHeader.fileName(firstSequence: 1))
    let log = try LogScanner(fileSystem: fileSystem, directory: "/log", key: key).scan()
    return (try #require(log.logID), frames)
  }

  /// A log of 40 events in frames of 1 to 3 events, over several segments.
  func makeLog(key: ChainKey?) throws -> FaultyFileSystem {
    let fileSystem = FaultyFileSystem(seed: 0)
    try appendNotes(20, to: fileSystem, perFrame: 1, segmentSize: 1024, key: key)
    try appendNotes(20, to: fileSystem, perFrame: 3, segmentSize: 1024, key: key)
    return fileSystem
  }

  @Test(arguments: [false, true]) func framesRebuiltFromTheirFieldsVerifyLikeTheFiles(keyed: Bool) throws {
    let key = keyed ? Self.key : nil
    let fileSystem = try makeLog(key: key)
    let (logID, frames) = try shippedFrames(fileSystem, key: key)
    #expect(frames.count > 20 && frames.contains { $0.records.count == 3 })
    var chain = ChainVerifier(logID: logID, key: key)
    #expect(chain.head == nil && chain.nextSequence == 1)
    for frame in frames {
      let problem = chain.verify(frame)
      #expect(
        problem == nil,
        "frame at event \(frame.firstSequence): \(problem.map(String.init(describing:)) ?? "")")
    }
    #expect(chain.nextSequence == 41)
    #expect(chain.head == (try LogAudit.anchor(directory: "/log", key: key, fileSystem: fileSystem)))
  }

  @Test func framesAreReadUpToTheDamageThenItIsThrown() throws {
    let tampering = TamperTests()
    let fileSystem = try tampering.makeLog(events: 40, perFrame: 1, key: nil)
    var random = SplitMix64(seed: 3)
    let expected = try tampering.apply(.modify, to: fileSystem, random: &random, key: nil)
    var delivered: [UInt64] = []
    #expect(throws: FileJournalError.self) {
      try LogAudit.forEachFrame(directory: "/log", fileSystem: fileSystem) { frame, _ in
        delivered.append(frame.firstSequence)
        return true
      }
    }
    #expect(delivered == Array(1..<expected.sequence))
  }

  /// Numbers a crafted file or stream can carry at the ends of the range: refused as malformed, never an
  /// arithmetic trap.
  @Test func framesNumberedAtTheEndsOfTheRangeAreRefused() throws {
    let fileSystem = try makeLog(key: nil)
    let (_, frames) = try shippedFrames(fileSystem, key: nil)
    let frame = try #require(frames.first)
    func renumbered(_ first: UInt64, records: Int = 1) -> ChainedFrame {
      ChainedFrame(
        firstSequence: first, commitTime: frame.commitTime,
        records: Array(repeating: frame.records[0], count: records), chain: frame.chain)
    }
    for anchored: UInt64 in [.max, .max - 1] {
      var chain = ChainVerifier(after: LogAnchor(sequence: anchored, chain: frame.chain))
      let cases: [(first: UInt64, records: Int)] = [(.max, 1), (.max - 1, 2), (.max, 3), (0, 1)]
      for (first, records) in cases {
        let problem = chain.verify(renumbered(first, records: records))
        guard case .malformed = problem else {
          Issue.record("frame at \(first) of \(records) after \(anchored): \(String(describing: problem))")
          continue
        }
      }
      #expect(chain.head?.sequence == anchored, "a refused frame does not move the walk")
    }
  }

  @Test func aKeyedChainDoesNotLinkWithoutItsKeyOrWithAnother() throws {
    let fileSystem = try makeLog(key: Self.key)
    let (logID, frames) = try shippedFrames(fileSystem, key: Self.key)
    var plain = ChainVerifier(logID: logID)
    #expect(plain.verify(frames[0]) == .chainMismatch(keyed: false))
    var other = ChainVerifier(logID: logID, key: ChainKey(unchecked: Array(repeating: 8, count: 32)))
    #expect(other.verify(frames[0]) == .chainMismatch(keyed: true))
    #expect(other.nextSequence == 1 && other.head == nil, "a frame that fails does not move the walk")
  }

  @Test func eachDisorderIsNamedAndTheWalkStaysWhereItWas() throws {
    let fileSystem = try makeLog(key: nil)
    let (logID, frames) = try shippedFrames(fileSystem, key: nil)
    var chain = ChainVerifier(logID: logID)
    for frame in frames[0..<3] { #expect(chain.verify(frame) == nil) }
    let before = (chain.nextSequence, chain.chain, chain.head)

    // A missing frame: the next one starts too late.
    let missing = chain.verify(frames[4])
    #expect(missing == .startsAfter(first: frames[4].firstSequence, expected: 4))
    #expect(missing?.kind == .deleted)
    #expect(missing?.description == "events 4...4 are missing: the next frame starts at event 5")
    // A frame already verified again.
    let again = chain.verify(frames[1])
    #expect(again == .startsBefore(first: 2, count: 1, expected: 4) && again?.kind == .inserted)
    // A byte of a record changed, and the commit time changed: the chain value no longer matches.
    var changed = frames[3]
    changed.records[0][changed.records[0].count / 2] ^= 0x20
    #expect(chain.verify(changed) == .chainMismatch(keyed: false))
    changed = frames[3]
    changed.commitTime += 1
    #expect(chain.verify(changed)?.kind == .modified)
    // No records at all.
    changed.records = []
    #expect(chain.verify(changed) == .malformed("a frame without events"))
    #expect(before == (chain.nextSequence, chain.chain, chain.head))

    // The right frame still continues the chain.
    #expect(chain.verify(frames[3]) == nil)
    #expect(chain.nextSequence == 5)
  }

  @Test func aFrameWhoseChainHoldsButWhoseRecordDoesNotDecodeIsUndecodable() throws {
    let fileSystem = try makeLog(key: nil)
    let (logID, frames) = try shippedFrames(fileSystem, key: nil)
    var chain = ChainVerifier(logID: logID)
    #expect(chain.verify(frames[0]) == nil)
    // Forged with a recomputed chain value (anyone can, in an unkeyed log): a record with an unknown codec.
    var forged = frames[1]
    forged.records[0][0] = 0x7F
    let hashed = forged.encoded
    forged.chain = Frame.chainValue(previous: chain.chain, hashed: hashed.bytes[hashed.frame.hashed])
    let problem = chain.verify(forged)
    guard case .undecodable(let record)? = problem else {
      Issue.record("expected an undecodable record, got \(String(describing: problem))")
      return
    }
    #expect(record.sequence == 2 && problem?.kind == .undecodable)
    #expect(record.description.hasPrefix("event 2 does not decode: "), "\(record)")
  }

  @Test func aWalkContinuesAfterAnAnchor() throws {
    let fileSystem = try makeLog(key: Self.key)
    let (_, frames) = try shippedFrames(fileSystem, key: Self.key)
    let cut = frames[9]
    let anchor = LogAnchor(sequence: cut.firstSequence + UInt64(cut.records.count) - 1, chain: cut.chain)
    var chain = ChainVerifier(after: anchor, key: Self.key)
    #expect(chain.head == anchor && chain.nextSequence == anchor.sequence + 1)
    for frame in frames[10...] { #expect(chain.verify(frame) == nil) }
    #expect(chain.nextSequence == 41)
  }

  /// Seeded changes to one frame's fields, records or chain value: none verifies, none traps.
  @Test func noChangedFrameVerifies() throws {
    let fileSystem = try makeLog(key: nil)
    let (logID, frames) = try shippedFrames(fileSystem, key: nil)
    for seed in UInt64(0)..<300 {
      var random = SplitMix64(seed: seed)
      let index = Int.random(in: 0..<frames.count, using: &random)
      var chain = ChainVerifier(logID: logID)
      for frame in frames[..<index] { #expect(chain.verify(frame) == nil, "seed \(seed)") }
      var frame = frames[index]
      switch Int.random(in: 0..<6, using: &random) {
      case 0: frame.firstSequence &+= UInt64.random(in: 1...UInt64.max, using: &random)
      case 1: frame.commitTime &+= Int64.random(in: 1...Int64.max, using: &random)
      case 2:
        let record = Int.random(in: 0..<frame.records.count, using: &random)
        let byte = Int.random(in: 0..<frame.records[record].count, using: &random)
        frame.records[record][byte] ^= UInt8.random(in: 1...255, using: &random)
      case 3:
        let record = Int.random(in: 0..<frame.records.count, using: &random)
        frame.records[record].append(UInt8.random(in: 0...255, using: &random))
      case 4: frame.records.append(frame.records[0])
      default:
        var bytes = frame.chain.bytes
        bytes[Int.random(in: 0..<bytes.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
        frame.chain = SHA256.Digest(bytes: bytes)
      }
      #expect(chain.verify(frame) != nil, "seed \(seed): a changed frame at \(index) verified")
    }
  }
}

/// The one check that a record decodes, on the records of a real log and on bytes from anywhere.
@Suite struct RecordCheckTests {
  func records() throws -> [(sequence: UInt64, bytes: [UInt8])] {
    let fileSystem = FaultyFileSystem(seed: 0)
    try appendNotes(12, to: fileSystem, perFrame: 2)
    var records: [(UInt64, [UInt8])] = []
    _ = try LogScanner(fileSystem: fileSystem, directory: "/log").scan { visit in
      for (position, range) in visit.frame.records.enumerated() {
        records.append((visit.frame.firstSequence + UInt64(position), Array(visit.bytes[range])))
      }
      return true
    }
    return records
  }

  @Test func everyRecordAJournalWroteDecodes() throws {
    let records = try records()
    #expect(records.count == 12)
    for record in records {
      #expect(RecordCheck.problem(record: record.bytes, sequence: record.sequence) == nil)
    }
  }

  @Test func aRecordThatDoesNotDecodeIsNamedWithOneText() throws {
    let record = try #require(try records().first { $0.sequence == 7 })
    var unknownCodec = record.bytes
    unknownCodec[0] = 0x7F
    var cutShort = record.bytes
    cutShort.removeLast(record.bytes.count - 12)
    // A case-named binary record (flag 0x80) whose payload is not keyed: no name to take.
    let parsed = try EventRecord.parse(record.bytes, record.bytes.indices, sequence: 7)
    try #require(parsed.payloadRange.count < 128, "a one-byte payload length")
    var unnamed =
      [EventCodec.binary.rawValue | EventRecord.caseNameFlag]
      + record.bytes[1..<parsed.payloadRange.lowerBound]
    unnamed[unnamed.count - 1] = 1  // the payload's length: one byte, a null
    unnamed.append(BinaryValue.Tag.null.rawValue)
    #expect((try? EventRecord.parse(unnamed, unnamed.indices, sequence: 7)) != nil, "the envelope parses")
    for bytes in [unknownCodec, cutShort, unnamed, []] {
      let problem = try #require(RecordCheck.problem(record: bytes, sequence: 7), "\(bytes)")
      #expect(problem.sequence == 7)
      #expect(problem.description == "event 7 does not decode: \(problem.reason)")
    }
  }

  /// Random bytes are a problem or a record, never a trap.
  @Test func randomBytesNeverTrap() {
    for seed in UInt64(0)..<500 {
      var random = SplitMix64(seed: seed)
      let count = Int.random(in: 0..<80, using: &random)
      let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
      let problem = RecordCheck.problem(record: bytes, sequence: seed + 1)
      #expect(problem == nil || problem?.sequence == seed + 1, "seed \(seed)")
    }
  }
}
