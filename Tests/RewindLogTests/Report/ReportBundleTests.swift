import Foundation
import Rewind
import RewindTestSupport
import RewindTesting
import Testing

@testable import RewindLog

/// A log of 40 notes events in small frames, with snapshots at 15 and 30.
private func writeNotesLog(_ directory: String, count: UInt64 = 40, key: ChainKey? = nil) throws -> [Notes
  .State]
{
  let journal = try FileJournal<Note>(
    directory: directory,
    options: FileJournalOptions(durability: .grouped(), segmentSize: 2048, chainKey: key))
  var states = [Notes.State()]
  var state = Notes.State()
  for sequence in 1...count {
    try journal.append(event(sequence))
    _ = Notes().reduce(into: &state, action: note(sequence))
    states.append(state)
    if sequence % 3 == 0 { try journal.flush() }
    if sequence % 15 == 0 { try journal.writeSnapshot(state, at: sequence) }
  }
  try journal.close()
  return states
}

private let expectation = ReportExpectation(app: "com.example.notes", action: Note.self)
private let options = ReportOptions(app: "com.example.notes", build: "notes 1.0 (7)")

@Suite struct ReportBundleTests {
  @Test func aReportHoldsTheLogsEventsAndVerifies() throws {
    let directory = TemporaryDirectory()
    _ = try writeNotesLog(directory.path)
    let path = directory.file("bug.rwreport")
    let metadata = try ReportBundle.write(log: directory.path, from: 1, options: options, to: path)
    #expect(metadata.firstSequence == 1 && metadata.lastSequence == 40)
    let report = try ReportBundle.read(from: path, expecting: expectation)
    #expect(report.metadata.app == "com.example.notes")
    #expect(report.metadata.build == "notes 1.0 (7)")
    #expect(report.metadata.schema.eventTypes.map(\.name).sorted() == ["add", "clear", "remove"])
    var events: [Event<Note>] = []
    try report.forEachEvent(as: Note.self) { events.append($0) }
    #expect(events == (1...40).map(event))
    // Unkeyed and unredacted: the report's chain is the log's own.
    let reader = try LogReader(directory: directory.path)
    #expect(report.metadata.logHead.chain.description == reader.summary.headChain)
    #expect(try report.startState(as: Notes.State.self) == nil)
  }

