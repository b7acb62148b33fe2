import Foundation
import InboxCore
import RewindInspector
import RewindTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

/// The live page end to end: the Inbox runs with `--inspect` in a pseudo-terminal, the built `rewind attach`
/// serves the page, and headless Chromium drives it as a person would: sends appear, search finds a
/// payload, a jump changes the Inbox's screen, skip strikes an event out and changes the screen, live
/// brings everything back, dispatch is refused with the app's reason or accepted, a wrong token is refused.
///
/// Chromium comes from `Scripts/install-browser.sh`; without it the test prints a note and passes, unless
/// `REWIND_REQUIRE_BROWSER=1` (set by `Scripts/check.sh`), where it fails.
@Suite(.timeLimit(.minutes(3))) struct InboxLiveTimelineTests {
  @Test func theLivePageWatchesAndSteersTheRunningInbox() async throws {
    // Blocking on a terminal, processes and a browser for seconds: off the cooperative pool.
    try await onOwnThread { try Self.watchAndSteer() }
  }

  static func watchAndSteer() throws {
    guard let browserPath = HeadlessBrowser.find() else {
      if ProcessInfo.processInfo.environment["REWIND_REQUIRE_BROWSER"] == "1" {
        Issue.record(
          "Chromium is required (REWIND_REQUIRE_BROWSER=1) but not installed: run Scripts/install-browser.sh")
      } else {
        print(
          "note: InboxLiveTimelineTests skipped: no Chromium found; run Scripts/install-browser.sh to include it"
        )
      }
      return
    }
    let inbox = try #require(inboxExecutable(), "the Inbox executable is not built")
    let rewind = try #require(rewindExecutable(), "the rewind executable is not built")
    let directory = TemporaryDirectory("live")
    let tokenFile = directory.file("token.json")
    let terminal = try PseudoTerminal(
      inbox, ["--inspect", "--directory", directory.file("log"), "--token-file", tokenFile])
    defer { terminal.stop() }
    try terminal.waitForScreen("the inspector started") { $0.text.contains("inspector on 127.0.0.1:") }

    // Five sends from the keyboard: select rows 2, 3, 4, 3, 4.
    for key in ["j", "j", "j", "k", "j"] {
      let before = terminal.lastScreen?.header ?? ""
      terminal.send(key)
      try terminal.waitForScreen("key \(key) recorded") {
        $0.header != before && $0.header.contains("event #")
      }
    }
    try terminal.waitForScreen("five events") { $0.header.contains("event #5") }

    // The tool attaches and prints the page's address.
    let attach = Process()
    attach.executableURL = URL(fileURLWithPath: rewind)
    attach.arguments = ["attach", tokenFile]
    let output = Pipe()
    attach.standardOutput = output
    attach.standardError = FileHandle.nullDevice
    try attach.run()
    defer {
      if attach.isRunning { kill(attach.processIdentifier, SIGKILL) }
    }
    let line = try Self.firstLine(of: output.fileHandleForReading)
    let url = try #require(line.split(separator: " ").last.map(String.init), "no address in \(line)")
    #expect(url.hasPrefix("http://127.0.0.1:") && url.contains("?token="))

    let browser = try HeadlessBrowser(executable: browserPath, profile: directory.file("profile"))
    defer { browser.close() }
    try browser.open(url)
    // Five selects in a row fold into one row, which opens on a click.
    try browser.waitFor(
      "the five sends, folded",
      #"document.body.dataset.received === "5" && !!document.getElementById("fold-1")"#)
    #expect(
      try browser.evaluate(#"document.getElementById("fold-1").textContent.includes("select ×5")"#) as? Bool
        == true)
    try browser.evaluate(#"document.getElementById("fold-1").click()"#)
    try browser.waitFor("the five sends listed", #"!!document.getElementById("event-5")"#)
    #expect(
      try browser.evaluate(#"document.getElementById("event-3").querySelector(".type").textContent"#)
        as? String == "select")

    // Search by payload text: the select of row 4 (sent twice).
    try browser.evaluate(
      #"(() => { const s = document.getElementById("search"); s.value = 'type:select payload:"id":4'; s.dispatchEvent(new Event("input")); })()"#
    )
    try browser.waitFor("the search", #"document.getElementById("matches").textContent === "2 matches""#)
    #expect(
      try browser.evaluate(#"[...document.querySelectorAll(".row")].map(r => r.dataset.seq).join(",")"#)
        as? String == "3,5")
    try browser.evaluate(
      #"(() => { const s = document.getElementById("search"); s.value = ""; s.dispatchEvent(new Event("input")); })()"#
    )

    // Jump to event 1: the Inbox shows row 2 selected, as it was then.
    try browser.waitFor("event 1 listed", #"!!document.getElementById("event-1")"#)
    try browser.evaluate(#"document.getElementById("event-1").click()"#)
    try browser.evaluate(#"document.getElementById("jump-selected").click()"#)
    try browser.waitFor(
      "the jump", #"document.body.dataset.mode === "past" && document.body.dataset.shown === "1""#)
    try terminal.waitForScreen("the Inbox at event 1") { screen in
      screen.header.contains("event #1") && screen.text.contains("inspector: showing event #1 of #5")
        && screen.selectedRow?.contains("Grace") == true
    }

    // Skip event 5 at the newest event: the Inbox shows the selection of event 4, event 5 is struck out.
    try browser.evaluate(
      #"document.getElementById("slider").value = "5"; document.getElementById("slider").dispatchEvent(new Event("change"))"#
    )
    try browser.waitFor("the jump to 5", #"document.body.dataset.shown === "5""#)
    try browser.evaluate(#"document.getElementById("event-5").click()"#)
    try browser.evaluate(#"document.getElementById("skip-selected").click()"#)
    try browser.waitFor(
      "event 5 skipped",
      #"document.body.dataset.skipped === "5" && document.getElementById("event-5").classList.contains("skipped")"#
    )
    #expect(
      try browser.evaluate(
        ##"getComputedStyle(document.querySelector("#event-5 .type")).textDecorationLine"##) as? String
        == "line-through")
    try terminal.waitForScreen("the Inbox without event 5") { screen in
      screen.text.contains("without #5") && screen.selectedRow?.contains("Linus") == true
    }

    // Back to live: the recorded state again.
    try browser.evaluate(#"document.getElementById("live").click()"#)
    try browser.waitFor(
      "live", #"document.body.dataset.mode === "live" && document.body.dataset.skipped === """#)
    try terminal.waitForScreen("the Inbox live") { screen in
      screen.header.contains("event #5") && !screen.text.contains("inspector: showing")
        && screen.selectedRow?.contains("Margaret") == true
    }

    // Dispatch: a type the Inbox does not allow is refused with its reason; an allowed one is sent.
    try browser.evaluate(
      #"document.getElementById("dispatch-json").value = '{"delete":{"id":2}}'; document.getElementById("dispatch-go").click()"#
    )
    try browser.waitFor(
      "the refusal",
      #"document.getElementById("dispatch-result").textContent.includes("delete is not an action type this app allows")"#
    )
    try browser.evaluate(
      #"document.getElementById("dispatch-json").value = '{"toggleFlag":{"id":2}}'; document.getElementById("dispatch-go").click()"#
    )
    try browser.waitFor(
      "the dispatch",
      #"document.getElementById("dispatch-result").textContent.includes("sent as #6 (toggleFlag)") && !!document.getElementById("event-6")"#
    )
    try terminal.waitForScreen("the flag on the Inbox") { $0.header.contains("event #6") }

    // The page's token is required: the same requests without it are refused.
    let origin = String(url.prefix { $0 != "?" })
    #expect(
      try browser.evaluate(#"fetch("/api/events?from=1&to=2&token=0000").then(r => r.status)"#) as? Int == 403
    )
    #expect(try browser.evaluate(#"fetch("/api/events?from=1&to=2").then(r => r.status)"#) as? Int == 403)
    try browser.open(origin + "?token=" + String(repeating: "0", count: 64))
    try browser.waitFor("the refusal page", #"document.body.innerText.includes("refused")"#)

    // And the app's token: a tool with a wrong one is refused by the Inbox, before the one-tool rule; with
    // the right one, a second tool is refused while the first is attached.
    let wrong = directory.file("wrong.json")
    let file = try TokenFile.read(from: tokenFile)
    try TokenFile(port: file.port, token: InspectorToken.random(), processID: 0).write(to: wrong)
    let wrongToken = try Self.attachOnce(rewind, tokenFile: wrong, export: directory.file("never.jsonl"))
    #expect(wrongToken.status == 66)
    #expect(wrongToken.errors.contains("refused the connection (token)"), "\(wrongToken.errors)")
    let second = try Self.attachOnce(rewind, tokenFile: tokenFile, export: directory.file("busy.jsonl"))
    #expect(second.status == 66)
    #expect(second.errors.contains("refused the connection (busy)"), "\(second.errors)")
    #expect(attach.isRunning, "the first tool stays attached")

    terminal.send("q")
    #expect(try terminal.waitForExit() == 0)
  }

  /// Runs `rewind attach TOKEN-FILE --export FILE` to its end: its exit status and standard error.
  static func attachOnce(_ rewind: String, tokenFile: String, export: String) throws -> (
    status: Int32, errors: String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: rewind)
    process.arguments = ["attach", tokenFile, "--export", export]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
  }

  /// The first line `handle` yields, within 30 seconds.
  static func firstLine(of handle: FileHandle) throws -> String {
    var bytes: [UInt8] = []
    let deadline = Date(timeIntervalSinceNow: 30)
    while Date() < deadline {
      var descriptor = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, 100) > 0 else { continue }
      var byte: UInt8 = 0
      guard read(handle.fileDescriptor, &byte, 1) == 1 else { break }
      if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
      bytes.append(byte)
    }
    throw BrowserError.failed("rewind attach printed no address: \(String(decoding: bytes, as: UTF8.self))")
  }
}
