import Foundation
import Rewind
import RewindLog
import RewindTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The kill -9 harness: a child process appends with grouped durability and reports each acknowledged
/// sequence number over a pipe; the parent kills it at a random moment, reopens the log and checks that
/// no acknowledged event is lost, the log opens, and extra events form a valid prefix.
///
/// `REWIND_CRASH_TRIALS=N` sets the number of trials (default 100); `Scripts/crash-trials.sh N` uses it.
@Suite(.serialized) struct CrashTests {
  static var trials: Int {
    ProcessInfo.processInfo.environment["REWIND_CRASH_TRIALS"].flatMap { Int($0) } ?? 100
  }

  /// `rewind-crash-child`, built next to the test bundle.
  static func childExecutable() -> String? {
    if let path = ProcessInfo.processInfo.environment["REWIND_CRASH_CHILD"] { return path }
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<5 {
      let candidate = directory.appendingPathComponent("rewind-crash-child").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      directory.deleteLastPathComponent()
    }
    return nil
  }

  @Test func killNineNeverLosesAcknowledgedEvents() throws {
    let child = try #require(Self.childExecutable(), "rewind-crash-child not built; run `swift build` first")
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = TestRandom(seed: seed)
    var passed = 0
    var failed = 0
    var acknowledgedTotal: UInt64 = 0
    var tornTails = 0
    var directory = TemporaryDirectory("crash")
    for trial in 0..<Self.trials {
      // Continue the same log for a few trials, so recovery runs on logs that were themselves recovered.
      if trial % 10 == 0 { directory = TemporaryDirectory("crash") }
      let delay = useconds_t(random.next() % 8000)
      // Every fourth child is killed only after its first acknowledgement, however slow the disk.
      let acknowledgementsFirst = trial % 4 == 0 ? 1 : 0
      do {
        let outcome = try runChild(
          child, directory: directory.path, killAfter: delay, acknowledgementsFirst: acknowledgementsFirst)
        // First as `Store.open` opens after a crash: from the newest snapshot's frame.
        let opened = try checkOpenFromSnapshot(directory.path, acknowledged: outcome.acknowledged)
        if opened.cutTornTail { tornTails += 1 }
        if let problem = opened.problem {
          failed += 1
          Issue.record("seed \(seed) trial \(trial): \(problem)")
          continue
        }
        let journal = try FileJournal<CrashAction>(directory: directory.path)
        defer { try? journal.close() }
        let last = journal.lastSequence
        acknowledgedTotal += outcome.acknowledged
        var ok = last >= outcome.acknowledged
        if !ok {
          Issue.record("seed \(seed) trial \(trial): acknowledged \(outcome.acknowledged), recovered \(last)")
        }
        var expected: UInt64 = 1
        try journal.forEachEvent(from: 1) { event in
          if event.sequence != expected || event.action != CrashAction(expected) {
            ok = false
            Issue.record("seed \(seed) trial \(trial): event \(expected) is wrong: \(event)")
          }
          expected += 1
        }
        if ok { passed += 1 } else { failed += 1 }
      } catch {
        failed += 1
        Issue.record("seed \(seed) trial \(trial): \(error)")
      }
    }
    print("\(Self.trials) kill -9 trials (seed \(seed)): \(tornTails) torn tails cut off")
    print("\(passed) passed, \(failed) failed")
    #expect(failed == 0)
    #expect(acknowledgedTotal > 0, "the children acknowledged nothing: the kills came too early")
  }

