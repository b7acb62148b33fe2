import Foundation
import RewindLog
import RewindTestSupport
import Testing

@testable import RewindTool

/// The standard commands run in-process on real logs written by `FileJournal`.
@Suite struct CommandTests {
  @Test func infoDescribesTheLog() throws {
    let directory = TemporaryDirectory()
    let fixture = try writeFixtureLog(directory.path)
    let result = runTool(["info", directory.path, "--json"])
    #expect(result.status == 0, "\(result.errors)")
    let info = try #require(try parseJSON(result.output) as? [String: Any])
    #expect(info["events"] as? Int == fixture.events.count)
    #expect(info["lastSequence"] as? Int == fixture.events.count)
    #expect((info["segments"] as? [Any])?.count == segmentFiles(directory.path).count)
    #expect(segmentFiles(directory.path).count > 1)
    #expect(info["keyed"] as? Bool == false)
    #expect((info["snapshots"] as? [Any])?.count == fixture.snapshotSequences.count)
    let time = try #require(info["time"] as? [String: Any])
    #expect(time["first"] as? String == EventView.format(fixture.events[0].timestamp))
    #expect(time["last"] as? String == EventView.format(fixture.events[fixture.events.count - 1].timestamp))
    let text = runTool(["info", directory.path])
    #expect(text.output.contains("events     \(fixture.events.count) (sequence 1...\(fixture.events.count))"))
    #expect(text.output.contains("not keyed"))
  }

