import Foundation
import RewindLog
import RewindTestSupport
import Testing

@testable import RewindTool

/// `RewindDebugger` with a small reducer on a real log that has undo commands.
@Suite struct DebuggerTests {
  let debugger = RewindDebugger(reducer: Notes(), initialState: Notes.State())

  func tree(_ state: Notes.State) throws -> JSONValue { JSONValue(try BinaryEncoder().encodeTree(state)) }

  func run(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
    runTool(arguments, tool: debugger.commandLine)
  }

  @Test func stateAtEveryEventMatchesALiveReduce() throws {
    let directory = TemporaryDirectory()
    let fixture = try writeFixtureLog(directory.path, count: 30)
    for sequence in 0...UInt64(fixture.events.count) {
      #expect(
        try debugger.state(at: sequence, directory: directory.path) == fixture.states[Int(sequence)],
        "event \(sequence)")
    }
    let result = run(["state-at", directory.path, "22", "--json"])
    #expect(result.status == 0, "\(result.errors)")
    let parsed = try #require(try parseJSON(result.output) as? [String: Any])
    #expect(parsed["items"] as? [String] == fixture.states[22].items)
    #expect(run(["state-at", directory.path, "31"]).status == 66)
  }

  @Test func diffListsTheChangedPaths() throws {
    let directory = TemporaryDirectory()
    let fixture = try writeFixtureLog(directory.path, count: 30)
    let expected = StateChange.between(try tree(fixture.states[5]), try tree(fixture.states[17]))
    #expect(!expected.isEmpty)
    let text = run(["diff", directory.path, "5", "17"])
    #expect(text.status == 0, "\(text.errors)")
    #expect(text.output == expected.map(\.line).joined(separator: "\n") + "\n")
    let json = try #require(
      try parseJSON(run(["diff", directory.path, "5", "17", "--json"]).output) as? [[String: Any]])
    #expect(json.map { $0["path"] as? String } == expected.map(\.path))
    #expect(run(["diff", directory.path, "9", "9"]).output.contains("no difference"))
  }

  @Test func replayPrintsTheFinalStateOrEachStep() throws {
    let directory = TemporaryDirectory()
    let fixture = try writeFixtureLog(directory.path, count: 30)
    let replayed = try #require(
      try parseJSON(run(["replay", directory.path, "--json"]).output) as? [String: Any])
    #expect(replayed["ok"] as? Bool == true)
    let final = try #require(replayed["state"] as? [String: Any])
    #expect(final["items"] as? [String] == fixture.states[30].items)
    #expect(final["removals"] as? Int == fixture.states[30].removals)
    let text = run(["replay", directory.path])
    #expect(text.status == 0)
    #expect(text.output.hasPrefix("OK \(directory.path): replayed events 1...30; no fingerprints to check"))
    let each = run(["replay", directory.path, "--each", "--json", "--to", "12"]).output.split(separator: "\n")
    #expect(each.count == 12)
    let eleventh = try #require(try parseJSON(String(each[10])) as? [String: Any])
    #expect(eleventh["event"] as? String == "undo (to #9)")
    #expect((eleventh["state"] as? [String: Any])?["items"] as? [String] == fixture.states[9].items)
  }

  @Test func debuggerKeepsTheStandardCommandsAndHelp() {
    let names = debugger.commandLine.commands.map(\.spec.name)
    #expect(names.filter { $0 == "timeline" }.count == 1)
    for name in [
      "info", "verify", "events", "show", "snapshots", "export", "repair", "timeline", "replay", "state-at",
      "diff",
    ] {
      #expect(names.contains(name))
      #expect(run([name, "--help"]).status == 0)
    }
  }
}

/// The timeline page: self-contained, escaped, and with states when a debugger made it.
@Suite struct TimelineTests {
  @Test func pageIsSelfContainedAndEscapesPayloads() throws {
    let directory = TemporaryDirectory()
    let fixture = try writeFixtureLog(directory.path)
    let result = runTool(["timeline", directory.path, "--output", "-"])
    #expect(result.status == 0, "\(result.errors)")
    let html = result.output
    // No network: nothing is loaded from anywhere.
    for reference in ["http://", "https://", "src=\"", "href=", "@import", "url("] {
      #expect(!html.contains(reference), "found \(reference)")
    }
    // The hostile payload appears only escaped: exactly the page's own two script elements close.
    #expect(html.components(separatedBy: "</script>").count - 1 == 2)
    #expect(!html.contains("<img"))
    // The embedded data parses and holds every event, the hostile text intact.
    let start = try #require(html.range(of: "<script type=\"application/json\" id=\"rewind-data\">"))
    let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
    let data = try #require(try parseJSON(String(html[start.upperBound..<end.lowerBound])) as? [String: Any])
    let events = try #require(data["events"] as? [[String: Any]])
    #expect(events.count == fixture.events.count)
    #expect((events[7]["payload"] as? [String: Any])?["add"] as? String == hostileText)
    #expect((data["snapshots"] as? [Any])?.count == fixture.snapshotSequences.count)
    #expect(events.allSatisfy { $0["state"] == nil })
  }

  @Test func titlesAreEscaped() {
    #expect(TimelinePage.escapeHTML("<b a=\"x\">&'") == "&lt;b a=&quot;x&quot;&gt;&amp;&#39;")
  }

  @Test func debuggerTimelineCarriesTheStateAfterEachEvent() throws {
    let directory = TemporaryDirectory()
    let fixture = try writeFixtureLog(directory.path, count: 20)
    let debugger = RewindDebugger(reducer: Notes(), initialState: Notes.State())
    let result = runTool(["timeline", directory.path, "-o", "-", "--from", "3"], tool: debugger.commandLine)
    #expect(result.status == 0, "\(result.errors)")
    let html = result.output
    let start = try #require(html.range(of: "id=\"rewind-data\">"))
    let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
    let data = try #require(try parseJSON(String(html[start.upperBound..<end.lowerBound])) as? [String: Any])
    let events = try #require(data["events"] as? [[String: Any]])
    #expect(events.map { $0["sequence"] as? Int } == Array(3...20))
    for event in events {
      let sequence = try #require(event["sequence"] as? Int)
      #expect((event["state"] as? [String: Any])?["items"] as? [String] == fixture.states[sequence].items)
    }
    let without = runTool(["timeline", directory.path, "-o", "-", "--no-states"], tool: debugger.commandLine)
      .output
    let rest = try #require(without.range(of: "id=\"rewind-data\">"))
    let close = try #require(without.range(of: "</script>", range: rest.upperBound..<without.endIndex))
    let plain = try #require(
      try parseJSON(String(without[rest.upperBound..<close.lowerBound])) as? [String: Any])
    #expect((plain["events"] as? [[String: Any]])?.allSatisfy { $0["state"] == nil } == true)
  }
}