  /// Kill -9 during retention cuts: the child (`--retention`) appends with 4 KiB segments, a policy and
  /// periodic snapshots, so its retention thread cuts segments while it appends. After each kill the log
  /// must open, hold every acknowledged event after its cut, and its cut record and segments must agree
  /// (the open checks that the first kept segment continues the record's chain; verify checks it all).
  ///
  /// `REWIND_CRASH_TRIALS=N` sets the number of trials here too (a third of it, at least 10).
  @Test func killNineDuringCutsNeverLosesAcknowledgedEvents() throws {
    let child = try #require(Self.childExecutable(), "rewind-crash-child not built; run `swift build` first")
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = TestRandom(seed: seed)
    var passed = 0
    var failed = 0
    var cuts = 0
    var finished = 0
    var directory = TemporaryDirectory("crashcut")
    let trials = max(Self.trials / 3, 10)
    for trial in 0..<trials {
      // The same log for several trials, so later children cut logs that earlier kills left.
      if trial % 10 == 0 { directory = TemporaryDirectory("crashcut") }
      let delay = useconds_t(random.next() % 60_000)
      do {
        let outcome = try runChild(
          child, directory: directory.path, killAfter: delay, acknowledgementsFirst: trial % 3 == 0 ? 1 : 0,
          arguments: ["--retention", directory.path])
        // Read-only first: what the kill left, before recovery finishes an interrupted cut.
        let report = try LogAudit.verify(directory: directory.path)
        var ok = report.isIntact
        if !ok { Issue.record("seed \(seed) trial \(trial): verify: \(report)") }
        if let problem = try checkOpenFromSnapshot(directory.path, acknowledged: outcome.acknowledged).problem
        {
          ok = false
          Issue.record("seed \(seed) trial \(trial): \(problem)")
        }
        let journal = try FileJournal<CrashAction>(directory: directory.path)
        defer { try? journal.close() }
        if !journal.recoveryReport.finishedCut.isEmpty { finished += 1 }
        let first = (journal.cut?.throughSequence ?? 0) + 1
        if journal.cut != nil { cuts += 1 }
        if journal.lastSequence < outcome.acknowledged || first > journal.lastSequence + 1 {
          ok = false
          Issue.record(
            "seed \(seed) trial \(trial): acknowledged \(outcome.acknowledged), log holds \(first)...\(journal.lastSequence)"
          )
        }
        var expected = first
        try journal.forEachEvent(from: first) { event in
          if event.sequence != expected || event.action != CrashAction(expected) {
            ok = false
            Issue.record("seed \(seed) trial \(trial): event \(expected) is wrong: \(event)")
          }
          expected += 1
        }
        if ok { passed += 1 } else { failed += 1 }
      } catch {
        failed += 1
        Issue.record("seed \(seed) trial \(trial): \(error)")
      }
    }
    print(
      "\(trials) kill -9 trials during cuts (seed \(seed)): \(cuts) logs cut, \(finished) interrupted cuts finished"
    )
    print("\(passed) passed, \(failed) failed")
    #expect(failed == 0)
    #expect(cuts > 0, "no trial cut its log: the kills came too early")
  }

  /// Opens the log as `Store.open` does (scanning from the newest snapshot's frame) and checks it: nothing
  /// acknowledged lost, the snapshot's state (the child writes its sequence number as the state), and
  /// every event after it. Returns what is wrong, if anything, and whether recovery cut a torn tail.
  func checkOpenFromSnapshot(_ directory: String, acknowledged: UInt64) throws -> (
    problem: String?, cutTornTail: Bool
  ) {
    let journal = try FileJournal<CrashAction>(
      directory: directory, options: FileJournalOptions(), fileSystem: POSIXFileSystem(),
      startingFromSnapshot: true)
    defer { try? journal.close() }
    let cutTornTail = journal.recoveryReport.tornTail != nil
    let restored = journal.loadSnapshot(UInt64.self)
    if let state = restored.state, state != restored.sequence {
      return ("open from a snapshot: the snapshot at \(restored.sequence) holds \(state)", cutTornTail)
    }
    if journal.lastSequence < acknowledged {
      return (
        "open from a snapshot: acknowledged \(acknowledged), the log holds \(journal.lastSequence)",
        cutTornTail
      )
    }
    var expected = restored.sequence + 1
    var problem: String?
    try journal.forEachEvent(from: expected) { event in
      if problem == nil, event.sequence != expected || event.action != CrashAction(expected) {
        problem = "open from a snapshot: event \(expected) is wrong: \(event)"
      }
      expected += 1
    }
    if problem == nil, expected != journal.lastSequence + 1 {
      problem = "open from a snapshot: read through \(expected - 1) of \(journal.lastSequence)"
    }
    return (problem, cutTornTail)
  }

  /// Starts the child, waits until it has opened the log, lets it run `killAfter` microseconds, kills it
  /// with SIGKILL and returns the highest sequence number it acknowledged.
  func runChild(
    _ executable: String, directory: String, killAfter: useconds_t, acknowledgementsFirst: Int,
    arguments: [String]? = nil
  ) throws -> (acknowledged: UInt64, lines: Int) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments ?? [directory]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let reader = pipe.fileHandleForReading
    var received = Data()
    // Wait for "open N" (and the first acknowledgements when asked) so the kill lands while appending.
    while received.filter({ $0 == UInt8(ascii: "\n") }).count < 1 + acknowledgementsFirst {
      let chunk = reader.availableData
      if chunk.isEmpty { break }
      received.append(chunk)
    }
    usleep(killAfter)  // deliberate jitter: a random point of the appends to kill at
    kill(process.processIdentifier, SIGKILL)
    received.append(reader.readDataToEndOfFile())
    process.waitUntilExit()
    var acknowledged: UInt64 = 0
    var lines = 0
    for line in String(decoding: received, as: UTF8.self).split(separator: "\n") {
      lines += 1
      if let value = UInt64(line) { acknowledged = max(acknowledged, value) }
    }
    return (acknowledged, lines)
  }
}