  @Test func eventsFilterByRangeTypeActorAndSource() throws {
    let directory = TemporaryDirectory()
    let fixture = try writeFixtureLog(directory.path)
    let result = runTool([
      "events", directory.path, "--from", "3", "--to=30", "--type", "add", "--type", "rename", "--actor",
      "alice",
      "--source", "user", "--source", "effect", "--json",
    ])
    #expect(result.status == 0, "\(result.errors)")
    let lines = result.output.split(separator: "\n").map(String.init)
    let objects = try lines.map { try #require(try parseJSON($0) as? [String: Any]) }
    let expected = fixture.events.filter { event in
      guard (3...30).contains(event.sequence), let action = event.action else { return false }
      let type = if case .rename = action { "rename" } else if case .add = action { "add" } else { "other" }
      let source =
        event.metadata.source == .user ? "user" : event.metadata.source.isEffect ? "effect" : "system"
      return type != "other" && event.metadata.actor == "alice" && source != "system"
    }
    #expect(objects.map { $0["sequence"] as? Int } == expected.map { Int($0.sequence) })
    #expect(!expected.isEmpty)
    for object in objects {
      #expect(object["actor"] as? String == "alice")
      #expect(["add", "rename"].contains(object["type"] as? String))
    }
    // Plain lines: one per event.
    let plain = runTool(["events", directory.path])
    #expect(plain.output.split(separator: "\n").count == fixture.events.count)
    #expect(plain.output.hasPrefix("#1  "))
    #expect(runTool(["events", directory.path, "--source", "robot"]).status == 64)
    #expect(runTool(["events", directory.path, "--from", "9", "--to", "2"]).status == 64)
  }

  @Test func showPrintsOneEventAsATree() throws {
    let directory = TemporaryDirectory()
    let fixture = try writeFixtureLog(directory.path)
    let rename = try #require(fixture.events.first { if case .rename = $0.action { true } else { false } })
    let text = runTool(["show", directory.path, String(rename.sequence)])
    #expect(text.status == 0, "\(text.errors)")
    #expect(text.output.contains("type        rename"))
    #expect(
      text.output.contains(
        "action: {1}\n  rename: {2}\n    index: 0\n    title: \"renamed \(rename.sequence)\""))
    let json = try #require(
      try parseJSON(runTool(["show", directory.path, String(rename.sequence), "--json"]).output)
        as? [String: Any])
    #expect(json["sequence"] as? Int == Int(rename.sequence))
    let payload = try #require((json["payload"] as? [String: Any])?["rename"] as? [String: Any])
    #expect(payload["title"] as? String == "renamed \(rename.sequence)")
    let missing = runTool(["show", directory.path, "999"])
    #expect(missing.status == 66)
    #expect(missing.errors.contains("no event 999; the log ends at event \(fixture.events.count)"))
    #expect(runTool(["show", directory.path, "zero"]).status == 64)
  }

  @Test func undoCommandsShowAsCommands() throws {
    let directory = TemporaryDirectory()
    try writeFixtureLog(directory.path)
    let json = try #require(
      try parseJSON(runTool(["show", directory.path, "11", "--json"]).output) as? [String: Any])
    #expect(json["kind"] as? String == "command")
    #expect(json["type"] as? String == "rewind.undo")
    #expect(((json["payload"] as? [String: Any])?["undo"] as? [String: Any])?["to"] as? Int == 9)
  }

  @Test func snapshotsAreListedAndChecked() throws {
    let directory = TemporaryDirectory()
    let fixture = try writeFixtureLog(directory.path)
    let list = try #require(
      try parseJSON(runTool(["snapshots", directory.path, "--json"]).output) as? [[String: Any]])
    #expect(list.map { $0["sequence"] as? Int } == fixture.snapshotSequences.reversed().map { Int($0) })
    #expect(list.allSatisfy { $0["usable"] as? Bool == true })
    let sequence = fixture.snapshotSequences[0]
    let state = runTool(["snapshots", directory.path, "--state", String(sequence)])
    #expect(state.output.contains("removals: \(fixture.states[Int(sequence)].removals)"))
    // A damaged snapshot is reported, not trusted.
    let file = directory.file(list[0]["file"] as? String ?? "")
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
    bytes[bytes.count / 2] ^= 0xFF
    try Data(bytes).write(to: URL(fileURLWithPath: file))
    let damaged = try #require(
      try parseJSON(runTool(["snapshots", directory.path, "--json"]).output) as? [[String: Any]])
    #expect(damaged[0]["usable"] as? Bool == false)
    #expect((damaged[0]["problem"] as? String)?.contains("checksum") == true)
  }

  @Test func exportWritesJSONLinesAndCloudEvents() throws {
    let directory = TemporaryDirectory()
    let fixture = try writeFixtureLog(directory.path)
    let output = directory.file("out.jsonl")
    let result = runTool(["export", directory.path, "--format", "jsonl", "--output", output])
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.errors.contains("exported \(fixture.events.count) events"))
    #expect(!FileManager.default.fileExists(atPath: output + ".partial"))
    let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == fixture.events.count)
    let eighth = try #require(try parseJSON(String(lines[7])) as? [String: Any])
    #expect(eighth["sequence"] as? Int == 8)
    #expect(((eighth["action"] as? [String: Any])?["add"] as? [String: Any])?["_0"] as? String == hostileText)

    // A CloudEvents batch: one JSON array, each event with the required attributes.
    let batch = runTool([
      "export", directory.path, "--format=cloudevents", "--source", "https://example.com/notes",
      "--type-prefix",
      "com.example.notes.", "--from", "3", "--to", "12",
    ])
    #expect(batch.status == 0, "\(batch.errors)")
    let events = try #require(try parseJSON(batch.output) as? [[String: Any]])
    #expect(events.count == 10)
    for (event, expected) in zip(events, fixture.events[2..<12]) {
      #expect(event["specversion"] as? String == "1.0")
      #expect(event["source"] as? String == "https://example.com/notes")
      #expect((event["type"] as? String)?.hasPrefix("com.example.notes.") == true)
      #expect((event["id"] as? String)?.isEmpty == false)
      #expect(Int(event["sequence"] as? String ?? "") == Int(expected.sequence))
    }
    // CloudEvents as JSON lines, the default.
    let cloudLines = runTool(["export", directory.path]).output.split(separator: "\n")
    #expect(cloudLines.count == fixture.events.count)
    #expect(
      try cloudLines.allSatisfy {
        (try parseJSON(String($0)) as? [String: Any])?["specversion"] as? String == "1.0"
      })

    #expect(runTool(["export", directory.path, "--format", "xml"]).status == 64)
    #expect(
      runTool(["export", directory.path, "--output", directory.file("missing/out.jsonl")]).status == 66)
  }

  @Test func exportStopsAtDamageWithExitOne() throws {
    let directory = TemporaryDirectory()
    try writeFixtureLog(directory.path)
    let segments = segmentFiles(directory.path)
    let path = directory.file(segments[1])
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    bytes[150] ^= 0x10
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let output = directory.file("events.json")
    let result = runTool(["export", directory.path, "--output", output])
    #expect(result.status == 1)
    #expect(result.errors.contains(segments[1]))
    // Nothing half-written is left under the output's name.
    #expect(!FileManager.default.fileExists(atPath: output))
    #expect(!FileManager.default.fileExists(atPath: output + ".partial"))
  }

  @Test func verifyReportsTheHeadAndChecksAnchors() throws {
    let directory = TemporaryDirectory()
    let fixture = try writeFixtureLog(directory.path)
    let verified = runTool(["verify", directory.path, "--json"])
    #expect(verified.status == 0, "\(verified.output)\(verified.errors)")
    let report = try #require(try parseJSON(verified.output) as? [String: Any])
    #expect(report["ok"] as? Bool == true)
    #expect(report["lastSequence"] as? Int == fixture.events.count)
    let head = try #require(report["head"] as? String)
    #expect(runTool(["verify", directory.path, "--anchor", head]).status == 0)
    // A wrong chain value at the same sequence number: modified.
    let parts = head.split(separator: ":")
    let wrong = "\(parts[0]):" + String(repeating: "0", count: 64)
    let mismatch = runTool(["verify", directory.path, "--anchor", wrong, "--json"])
    #expect(mismatch.status == 1)
    #expect(try #require(try parseJSON(mismatch.output) as? [String: Any])["ok"] as? Bool == false)
    #expect(runTool(["verify", directory.path, "--anchor", "12:nothex"]).status == 64)
  }

  @Test func truncationIsCaughtByTheAnchor() throws {
    let directory = TemporaryDirectory()
    try writeFixtureLog(directory.path)
    let head = try #require(
      (try parseJSON(runTool(["verify", directory.path, "--json"]).output) as? [String: Any])?["head"]
        as? String)
    // Remove the newest segment: what is left is a valid, shorter chain.
    let last = try #require(segmentFiles(directory.path).last)
    try FileManager.default.removeItem(atPath: directory.file(last))
    #expect(runTool(["verify", directory.path]).status == 0)
    let truncated = runTool(["verify", directory.path, "--anchor", head, "--json"])
    #expect(truncated.status == 1)
    let report = try #require(try parseJSON(truncated.output) as? [String: Any])
    #expect(report["problem"] as? String == "truncated")
    #expect(report["firstBadSequence"] as? Int == (report["lastSequence"] as? Int ?? -1) + 1)
  }

  @Test func keyedLogsNeedTheirKey() throws {
    let directory = TemporaryDirectory()
    let key = ChainKey.random()
    try writeFixtureLog(directory.path, count: 12, key: key)
    let keyFile = directory.file("chain.key")
    try (key.hexadecimal + "\n").write(toFile: keyFile, atomically: true, encoding: .utf8)
    let wrongFile = directory.file("wrong.key")
    try ChainKey.random().hexadecimal.write(toFile: wrongFile, atomically: true, encoding: .utf8)
    #expect(runTool(["verify", directory.path, "--key-file", keyFile]).status == 0)
    #expect(runTool(["verify", directory.path, "--key-file", wrongFile]).status == 1)
    let without = runTool(["info", directory.path])
    #expect(without.status == 64)
    #expect(without.errors.contains("--key-file"))
    let info = try #require(
      try parseJSON(runTool(["info", directory.path, "--key-file", keyFile, "--json"]).output)
        as? [String: Any])
    #expect(info["keyed"] as? Bool == true)
    #expect(runTool(["verify", directory.path, "--key-file", directory.file("none.key")]).status == 66)
  }

  @Test func repairSaysWhatItWillMoveAsideAndOnlyActsWithYes() throws {
    let directory = TemporaryDirectory()
    try writeFixtureLog(directory.path)
    #expect(runTool(["repair", directory.path]).status == 0)
    let segments = segmentFiles(directory.path)
    let damaged = directory.file(segments[1])
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: damaged)))
    bytes[200] ^= 0x55
    try Data(bytes).write(to: URL(fileURLWithPath: damaged))
    let dryRun = runTool(["repair", directory.path])
    #expect(dryRun.status == 1)
    #expect(dryRun.output.contains("would keep events 1..."))
    for later in segments.dropFirst(2) { #expect(dryRun.output.contains("\(later) (whole segment)")) }
    #expect(dryRun.output.contains("nothing changed"))
    #expect(segmentFiles(directory.path) == segments)
    let repaired = runTool(["repair", directory.path, "--yes"])
    #expect(repaired.status == 0, "\(repaired.errors)")
    #expect(repaired.output.contains("set aside"))
    #expect(runTool(["verify", directory.path]).status == 0)
    #expect(FileManager.default.fileExists(atPath: directory.file("quarantine")))
  }

  @Test func repairRefusesALogAnAppHasOpenIntactOrNot() throws {
    let directory = TemporaryDirectory()
    try writeFixtureLog(directory.path)
    let segments = segmentFiles(directory.path)
    let before = try segments.map { try Data(contentsOf: URL(fileURLWithPath: directory.file($0))) }
    let app = try FileJournal<Note>(directory: directory.path)
    for arguments in [["repair", directory.path], ["repair", directory.path, "--yes"]] {
      let refused = runTool(arguments)
      #expect(refused.status == 74, "\(arguments): \(refused.output)")
      #expect(refused.errors.contains("open in another process"), "\(refused.errors)")
      #expect(!refused.output.contains("nothing to repair"))
    }
    #expect(runTool(["verify", directory.path]).status == 0, "verify reads a log that is open")
    #expect(try segments.map { try Data(contentsOf: URL(fileURLWithPath: directory.file($0))) } == before)
    try app.close()
    let intact = runTool(["repair", directory.path, "--yes"])
    #expect(intact.status == 0)
    #expect(intact.output.contains("nothing to repair"))
  }

  @Test func jsonCodedEventsAreShownToo() throws {
    let directory = TemporaryDirectory()
    try writeFixtureLog(directory.path, count: 6, snapshotEvery: nil, codec: .json)
    let json = try #require(
      try parseJSON(runTool(["show", directory.path, "2", "--json"]).output) as? [String: Any])
    #expect(json["codec"] as? String == "json")
    #expect(json["actor"] as? String == "alice")
    #expect((json["payload"] as? [String: Any])?["add"] as? String == "note 2")
  }

  @Test func jsonCodedSnapshotsShowTheirState() throws {
    let directory = TemporaryDirectory()
    let fixture = try writeFixtureLog(directory.path, count: 20, snapshotEvery: 10, codec: .json)
    let state = runTool(["snapshots", directory.path, "--state", "20"])
    #expect(state.status == 0, "\(state.errors)")
    #expect(state.output.contains("removals: \(fixture.states[20].removals)"))
    for item in fixture.states[20].items { #expect(state.output.contains("\"\(item)\"")) }
  }

  @Test func anEmptyLogIsDescribedNotRefused() throws {
    let directory = TemporaryDirectory()
    try writeFixtureLog(directory.path, count: 0, snapshotEvery: nil)
    #expect(!segmentFiles(directory.path).isEmpty)
    let info = try #require(
      try parseJSON(runTool(["info", directory.path, "--json"]).output) as? [String: Any])
    #expect(info["events"] as? Int == 0)
    #expect(runTool(["verify", directory.path]).status == 0)
    #expect(runTool(["events", directory.path]).output.isEmpty)
    let page = runTool(["timeline", directory.path, "-o", "-"])
    #expect(page.status == 0)
    #expect(page.output.contains("\"events\":[]"))
  }

  @Test func progressIsDrawnOnlyOnATerminal() {
    let terminal = CapturedOutput(isTerminal: true)
    let bar = ProgressBar("work", total: 200, output: terminal)
    for step in 1...200 { bar.update(UInt64(step)) }
    bar.finish()
    #expect(terminal.text.contains("] 100%"))
    #expect(terminal.text.components(separatedBy: "\r").count - 1 == 102)  // 0%...100% and the erase
    let piped = CapturedOutput(isTerminal: false)
    let quiet = ProgressBar("work", total: 200, output: piped)
    for step in 1...200 { quiet.update(UInt64(step)) }
    quiet.finish()
    #expect(piped.text.isEmpty)
  }
}
