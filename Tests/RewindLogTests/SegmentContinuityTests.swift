import Foundation
import Rewind
import RewindTestSupport
import RewindTesting
import Testing

@testable import RewindLog

/// The one classifier of segment header problems: for each kind of header damage, recovery (opening the
/// log) and verification name the same segment, at byte 0, in the same words.
@Suite struct SegmentContinuityTests {
  static let key = TamperTests.key

  /// A log of 40 events in several segments, and the name of its second segment.
  func makeLog(key: ChainKey?) throws -> (FaultyFileSystem, second: String) {
    let fileSystem = FaultyFileSystem(seed: 0)
    try appendNotes(40, to: fileSystem, perFrame: 1, segmentSize: 1024, key: key)
    let names = try fileSystem.contents(of: "/log").filter { $0.hasPrefix("segment-") }.sorted()
    #expect(names.count >= 3)
    return (fileSystem, names[1])
  }

  /// Changes `segment`'s header with `change` and recomputes its checksum, as a forger would.
  func rewriteHeader(
    of segment: String, in fileSystem: FaultyFileSystem, _ change: (inout [UInt8]) -> Void
  ) throws {
    let file = try fileSystem.open("/log/" + segment, create: false)
    var bytes = try file.read(at: 0, count: Int(try file.size()))
    let size = try SegmentHeader.parse(bytes).get().size
    change(&bytes)
    let crc = CRC32C.mask(CRC32C.checksum(bytes[0..<(size - 4)]))
    withUnsafeBytes(of: crc.littleEndian) { bytes.replaceSubrange((size - 4)..<size, with: $0) }
    try file.write(bytes, at: 0)
  }

