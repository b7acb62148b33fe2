import Foundation
import InboxCore
import RewindLog
import RewindTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

/// The interactive mode through a pseudo-terminal: keys in, screen out.
@Suite struct InboxTerminalTests {
  @Test func archiveUndoEditAndQuitThroughAPseudoTerminal() throws {
    let executable = try #require(
      inboxExecutable(), "the Inbox executable is not built; run `swift build` first")
    let directory = TemporaryDirectory("terminal", create: false)
    let terminal = try PseudoTerminal(executable, ["--interactive", "--directory", directory.path])
    defer { terminal.stop() }

    try terminal.waitForScreen("the initial list") { $0.list.contains { $0.contains("Compiler review") } }
    terminal.send("j")
    try terminal.waitForScreen("row #2 selected") { $0.selectedRow?.contains("Grace") == true }

    // ← opens the right buttons on the selected row.
    terminal.send("\u{1B}[D")
    try terminal.waitForScreen("Archive and Delete drawn") {
      $0.selectedRow?.contains("[Delete][Archive]") == true
    }
    terminal.send("\u{1B}")
    try terminal.waitForScreen("the cell closed again") { $0.selectedRow?.contains("[Archive]") == false }

    terminal.send("a")
    try terminal.waitForScreen("Compiler review archived") { screen in
      !screen.list.contains { $0.contains("Compiler review") } && screen.header.contains("3 mails")
        && screen.header.contains("1 archived")
    }
    terminal.send("u")
    try terminal.waitForScreen("Compiler review back after undo") { screen in
      screen.list.contains { $0.contains("Compiler review") } && screen.header.contains("4 mails")
    }

    // e edits the selected subject: typing appends, Enter saves, u undoes the whole edit.
    terminal.send("e")
    try terminal.waitForScreen("the editor open") { $0.text.contains("Editing #2") }
    terminal.send("!?")
    try terminal.waitForScreen("the typed text") { $0.text.contains("Compiler review!?") }
    terminal.send("\r")
    try terminal.waitForScreen("the edit saved") { screen in
      !screen.text.contains("Editing #2") && screen.list.contains { $0.contains("Compiler review!?") }
    }
    terminal.send("u")
    try terminal.waitForScreen("the edit undone") { screen in
      screen.list.contains { $0.contains("Compiler review ") } && !screen.text.contains("review!?")
    }

    terminal.send("q")
    let status = try terminal.waitForExit()
    #expect(
      status == 0, "Inbox exited with \(status); last screen:\n\(terminal.lastScreen?.text ?? "(none)")")
    #expect(terminal.output.contains("\u{1B}[?1049l"), "the alternate screen was not left")

    // Everything the keys did is in the log, and the chain verifies.
    let report = try LogAudit.verify(directory: directory.path).requireIntact()
    #expect(report.lastSequence > 0)
  }
}

extension InboxTerminalTests {
  @Test func sigintRestoresTheTerminal() throws {
    let executable = try #require(
      inboxExecutable(), "the Inbox executable is not built; run `swift build` first")
    let directory = TemporaryDirectory("sigint", create: false)
    let terminal = try PseudoTerminal(executable, ["--interactive", "--directory", directory.path])
    defer { terminal.stop() }
    try terminal.waitForScreen("the initial list") { $0.list.count == 4 }
    #expect(terminal.localFlags & tcflag_t(ICANON) == 0, "raw mode while running")
    kill(terminal.process.processIdentifier, SIGINT)
    let status = try terminal.waitForExit()
    #expect(status == 128 + SIGINT)
    #expect(
      terminal.localFlags & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO),
      "canonical mode and echo restored")
    #expect(terminal.output.contains("\u{1B}[?1049l"), "the alternate screen was left")
  }
}

/// A child process whose standard input, output and error are the slave side of a pseudo-terminal.
final class PseudoTerminal {
  let process = Process()
  let master: Int32
  private(set) var output = ""
  private var bytes: [UInt8] = []
  private let watchdog: Watchdog

  /// One drawn frame of the terminal UI, without escapes.
  struct Screen {
    var text: String
    var lines: [String] { text.components(separatedBy: "\r\n") }
    var header: String { lines.first ?? "" }
    /// The rows between the two rules.
    var list: [String] {
      let all = lines
      guard let first = all.firstIndex(of: InboxScreen.rule),
        let last = all[(first + 1)...].firstIndex(of: InboxScreen.rule)
      else { return [] }
      return Array(all[(first + 1)..<last])
    }
    var selectedRow: String? { list.first { $0.hasPrefix("▸") } }
  }

  init(_ executable: String, _ arguments: [String]) throws {
    var master: Int32 = -1
    var slave: Int32 = -1
    guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw PseudoTerminalError.unavailable(errno) }
    self.master = master
    let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardInput = handle
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    // The child has its own copies; without closing ours, reads would never see the end of output.
    try handle.close()
    watchdog = Watchdog(pid: process.processIdentifier, after: 120)
  }

  /// The terminal's local mode flags (`ICANON`, `ECHO`, …), as the child last set them.
  var localFlags: tcflag_t {
    var settings = termios()
    tcgetattr(master, &settings)
    return settings.c_lflag
  }

  func send(_ keys: String) {
    let data = Array(keys.utf8)
    _ = data.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
  }

  /// The newest complete frame (each starts with cursor-home and ends with clear-to-end-of-screen).
  var lastScreen: Screen? {
    let frames = output.components(separatedBy: "\u{1B}[H").filter { $0.contains("\u{1B}[J") }
    return frames.last.map { Screen(text: strippingEscapes($0)) }
  }

  /// Reads output until the newest frame satisfies `condition`; fails naming `what` after `timeout`.
  func waitForScreen(_ what: String, timeout: Double = 20, _ condition: (Screen) -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if let screen = lastScreen, condition(screen) { return }
      guard readOutput(milliseconds: 50) else { break }
    }
    if let screen = lastScreen, condition(screen) { return }
    throw PseudoTerminalError.timedOut(what, lastScreen?.text ?? strippingEscapes(output))
  }

  /// Reads what is available within `milliseconds`; false at the end of output.
  @discardableResult
  func readOutput(milliseconds: Int32) -> Bool {
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, milliseconds) > 0 else { return true }
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
    guard count > 0 else { return false }
    bytes += buffer[..<count]
    // Frames are decoded whole; a multi-byte character split across reads waits for its rest.
    output = String(decoding: bytes, as: UTF8.self)
    return true
  }

  /// Waits for the child to exit, draining its output; its exit status.
  func waitForExit(timeout: Double = 20) throws -> Int32 {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline {
      if !readOutput(milliseconds: 50) { usleep(10_000) }  // waits for the child to exit
    }
    guard !process.isRunning else { throw PseudoTerminalError.timedOut("exit", lastScreen?.text ?? "") }
    process.waitUntilExit()
    while readOutput(milliseconds: 0) && pollReady() {}
    return process.terminationStatus
  }

  private func pollReady() -> Bool {
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLIN) != 0
  }

  /// Kills the child if it still runs and closes the terminal.
  func stop() {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    _ = watchdog.finish()
    close(master)
  }
}

enum PseudoTerminalError: Error, CustomStringConvertible {
  case unavailable(Int32)
  case timedOut(String, String)

  var description: String {
    switch self {
    case .unavailable(let code): "no pseudo-terminal: errno \(code)"
    case .timedOut(let what, let screen): "timed out waiting for \(what); the last screen was:\n\(screen)"
    }
  }
}