  @Test func aReportStartsAfterASnapshotWithItsState() throws {
    let directory = TemporaryDirectory()
    let states = try writeNotesLog(directory.path)
    let path = directory.file("bug.rwreport")
    // By default: after the newest snapshot before the end (30).
    let metadata = try ReportBundle.write(log: directory.path, options: options, to: path)
    #expect(metadata.firstSequence == 31)
    let report = try ReportBundle.read(from: path, expecting: expectation)
    #expect(try report.startState(as: Notes.State.self) == states[30])
    var sequences: [UInt64] = []
    try report.forEachEvent(as: Note.self) { sequences.append($0.sequence) }
    #expect(sequences == Array(31...40))
    // A start with no state before it is refused, naming where a report can start.
    #expect {
      try ReportBundle.write(log: directory.path, from: 20, options: options, to: path)
    } throws: { error in
      guard case .cannotReport(let reason)? = error as? ReportError else { return false }
      return reason.contains("16") && reason.contains("31")
    }
  }

  /// Every single flipped byte, anywhere in the file, is refused before anything is read.
  @Test func aFlippedByteIsRefused() throws {
    let directory = TemporaryDirectory()
    _ = try writeNotesLog(directory.path, count: 12)
    let path = directory.file("bug.rwreport")
    try ReportBundle.write(log: directory.path, from: 1, options: options, to: path)
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    _ = try ReportBundle.verify(bytes, expecting: expectation)
    for offset in bytes.indices {
      var flipped = bytes
      flipped[offset] ^= 0x10
      #expect(throws: ReportError.self, "byte \(offset)") {
        try ReportBundle.verify(flipped, expecting: expectation)
      }
    }
  }

  /// A forger who changes an event and recomputes the file's checksum is caught by the chain.
  @Test func aChangedEventBreaksTheChain() throws {
    let directory = TemporaryDirectory()
    _ = try writeNotesLog(directory.path, count: 12)
    let path = directory.file("bug.rwreport")
    try ReportBundle.write(log: directory.path, from: 1, options: options, to: path)
    var file = try ReportFile.parse(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
    // "note 4" → "note 5" in event 4's record.
    let frameIndex = try #require(file.frames.firstIndex { $0.firstSequence <= 4 && $0.lastSequence >= 4 })
    let position = Int(4 - file.frames[frameIndex].firstSequence)
    var record = file.frames[frameIndex].records[position]
    let digit = try #require(record.lastIndex(of: UInt8(ascii: "4")))
    record[digit] = UInt8(ascii: "5")
    file.frames[frameIndex].records[position] = record
    #expect {
      try ReportBundle.verify(try file.encoded(), expecting: expectation)
    } throws: { error in
      guard case .chainBroken(let sequence, .chainMismatch)? = error as? ReportError else { return false }
      return sequence == file.frames[frameIndex].firstSequence
    }
  }

  /// Outside testing: a crafted report (its seal recomputed, as anyone can) whose events are numbered up
  /// to the largest number is refused as damaged; the arithmetic on its numbers used to overflow and trap.
  @Test func eventNumbersAtTheEndOfTheRangeAreRefused() throws {
    let directory = TemporaryDirectory()
    _ = try writeNotesLog(directory.path, count: 6)
    let path = directory.file("bug.rwreport")
    try ReportBundle.write(log: directory.path, from: 1, options: options, to: path)
    let original = try ReportFile.parse(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
    for first: UInt64 in [.max, .max - 1, 0] {
      var file = original
      file.frames[0].firstSequence = first
      #expect(throws: ReportError.self, "a first frame from \(first)") {
        try ReportBundle.verify(try file.encoded(), expecting: expectation)
      }
    }
    // A frame chained correctly from its anchor, ending just before the largest number, under metadata
    // that claims the report ends at it.
    var file = original
    let count = UInt64(file.frames[0].records.count)
    let anchor = SHA256.hash(Array("anchor".utf8))
    file.metadata.anchorSequence = .max - count - 1
    file.metadata.anchorChain = anchor.description
    file.metadata.firstSequence = .max - count
    file.metadata.lastSequence = .max
    file.frames = [file.frames[0]]
    file.frames[0].firstSequence = .max - count
    file.frames[0] = file.frames[0].chained(after: anchor)
    #expect(throws: ReportError.self) { try ReportBundle.verify(try file.encoded(), expecting: expectation) }
  }

  /// Outside testing: a report that cannot be written (here its final rename fails) leaves no `.partial`
  /// file beside its path. (A path that is a directory is now refused before anything is written, see
  /// ReportDestinationTests.)
  @Test func aFailedWriteLeavesNoPartialFile() throws {
    let directory = TemporaryDirectory()
    _ = try writeNotesLog(directory.path, count: 6)
    let report = try ReportBundle.make(log: directory.path, from: 1, options: options)
    let fileSystem = FaultyFileSystem(seed: 1)
    fileSystem.failNext(.rename, code: EISDIR)
    #expect {
      try ReportDraft.write(report.bytes, to: "out/bug.rwreport", fileSystem: fileSystem)
    } throws: { error in
      guard case .io(let io)? = error as? ReportError else { return false }
      return io.code == EISDIR
    }
    #expect(!fileSystem.exists("out/bug.rwreport.partial"))
    #expect(!fileSystem.exists("out/bug.rwreport"))
  }

  /// Outside testing: the starts a refusal offers are in numeric order and inside the log (it listed
  /// "202, 51" for a log of 201 events with snapshots at 50 and 201).
  @Test func theStartsOfferedAreInOrderAndInsideTheLog() throws {
    let directory = TemporaryDirectory()
    _ = try writeNotesLog(directory.path, count: 105)
    #expect {
      try ReportBundle.write(
        log: directory.path, from: 20, options: options, to: directory.file("bug.rwreport"))
    } throws: { error in
      guard case .cannotReport(let reason)? = error as? ReportError else { return false }
      return reason.hasSuffix("(at 16, 31, 46, 61, 76, 91)")
    }
  }

  @Test func anotherAppsReportIsRefused() throws {
    let directory = TemporaryDirectory()
    _ = try writeNotesLog(directory.path, count: 6)
    let path = directory.file("bug.rwreport")
    try ReportBundle.write(
      log: directory.path, from: 1, options: ReportOptions(app: "com.example.mail"), to: path)
    #expect(throws: ReportError.otherApp(expected: "com.example.notes", found: "com.example.mail")) {
      try ReportBundle.read(from: path, expecting: expectation)
    }
    // A reader that names no app takes any app's report.
    _ = try ReportBundle.read(from: path, expecting: ReportExpectation(app: nil, action: Note.self))
  }

  @Test func aSchemaNoUpcasterCoversIsRefused() throws {
    let directory = TemporaryDirectory()
    _ = try writeNotesLog(directory.path, count: 6)
    let path = directory.file("bug.rwreport")
    try ReportBundle.write(log: directory.path, from: 1, options: options, to: path)
    // The log's events are version 1; an app that reads version 3 needs upcasters from 1.
    let newer = ReportExpectation(app: "com.example.notes", action: NotesV3.self)
    #expect {
      try ReportBundle.read(from: path, expecting: newer)
    } throws: { error in
      guard case .incompatibleSchema(let type, 1, 3, let reason)? = error as? ReportError else {
        return false
      }
      return ["add", "remove", "clear"].contains(type) && reason.contains("version 1")
    }
    let upcasters = UpcastingTests.upcasters()  // remove is renamed delete from version 2 on
    let covered = ReportExpectation(app: "com.example.notes", action: NotesV3.self, upcasters: upcasters)
    _ = try ReportBundle.read(from: path, expecting: covered)
  }

  @Test func redactionReplacesTheValuesOnTheDeviceAndListsThem() throws {
    let directory = TemporaryDirectory()
    _ = try writeNotesLog(directory.path)
    let path = directory.file("bug.rwreport")
    var redacting = options
    redacting.redaction = RedactionRules(statePaths: ["items.*"], actionPaths: ["add._0"])
    let metadata = try ReportBundle.write(log: directory.path, options: redacting, to: path)
    #expect(metadata.firstSequence == 31)
    let report = try ReportBundle.read(from: path, expecting: expectation)
    let start = try #require(try report.startState(as: Notes.State.self))
    #expect(!start.items.isEmpty && start.items.allSatisfy { $0.allSatisfy { $0 == "x" } })
    var texts: [String] = []
    try report.forEachEvent(as: Note.self) { event in
      if case .add(let text) = event.action { texts.append(text) }
    }
    #expect(!texts.isEmpty && texts.allSatisfy { $0 == "xxxxxxx" })
    let manifest = report.metadata.redaction
    #expect(manifest.redacted.contains { $0.place == .state(sequence: 30) && $0.path == "items.0" })
    #expect(manifest.redacted.contains { $0.place == .event(sequence: 31) && $0.path == "add._0" })
    #expect(
      manifest.redacted.filter { if case .event = $0.place { true } else { false } }.count == texts.count)
    // Redacted frames are chained again: the report verifies, and keeps the log's own head beside its own.
    #expect(
      report.metadata.logHead.chain.description
        == (try LogReader(directory: directory.path)).summary.headChain)
    #expect(report.file.frames.last?.chain != report.metadata.logHead.chain)
  }

  @Test func aReportLargerThanTheLimitIsRefused() throws {
    let directory = TemporaryDirectory()
    _ = try writeNotesLog(directory.path, count: 6)
    let path = directory.file("bug.rwreport")
    try ReportBundle.write(log: directory.path, from: 1, options: options, to: path)
    #expect {
      try ReportBundle.read(from: path, expecting: expectation, maxBytes: 100)
    } throws: { error in
      if case .tooLarge(_, 100)? = error as? ReportError { true } else { false }
    }
    #expect(throws: ReportError.notAReport(path: "x")) {
      try ReportBundle.verify(Array("not a report".utf8), path: "x", expecting: expectation)
    }
    #expect(throws: ReportError.self) {
      try ReportBundle.read(from: directory.file("missing"), expecting: expectation)
    }
  }

  /// Mutations of a valid report, each with its checksum made valid again so that the parser behind the
  /// checksum is what is exercised: no crash, no hang; a typed error or (rarely) a report that verifies.
  @Test(arguments: [1, 2, 3, 4])
  func fuzzedReportsAreRefusedOrRead(seed: UInt64) throws {
    let directory = TemporaryDirectory()
    _ = try writeNotesLog(directory.path, count: 20)
    let path = directory.file("bug.rwreport")
    var redacting = options
    redacting.redaction = RedactionRules(statePaths: ["items"], actionPaths: ["**._0"])
    try ReportBundle.write(log: directory.path, options: redacting, to: path)
    let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    var random = SplitMix64(seed: seed)
    var refused = 0
    for round in 0..<300 {
      var bytes = Array(original.dropLast(32))
      switch round % 4 {
      case 0:
        for _ in 0...Int.random(in: 0...3, using: &random) {
          bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
        }
      case 1: bytes.removeLast(Int.random(in: 1...min(64, bytes.count), using: &random))
      case 2:
        let at = Int.random(in: 0...bytes.count, using: &random)
        bytes.insert(
          contentsOf: (0..<Int.random(in: 1...9, using: &random)).map { _ in
            UInt8.random(in: 0...255, using: &random)
          }, at: at)
      default:
        // A length field (the parts' counts sit at known places) set to something large.
        let at = Int.random(in: 12..<min(bytes.count - 4, 64), using: &random)
        for index in 0..<4 { bytes[at + index] = 0xFF }
      }
      bytes += SHA256.hash(bytes).bytes
      do {
        let report = try ReportBundle.verify(bytes, expecting: expectation)
        try report.forEachEvent(as: Note.self) { _ in }
        _ = try report.startState(as: Notes.State.self)
      } catch is ReportError {
        refused += 1
      } catch is FileJournalError {
        refused += 1  // a verified record whose action no longer decodes as a Note
      }
    }
    #expect(refused > 250, "seed \(seed): \(refused) of 300 refused")
    // Random files that are not reports at all.
    for _ in 0..<100 {
      let noise = (0..<Int.random(in: 0...300, using: &random)).map { _ in
        UInt8.random(in: 0...255, using: &random)
      }
      #expect(throws: ReportError.self, "seed \(seed)") {
        try ReportBundle.verify(noise, expecting: expectation)
      }
    }
  }
}
