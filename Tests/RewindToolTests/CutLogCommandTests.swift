import Foundation
import RewindLog
import RewindTestSupport
import Testing

@testable import RewindTool

/// `info`, `verify` and `events` on a log that retention cut.
@Suite struct CutLogCommandTests {
  /// A log of 600 events in 4 KiB segments with snapshots every 100, cut to keep at least 100 events.
  func writeCutLog(_ directory: String) throws -> LogCut {
    let options = FileJournalOptions(
      durability: .grouped(), segmentSize: 4096, retention: RetentionPolicy(events: 100))
    let journal = try FileJournal<Note>(directory: directory, options: options)
    for sequence in UInt64(1)...600 {
      try journal.append(fixtureEvent(sequence))
      if sequence % 5 == 0 { try journal.flush() }
      if sequence % 100 == 0 { try journal.writeSnapshot(sequence, at: sequence) }
    }
    _ = try journal.applyRetention()
    let cut = try #require(journal.cut)
    try journal.close()
    return cut
  }

  @Test func infoHasACutSection() throws {
    let directory = TemporaryDirectory()
    let cut = try writeCutLog(directory.path)
    let result = runTool(["info", directory.path, "--json"])
    #expect(result.status == 0, "\(result.errors)")
    let info = try #require(try parseJSON(result.output) as? [String: Any])
    let section = try #require(info["cut"] as? [String: Any])
    #expect(section["throughSequence"] as? Int == Int(cut.throughSequence))
    #expect(section["events"] as? Int == Int(cut.eventsCut))
    #expect(section["segments"] as? Int == Int(cut.segmentsCut))
    #expect(section["bytes"] as? Int == Int(cut.bytesCut))
    #expect(section["date"] as? String == EventView.format(cut.date))
    #expect(info["firstSequence"] as? Int == Int(cut.throughSequence) + 1)
    #expect(info["events"] as? Int == 600 - Int(cut.throughSequence))
    let text = runTool(["info", directory.path])
    #expect(text.status == 0)
    #expect(text.output.contains("cut        events 1...\(cut.throughSequence) removed by retention"))
    #expect(text.output.contains("(sequence \(cut.throughSequence + 1)...600)"))
    // An uncut log says so in JSON.
    let plain = TemporaryDirectory()
    _ = try writeFixtureLog(plain.path)
    let uncut = try #require(try parseJSON(runTool(["info", plain.path, "--json"]).output) as? [String: Any])
    #expect(uncut["cut"] is NSNull)
  }

  @Test func verifyAndEventsStartAtTheFirstKeptEvent() throws {
    let directory = TemporaryDirectory()
    let cut = try writeCutLog(directory.path)
    let verify = runTool(["verify", directory.path])
    #expect(verify.status == 0, "\(verify.output)")
    #expect(verify.output.contains("cut through event \(cut.throughSequence)"))
    let json = try #require(
      try parseJSON(runTool(["verify", directory.path, "--json"]).output) as? [String: Any])
    #expect(json["ok"] as? Bool == true)
    #expect(json["cutThrough"] as? Int == Int(cut.throughSequence))
    let events = runTool(["events", directory.path])
    #expect(events.status == 0, "\(events.errors)")
    #expect(events.output.hasPrefix("#\(cut.throughSequence + 1)  "))
    #expect(events.output.split(separator: "\n").count == 600 - Int(cut.throughSequence))
    let early = runTool(["events", directory.path, "--from", "1"])
    #expect(early.status != 0)
    #expect(early.errors.contains("cut"))
  }
}
