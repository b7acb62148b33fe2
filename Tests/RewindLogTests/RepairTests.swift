import Foundation
import Rewind
import RewindTestSupport
import RewindTesting
import Testing

@testable import RewindLog

/// Item 7 of "Failure paths": `repair` handles every damage `verify` reports, and the repaired log opens.
@Suite struct RepairTests {
  /// A log of 37 good events, then event 38 whose record does not parse although its frame's checksum
  /// and chain value are valid (written through the journal's own writer), then events 39 and 40.
  func logWithAnUndecodableRecord() throws -> FaultyFileSystem {
    let fileSystem = FaultyFileSystem(seed: 3)
    try appendNotes(37, to: fileSystem, perFrame: 3)
    let scanned = try LogScanner(fileSystem: fileSystem, directory: "/log").scan()
    let writer = try LogWriter(fileSystem: fileSystem, directory: "/log", segmentSize: 4096, scanned: scanned)
    // A record: its varint length, then an unknown codec byte and nothing a record needs.
    _ = try writer.write(records: [3, 0x7E, 0, 0], count: 1, firstSequence: 38)
    try writer.sync()
    writer.close()
    let journal = try FileJournal<Note>(directory: "/log", options: testOptions, fileSystem: fileSystem)
    try journal.append(event(39))
    try journal.append(event(40))
    try journal.close()
    return fileSystem
  }

  @Test func aRecordThatDoesNotDecodeIsRepairedSoTheLogOpens() throws {
    let fileSystem = try logWithAnUndecodableRecord()
    let report = try LogAudit.verify(directory: "/log", fileSystem: fileSystem)
    #expect(report.firstProblem?.kind == .undecodable)
    #expect(report.firstProblem?.sequence == 38)
    #expect(throws: FileJournalError.self) {
      try LogAudit.verify(directory: "/log", fileSystem: fileSystem).requireIntact()
    }

    let repaired = try FileJournal<Note>.repair(directory: "/log", fileSystem: fileSystem)
    #expect(repaired.lastSequence == 37)
    #expect(!repaired.quarantined.isEmpty, "\(repaired)")
    #expect(try LogAudit.verify(directory: "/log", fileSystem: fileSystem).isIntact)
    let journal = try FileJournal<Note>(directory: "/log", options: testOptions, fileSystem: fileSystem)
    #expect(try journal.events(in: 1...37) == (1...37).map(event))
    try journal.close()
  }

  /// Every kind of damage verify reports (other than a truncation, which needs an anchor and leaves a
  /// valid log): repair then verify finds nothing, and the journal opens on the kept prefix.
  @Test(arguments: TamperTests.Tamper.allCases.filter { $0 != .truncate })
  func everyDamageVerifyReportsIsRepaired(_ tamper: TamperTests.Tamper) throws {
    let tampering = TamperTests()
    let pristine = try tampering.makeLog(events: 40, perFrame: 1, key: nil)
    for seed in UInt64(0)..<10 {
      let fileSystem = pristine.copy()
      var random = SplitMix64(seed: seed)
      let expected = try tampering.apply(tamper, to: fileSystem, random: &random, key: nil)
      let found = try LogAudit.verify(directory: "/log", fileSystem: fileSystem)
      #expect(found.firstProblem?.kind == expected.kind, "seed \(seed), \(tamper)")
      let repaired = try FileJournal<Note>.repair(directory: "/log", fileSystem: fileSystem)
      #expect(repaired.lastSequence < expected.sequence, "seed \(seed), \(tamper): \(repaired)")
      let after = try LogAudit.verify(directory: "/log", fileSystem: fileSystem)
      #expect(after.isIntact, "seed \(seed), \(tamper): \(after)")
      let journal = try FileJournal<Note>(
        directory: "/log", options: FileJournalOptions(segmentSize: 1024), fileSystem: fileSystem)
      #expect(journal.lastSequence == repaired.lastSequence)
      try journal.close()
    }
  }

  /// What `rewind repair` shows before it repairs (`LogRepair.firstDamage`) is what repair then does.
  @Test(arguments: TamperTests.Tamper.allCases.filter { $0 != .truncate })
  func theDamageShownFirstIsTheOneRepaired(_ tamper: TamperTests.Tamper) throws {
    let tampering = TamperTests()
    let pristine = try tampering.makeLog(events: 40, perFrame: 1, key: nil)
    for seed in UInt64(20)..<25 {
      let fileSystem = pristine.copy()
      var random = SplitMix64(seed: seed)
      _ = try tampering.apply(tamper, to: fileSystem, random: &random, key: nil)
      let plan = LogRepair(fileSystem: fileSystem, directory: "/log", key: nil)
      let damage = try #require(try plan.firstDamage(), "seed \(seed), \(tamper)")
      let repaired = try FileJournal<Note>.repair(directory: "/log", fileSystem: fileSystem)
      #expect(repaired.lastSequence == damage.lastGoodSequence, "seed \(seed), \(tamper): \(damage)")
      #expect(repaired.quarantined.last?.contains(damage.segment) == true, "seed \(seed): \(repaired)")
      #expect(try plan.firstDamage() == nil, "seed \(seed), \(tamper)")
    }
  }

  @Test func aTornTailIsRepaired() throws {
    let fileSystem = FaultyFileSystem(seed: 4)
    try appendNotes(5, to: fileSystem)
    let file = try fileSystem.open("/log/" + SegmentHeader.fileName(firstSequence: 1), create: false)
    try file.write([9, 9, 9, 9, 200, 0, 0, 0, 1], at: try file.size())
    #expect(try LogAudit.verify(directory: "/log", fileSystem: fileSystem).tornTail != nil)
    let repaired = try FileJournal<Note>.repair(directory: "/log", fileSystem: fileSystem)
    #expect(repaired.lastSequence == 5 && repaired.quarantined.count == 1)
    #expect(try LogAudit.verify(directory: "/log", fileSystem: fileSystem).tornTail == nil)
  }
}
