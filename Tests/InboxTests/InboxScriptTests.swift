import Foundation
import InboxCore
import Rewind
import RewindLog
import RewindTestSupport
import Testing

/// The README's main command as a test: the real `Inbox` executable, its output checked line by line.
@Suite struct InboxScriptTests {
  /// Runs `Inbox` with `arguments`, standard output a pipe (so the scripted mode is the default); kills it
  /// after `timeout` seconds.
  func runInbox(_ arguments: [String], timeout: Double = 120) throws -> (
    status: Int32, output: String, timedOut: Bool
  ) {
    let executable = try #require(
      inboxExecutable(), "the Inbox executable is not built; run `swift build` first")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let watchdog = Watchdog(pid: process.processIdentifier, after: timeout)
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self), watchdog.finish())
  }

  @Test func scriptedRunShowsEventsChangesetsUndoReplayAndVerification() throws {
    let directory = TemporaryDirectory("script", create: false)
    let run = try runInbox(["--directory", directory.path])
    #expect(!run.timedOut, "Inbox did not finish within the time limit; output so far:\n\(run.output)")
    #expect(run.status == 0, "Inbox exited with \(run.status):\n\(run.output)")
    let lines = run.output.split(separator: "\n").map(String.init)
    func expectLine(_ fragment: String, _ comment: String) {
      #expect(
        lines.contains { $0.contains(fragment) }, "\(comment): no line contains “\(fragment)”:\n\(run.output)"
      )
    }
    expectLine("A new log", "a fresh directory starts a new log")
    expectLine("list subscriber ← initial: 4 rows #1 #2 #3 #4", "the subscriber's first delivery")
    // Events, with their source.
    expectLine("[user you] swipe #2 panBegan", "the swipe gesture is recorded")
    expectLine("[user you] swipe #2 tap flag", "the tap on Flag")
    expectLine("] toggle flag of #2", "the flag decision")
    expectLine("[effect of #", "decisions are sent by effects, naming their cause")
    expectLine("] archive #3", "the full swipe archives")
    expectLine("animation 1 finished", "an animation's end is one event")
    #expect(
      lines.contains {
        $0.contains("who archived #3?") && $0.contains("finished ← #") && $0.hasSuffix("by you")
      },
      "the archive's causes lead to the person's swipe:\n\(run.output)")
    expectLine("no frame is recorded", "the screen samples the animation without sending frames")
    expectLine("begin transaction “Edit Subject”", "an edit is a transaction")
    expectLine("Not saved: A subject cannot be empty", "the empty subject is refused")
    expectLine("auto-saved draft: “Lunch on Friday at noon?”", "auto-save")
    expectLine("saved: “Lunch on Friday at noon?”", "the valid edit is saved")
    expectLine("carousel: item 2 of 2 (map.png)", "the carousel scrolled")
    // Changesets, as the list subscriber receives them.
    expectLine("updated #2 (⚑ “Compiler review”)", "the flag reaches the subscriber as an update")
    expectLine(": deleted #3", "the archive reaches the subscriber as a deletion")
    expectLine("updated #1 (“Lunch on Friday at noon?”)", "the edit reaches the subscriber")
    // Undo and redo.
    expectLine("▸ Undo (Edit Subject)", "undo names its step")
    expectLine("undo: back to the state as of #", "the undo is an event")
    expectLine("redo: forward to the state as of #", "the redo is an event")
    expectLine("updated #1 (“Lunch on Friday?”)", "undo reaches the subscriber")
    // Replay and verification.
    #expect(
      lines.contains { $0.hasPrefix("Reopened: replayed") && $0.hasSuffix("same state ✓") }, "\(run.output)")
    #expect(lines.contains { $0.hasPrefix("Verified") && $0.hasSuffix("chain verified ✓") }, "\(run.output)")
    expectLine("redo “Edit Subject” is still available.", "the undo history survives reopening")
    #expect(!run.output.contains("✗"), "\(run.output)")
    #expect(!run.output.contains("diagnostic:"), "\(run.output)")
  }

  @Test func repeatedRunsContinueTheSameLog() throws {
    let directory = TemporaryDirectory("repeat", create: false)
    let first = try runInbox(["--script", "--directory", directory.path])
    #expect(first.status == 0 && !first.timedOut, "\(first.output)")
    let second = try runInbox(["--script", "--directory", directory.path])
    #expect(second.status == 0 && !second.timedOut, "\(second.output)")
    let firstCount = try #require(verifiedEventCount(first.output), "\(first.output)")
    let secondCount = try #require(verifiedEventCount(second.output), "\(second.output)")
    #expect(second.output.contains("The log already holds \(firstCount) events"), "\(second.output)")
    #expect(second.output.contains("reset to the sample inbox"), "\(second.output)")
    // The second run appends a reset and the same session: nothing was rewritten.
    #expect(secondCount > firstCount)
    #expect(
      second.output.contains("same state ✓") && second.output.contains("chain verified ✓"), "\(second.output)"
    )
  }

  @Test func unknownArgumentsAreRefusedWithTheUsage() throws {
    let run = try runInbox(["--frobnicate"])
    #expect(run.status == 2)
    #expect(
      run.output.contains("unknown argument --frobnicate") && run.output.contains("usage:"), "\(run.output)")
  }

  @Test func theInteractiveModeWithoutATerminalIsRefusedAndCreatesNothing() throws {
    let directory = TemporaryDirectory("no-terminal", create: false)
    let run = try runInbox(["--interactive", "--directory", directory.path])
    #expect(run.status == 2)
    #expect(run.output.contains("needs a terminal"), "\(run.output)")
    #expect(!FileManager.default.fileExists(atPath: directory.path))
  }

  @Test func theScriptedLogHoldsIntentsNotDisplayFrames() async throws {
    let directory = TemporaryDirectory("intents", create: false)
    let run = try runInbox(["--directory", directory.path])
    #expect(run.status == 0 && !run.timedOut, "\(run.output)")
    let journal = try FileJournal<InboxAction>(directory: directory.path)
    let events = try journal.events(in: 1...journal.lastSequence)
    try journal.close()
    var counts: [String: Int] = [:]
    for event in events { counts[Self.kind(of: event), default: 0] += 1 }
    // What a person did, and the events that matter: nothing else.
    #expect(counts["swipe gesture"] == 9, "two swipes of four events, one tap: \(counts)")
    #expect(counts["swipe animation finished"] == 3, "\(counts)")
    #expect(counts["auto-save"] == 1, "\(counts)")
    #expect(counts["decision"] == 2, "a flag and an archive: \(counts)")
    // The carousel: one scroll request and its end, sent by the carousel's timer and caused by the request.
    #expect(counts["carousel request"] == 1 && counts["carousel scroll finished"] == 1, "\(counts)")
    let scroll = try #require(
      events.first { if case .carousel(.scrollByItems) = $0.action { true } else { false } })
    let finished = try #require(events.first { Self.kind(of: $0) == "carousel scroll finished" })
    #expect(finished.metadata.source == .effect(cause: scroll.sequence))
    #expect(finished.metadata.actor == scroll.metadata.actor)
    // No display frames at all: every event is one of the kinds above, or selection and editing.
    let known: Set = [
      "swipe gesture", "swipe animation finished", "auto-save", "decision", "carousel request",
      "carousel scroll finished", "select", "edit", "list", "history command", "reset",
    ]
    #expect(Set(counts.keys).isSubset(of: known), "\(counts)")
    #expect(counts.values.reduce(0, +) == events.count)
    #expect(!events.contains { $0.metadata.source == .system }, "frames are system events")
  }

  /// The kind of an event of the inbox's log, for counting.
  static func kind(of event: Event<InboxAction>) -> String {
    guard let action = event.action else { return "history command" }
    switch action {
    case .list(.swipe(let addressed)):
      if case .animationFinished = addressed.action { return "swipe animation finished" }
      return "swipe gesture"
    case .list(.edit(let addressed)):
      if case .autoSaveFired = addressed.action { return "auto-save" }
      return "edit"
    case .list: return "list"
    case .carousel(.animationFinished): return "carousel scroll finished"
    case .carousel: return "carousel request"
    case .select: return "select"
    case .toggleFlag, .archive, .delete: return "decision"
    case .resetToSample: return "reset"
    case .getMail, .received, .getMailFailed: return "mail server"
    }
  }

  func verifiedEventCount(_ output: String) -> Int? {
    guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("Verified ") }) else {
      return nil
    }
    return Int(line.split(separator: " ")[1])
  }
}