  /// Opens the log and verifies it; both must fail at `segment`, byte 0, with `words`.
  func expectBothRefuse(
    _ fileSystem: FaultyFileSystem, key: ChainKey?, at segment: String, code: FileJournalError.Code,
    kind: AuditFinding.Kind, words: String
  ) throws {
    do {
      _ = try FileJournal<Note>(
        directory: "/log", options: FileJournalOptions(segmentSize: 1024, chainKey: key),
        fileSystem: fileSystem)
      Issue.record("opened a log whose \(segment) has: \(words)")
    } catch let error as FileJournalError {
      #expect(error.code == code, "\(error)")
      #expect(error.location == LogLocation(segment: segment, offset: 0), "\(error)")
      if code == .corrupted { #expect(error.message.contains(words), "\(error)") }
    }
    let report = try LogAudit.verify(directory: "/log", key: key, fileSystem: fileSystem)
    let problem = try #require(report.firstProblem, "verify passed a log whose \(segment) has: \(words)")
    #expect(problem.kind == kind && problem.segment == segment && problem.offset == 0, "\(problem)")
    #expect(problem.detail.hasPrefix(words), "\(problem)")
    #expect(throws: FileJournalError.self) { try report.requireIntact() }
  }

  @Test func aSegmentOfAnotherLog() throws {
    let (fileSystem, second) = try makeLog(key: nil)
    try rewriteHeader(of: second, in: fileSystem) { $0[20] ^= 1 }  // a byte of the log id
    try expectBothRefuse(
      fileSystem, key: nil, at: second, code: .corrupted, kind: .corrupted,
      words: "segment belongs to another log")
  }

  @Test func aRewrittenKeyCheck() throws {
    let (fileSystem, second) = try makeLog(key: Self.key)
    try rewriteHeader(of: second, in: fileSystem) { $0[80] ^= 1 }  // a byte of the key check value
    try expectBothRefuse(
      fileSystem, key: Self.key, at: second, code: .tampered, kind: .modified,
      words: "segment header's key check differs from the first segment's")
  }

  @Test func aChainValueThatDoesNotContinueThePreviousSegment() throws {
    let (fileSystem, second) = try makeLog(key: nil)
    try rewriteHeader(of: second, in: fileSystem) { $0[50] ^= 1 }  // a byte of the previous chain value
    try expectBothRefuse(
      fileSystem, key: nil, at: second, code: .tampered, kind: .modified,
      words: "the chain value before this segment differs from the previous segment's end")
  }

  @Test func aMissingSegment() throws {
    let (fileSystem, second) = try makeLog(key: nil)
    let names = try fileSystem.contents(of: "/log").filter { $0.hasPrefix("segment-") }.sorted()
    let first = try #require(SegmentHeader.firstSequence(fromFileName: second))
    let third = try #require(SegmentHeader.firstSequence(fromFileName: names[2]))
    try fileSystem.remove("/log/" + second)
    try expectBothRefuse(
      fileSystem, key: nil, at: names[2], code: .corrupted, kind: .deleted,
      words: "segment starts at event \(third), expected \(first)")
  }

  @Test func aRenamedSegment() throws {
    let (fileSystem, second) = try makeLog(key: nil)
    let first = try #require(SegmentHeader.firstSequence(fromFileName: second))
    let renamed = SegmentHeader.fileName(firstSequence: first + 1)
    try fileSystem.rename("/log/" + second, to: "/log/" + renamed)
    try expectBothRefuse(
      fileSystem, key: nil, at: renamed, code: .corrupted, kind: .corrupted,
      words: "segment file is named for event \(first + 1), its header says \(first)")
  }

  /// The checks run in one order, and a scan that starts inside a segment checks only that it belongs.
  @Test func theFirstProblemInOrder() throws {
    let logID = Array(repeating: UInt8(1), count: 16)
    let chain = SegmentHeader.genesisChain(logID: logID)
    let continuity = SegmentContinuity(logID: logID, keyCheck: nil)
    let entry = SegmentEntry(name: SegmentHeader.fileName(firstSequence: 5), firstSequence: 5)
    var header = SegmentHeader(logID: logID, firstSequence: 5, previousChain: chain, keyCheck: nil)
    #expect(continuity.problem(with: header, of: entry, at: (5, chain)) == nil)
    #expect(
      continuity.problem(with: header, of: entry, at: (5, SHA256.hash([1])))
        == .chainBreak(cutThrough: nil, segment: entry.name))
    #expect(
      continuity.problem(with: header, of: entry, at: (5, SHA256.hash([1])), cutThrough: 4)
        == .chainBreak(cutThrough: 4, segment: entry.name))
    #expect(continuity.problem(with: header, of: entry, at: (7, chain)) == .startsAt(found: 5, expected: 7))
    header.keyCheck = chain
    #expect(continuity.problem(with: header, of: entry, at: (7, chain)) == .keyCheckDiffers)
    #expect(continuity.problem(with: header, of: entry, at: nil) == .keyCheckDiffers)
    header.logID[0] = 2
    #expect(continuity.problem(with: header, of: entry, at: (7, chain)) == .otherLog)
    header = SegmentHeader(logID: logID, firstSequence: 9, previousChain: SHA256.hash([2]), keyCheck: nil)
    #expect(continuity.problem(with: header, of: entry, at: nil) == nil, "inside a segment: only the log")
  }
}

/// `requireIntact()`: the report of an intact log back, the first problem of another as the matching
/// error, naming where and what.
@Suite struct RequireIntactTests {
  @Test func anIntactLogReturnsItsReport() throws {
    let fileSystem = try TamperTests().makeLog(events: 20, perFrame: 2, key: nil)
    let report = try LogAudit.verify(directory: "/log", fileSystem: fileSystem)
    #expect(try report.requireIntact() == report)
  }

  @Test(arguments: TamperTests.Tamper.allCases) func aProblemIsThrownWithItsWords(
    _ tamper: TamperTests.Tamper
  )
    throws
  {
    let tampering = TamperTests()
    let pristine = try tampering.makeLog(events: 40, perFrame: 1, key: nil)
    let anchor = try LogAudit.verify(directory: "/log", fileSystem: pristine).head
    for seed in UInt64(0)..<5 {
      let fileSystem = pristine.copy()
      var random = SplitMix64(seed: seed)
      _ = try tampering.apply(tamper, to: fileSystem, random: &random, key: nil)
      let report = try LogAudit.verify(directory: "/log", anchor: anchor, fileSystem: fileSystem)
      let problem = try #require(report.firstProblem, "seed \(seed), \(tamper)")
      #expect {
        try report.requireIntact()
      } throws: { error in
        guard let error = error as? FileJournalError else { return false }
        return error.code == .tampered && error.message.contains(problem.description)
          && error.location == LogLocation(segment: problem.segment, offset: problem.offset)
          && error.lastGoodSequence == problem.sequence - 1
      }
    }
  }
}
