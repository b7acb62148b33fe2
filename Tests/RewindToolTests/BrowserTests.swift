import Foundation
import Rewind
import RewindLog
import RewindTestSupport
import Testing

@testable import RewindTool

/// The timeline opened in headless Chromium: the page's own script renders the events, and `#select=`
/// clicks one, so its payload tree (and, from a debugger, the change in state) is in the DOM.
///
/// Chromium comes from the system's packages (`Scripts/install-browser.sh`). Without it the test prints a
/// note and passes, unless `REWIND_REQUIRE_BROWSER=1` (set by `Scripts/check.sh`), where it fails.
@Suite struct BrowserTests {
  /// The package's root, for writing under `.build/`.
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()

  static func browser() -> String? {
    if let path = ProcessInfo.processInfo.environment["REWIND_BROWSER"] { return path }
    let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    for name in ["chromium", "chromium-browser", "google-chrome"] {
      for directory in paths {
        let candidate = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      }
    }
    return nil
  }

  /// Runs the browser headless on `url` with `extra` arguments; returns standard output. Killed after two
  /// minutes so a hung browser fails the test instead of the run.
  static func headless(_ browser: String, _ url: String, _ extra: [String], profile: String) throws -> String
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: browser)
    process.arguments =
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile)",
        "--virtual-time-budget=5000",
      ]
      + extra + [url]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let watchdog = DispatchWorkItem { process.terminate() }
    DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.cancel()
    #expect(process.terminationStatus == 0, "\(browser) exited with \(process.terminationStatus)")
    return String(decoding: data, as: UTF8.self)
  }

  /// The text between the first `start` and the next `end`.
  static func between(_ text: String, _ start: String, _ end: String) -> Substring? {
    guard let open = text.range(of: start),
      let close = text.range(of: end, range: open.upperBound..<text.endIndex)
    else { return nil }
    return text[open.upperBound..<close.lowerBound]
  }

  /// Text of an HTML text node, unescaped.
  static func text(_ html: Substring) -> String {
    html.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
  }

  @Test func timelineRendersAndSelectingAnEventShowsItsPayload() throws {
    guard let browser = Self.browser() else {
      if ProcessInfo.processInfo.environment["REWIND_REQUIRE_BROWSER"] == "1" {
        Issue.record(
          "Chromium is required (REWIND_REQUIRE_BROWSER=1) but not installed: run Scripts/install-browser.sh")
      } else {
        print(
          "note: BrowserTests skipped: no Chromium found; run Scripts/install-browser.sh to include this test"
        )
      }
      return
    }
    let directory = TemporaryDirectory()
    let fixture = try writeFixtureLog(directory.path, count: 30)
    let debugger = RewindDebugger(reducer: Notes(), initialState: Notes.State())
    let output = Self.packageRoot.appendingPathComponent(".build/rewind-timeline")
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    let page = output.appendingPathComponent("timeline.html").path
    let generated = runTool(["timeline", directory.path, "--output", page], tool: debugger.commandLine)
    #expect(generated.status == 0, "\(generated.errors)")
    let profile = TemporaryDirectory()

    // Select event 8, whose payload is the hostile string.
    let dom = try Self.headless(browser, "file://\(page)#select=8", ["--dump-dom"], profile: profile.path)
    guard dom.contains("data-ready=\"true\"") else {
      Issue.record("the page's script did not run; page at \(page)")
      return
    }
    let rows = dom.components(separatedBy: "<tr id=\"event-").count - 1
    #expect(rows == fixture.events.count)
    let marks = dom.components(separatedBy: "id=\"mark-").count - 1
    #expect(marks == fixture.events.count)
    let selected = try #require(dom.firstMatch(of: /<tr id="event-8"[^>]*>/)).output
    #expect(selected.contains("class=\"selected\""))
    let payload = try #require(Self.between(dom, "<div class=\"tree\" id=\"payload\">", "<h2>"))
    #expect(payload.contains("<span class=\"key\">add: </span>"))
    #expect(Self.text(payload).contains("</script><img src=x onerror="))
    #expect(!dom.contains("<img"), "the payload was parsed as HTML")
    #expect(dom.contains("<title>Rewind timeline: "))
    #expect(!dom.contains("pwned</title>"))
    // The state after event 8, from the debugger.
    let state = try #require(Self.between(dom, "<div class=\"tree\" id=\"state\">", "<div id=\"snapshots\">"))
    for item in fixture.states[8].items where !item.contains("<") { #expect(state.contains(item)) }

    // Select 10 and compare with 20: the page's diff matches the tool's.
    let compare = try Self.headless(
      browser, "file://\(page)#select=10&compare=20", ["--dump-dom"], profile: profile.path)
    #expect(try #require(compare.firstMatch(of: /<tr id="event-20"[^>]*>/)).output.contains("compared"))
    let lines = compare.matches(of: /<div class="diff-(?:add|del|chg)">(.*?)<\/div>/.dotMatchesNewlines()).map
    { Self.text($0.output.1) }
    let expected = StateChange.between(
      JSONValue(try BinaryEncoder().encodeTree(fixture.states[10])),
      JSONValue(try BinaryEncoder().encodeTree(fixture.states[20])))
    #expect(!expected.isEmpty)
    #expect(lines == expected.map(\.line))

    // A screenshot for a look by eye.
    let screenshot = output.appendingPathComponent("timeline.png").path
    try? FileManager.default.removeItem(atPath: screenshot)
    _ = try Self.headless(
      browser, "file://\(page)#select=10&compare=20",
      ["--window-size=1400,900", "--screenshot=\(screenshot)"],
      profile: profile.path)
    #expect(FileManager.default.fileExists(atPath: screenshot))
    print("timeline screenshot: \(screenshot)")
  }

  /// A run of one kind of event (a drag's dozen changes) is one row that opens on a click; selecting an
  /// event inside it opens it.
  @Test func aRunOfOneKindFoldsIntoOneRowThatOpensWhenAnEventInItIsSelected() throws {
    guard let browser = Self.browser() else {
      if ProcessInfo.processInfo.environment["REWIND_REQUIRE_BROWSER"] == "1" {
        Issue.record(
          "Chromium is required (REWIND_REQUIRE_BROWSER=1) but not installed: run Scripts/install-browser.sh")
      }
      return
    }
    let directory = TemporaryDirectory()
    let journal = try FileJournal<Note>(directory: directory.path)
    // #1 add, #2...#13 twelve renames by one person, #14 add, #15 a second run too short to fold (3).
    let actions: [Note] =
      [.add("a")] + (1...12).map { .rename(index: 0, title: "t\($0)") } + [.add("b")]
      + (1...3).map { .rename(index: 1, title: "u\($0)") }
    for (index, action) in actions.enumerated() {
      let sequence = UInt64(index + 1)
      try journal.append(
        Event(
          sequence: sequence, timestamp: Date(timeIntervalSince1970: 1_700_000_000 + Double(sequence)),
          metadata: EventMetadata(
            actor: "alice", source: .user, correlationID: CorrelationID(rawValue: sequence)),
          action: action))
    }
    try journal.close()
    let output = Self.packageRoot.appendingPathComponent(".build/rewind-timeline")
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    let page = output.appendingPathComponent("timeline-folds.html").path
    let generated = runTool(["timeline", directory.path, "--output", page])
    #expect(generated.status == 0, "\(generated.errors)")
    let profile = TemporaryDirectory()

    let closed = try Self.headless(browser, "file://\(page)", ["--dump-dom"], profile: profile.path)
    guard closed.contains("data-ready=\"true\"") else {
      Issue.record("the page's script did not run; page at \(page)")
      return
    }
    let folds = closed.matches(of: /<tr class="fold" id="fold-(\d+)"[^>]*>/).map { String($0.output.1) }
    #expect(folds == ["2"], "one fold, for the twelve renames")
    let fold = try #require(Self.between(closed, "id=\"fold-2\"", "</tr>"))
    #expect(fold.contains("rename(index:title:) ×12") && fold.contains("#2–#13"))
    #expect(closed.matches(of: /<tr class="folded"[^>]*hidden[^>]*>/).count == 12)
    #expect(closed.components(separatedBy: "<tr id=\"event-").count - 1 == 5, "the unfolded events")

    let opened = try Self.headless(browser, "file://\(page)#select=7", ["--dump-dom"], profile: profile.path)
    let selected = try #require(opened.firstMatch(of: /<tr [^>]*id="event-7"[^>]*>/)).output
    #expect(selected.contains("selected") && !selected.contains("hidden"))
    #expect(
      try #require(opened.firstMatch(of: /<tr class="fold" id="fold-2"[^>]*>/)).output.contains(
        "data-open=\"true\""))
    #expect(opened.matches(of: /<tr class="folded[^"]*"[^>]*hidden[^>]*>/).isEmpty)
  }
}
