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

/// Runs the real `rewind` executable (built next to the test bundle) on real logs.
@Suite struct ExecutableTests {
  /// The built `rewind` executable: `REWIND_TOOL`, or found next to the test bundle.
  static func executable() -> String? {
    if let path = ProcessInfo.processInfo.environment["REWIND_TOOL"] { return path }
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<5 {
      let candidate = directory.appendingPathComponent("rewind").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      directory.deleteLastPathComponent()
    }
    return nil
  }

  struct Run {
    var status: Int32
    var output: String
    var errors: String
  }

  /// Runs `rewind arguments` with standard output and error piped.
  static func rewind(_ arguments: [String]) throws -> Run {
    let path = try #require(executable(), "the rewind executable is not built; run `swift build` first")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Read both pipes to their ends (in parallel, so neither fills up and blocks the child).
    let errorData = Locked(Data())
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
      let data = errors.fileHandleForReading.readDataToEndOfFile()
      errorData.withLock { $0 = data }
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
      errors: String(decoding: errorData.withLock { $0 }, as: UTF8.self))
  }

  @Test func helpAndUsageErrors() throws {
    let help = try Self.rewind(["--help"])
    #expect(help.status == 0)
    #expect(help.output.contains("exit status: 0 ok, 1 verification failed"))
    let usage = try Self.rewind(["events", "/tmp", "--from"])
    #expect(usage.status == 64)
    #expect(usage.errors.contains("option '--from' needs a value"))
    #expect(usage.output.isEmpty)
  }

  @Test func infoAndEventsAsJSONOnAPipeWithoutProgress() throws {
    let directory = TemporaryDirectory()
    let fixture = try writeFixtureLog(directory.path)
    let info = try Self.rewind(["info", directory.path, "--json"])
    #expect(info.status == 0, "\(info.errors)")
    let object = try #require(try parseJSON(info.output) as? [String: Any])
    #expect(object["lastSequence"] as? Int == fixture.events.count)
    let events = try Self.rewind(["events", directory.path, "--json"])
    #expect(events.status == 0)
    let lines = events.output.split(separator: "\n")
    #expect(lines.count == fixture.events.count)
    for (line, event) in zip(lines, fixture.events) {
      let parsed = try #require(try parseJSON(String(line)) as? [String: Any])
      #expect(parsed["sequence"] as? Int == Int(event.sequence))
      #expect(parsed["actor"] as? String == event.metadata.actor)
    }
    // Piped: plain output, no progress bar on standard error.
    #expect(!events.errors.contains("\r"))
    #expect(events.errors.isEmpty)
  }

  @Test func verifyExitsZeroForAnIntactLogAndOneForADamagedOne() throws {
    let directory = TemporaryDirectory()
    try writeFixtureLog(directory.path)
    let intact = try Self.rewind(["verify", directory.path])
    #expect(intact.status == 0, "\(intact.output)\(intact.errors)")
    #expect(intact.output.contains("verified"))
    // Flip a byte inside the second segment's first frame: events there and after are no longer as written.
    let segments = segmentFiles(directory.path)
    let path = directory.file(segments[1])
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    bytes[120] ^= 0x01
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let firstInSegment = UInt64(segments[1].dropFirst(8).dropLast(4)) ?? 0
    let damaged = try Self.rewind(["verify", directory.path, "--json"])
    #expect(damaged.status == 1)
    let report = try #require(try parseJSON(damaged.output) as? [String: Any])
    #expect(report["ok"] as? Bool == false)
    #expect(report["firstBadSequence"] as? Int == Int(firstInSegment))
    // Reading commands refuse a damaged log with exit 1, naming the segment.
    let events = try Self.rewind(["events", directory.path])
    #expect(events.status == 1)
    #expect(events.errors.contains(segments[1]))
  }

  @Test func aMissingDirectoryExits66NamingThePath() throws {
    let directory = TemporaryDirectory()
    let missing = directory.file("no-such-log")
    for command in ["info", "verify", "events", "snapshots", "export", "repair", "timeline"] {
      let run = try Self.rewind([command, missing])
      #expect(run.status == 66, "\(command)")
      #expect(run.errors.contains("\(missing): no such directory"), "\(command): \(run.errors)")
    }
    let empty = try Self.rewind(["info", directory.path])
    #expect(empty.status == 66)
    #expect(empty.errors.contains("no Rewind log here"))
  }

  /// A segment that cannot be read must exit 74 with the path and cause. `chmod 000` does that for a normal
  /// user; root reads such files anyway, so as root the test says so and uses a segment that is a
  /// directory instead: opening it works, reading it fails with EISDIR.
  @Test func anUnreadableSegmentExits74NamingThePathAndCause() throws {
    let directory = TemporaryDirectory()
    try writeFixtureLog(directory.path, count: 8, snapshotEvery: nil)
    let segment = directory.file(try #require(segmentFiles(directory.path).first))
    chmod(segment, 0)
    defer { chmod(segment, 0o644) }
    if access(segment, R_OK) != 0 {
      let run = try Self.rewind(["info", directory.path])
      #expect(run.status == 74)
      #expect(run.errors.contains(segment))
      #expect(run.errors.contains("Permission denied"))
    } else {
      print(
        "note: running as root, where chmod 000 does not stop reads; testing a segment that is a directory instead"
      )
    }
    chmod(segment, 0o644)
    let other = TemporaryDirectory()
    try writeFixtureLog(other.path, count: 8, snapshotEvery: nil)
    // The segment that would come next (the log holds events 1...8).
    let unreadable = other.file("segment-00000000000000000009.log")
    try FileManager.default.createDirectory(atPath: unreadable, withIntermediateDirectories: false)
    let run = try Self.rewind(["verify", other.path])
    #expect(run.status == 74, "\(run.output)\(run.errors)")
    #expect(run.errors.contains(unreadable))
    #expect(run.errors.contains("Is a directory"))
  }

  /// On a terminal (a pseudo-terminal from util-linux's `script`), the progress bar is drawn and erased.
  @Test func progressBarOnATerminal() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), let tool = Self.executable() else {
      print("note: progressBarOnATerminal skipped: /usr/bin/script (util-linux) is not installed")
      return
    }
    let directory = TemporaryDirectory()
    try writeFixtureLog(directory.path, count: 60, snapshotEvery: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    process.arguments = ["-qec", "'\(tool)' events '\(directory.path)' --json > /dev/null", "/dev/null"]
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(text)")
    #expect(text.contains("\revents ["))
    #expect(text.contains("] 100%"))
    #expect(text.contains("\r\u{1B}[2K"))
  }

  @Test func showTimelineAndExportWriteWhatTheySay() throws {
    let directory = TemporaryDirectory()
    let fixture = try writeFixtureLog(directory.path)
    let show = try Self.rewind(["show", directory.path, "8", "--json"])
    #expect(show.status == 0)
    let event = try #require(try parseJSON(show.output) as? [String: Any])
    #expect((event["payload"] as? [String: Any])?["add"] as? String == hostileText)
    let page = directory.file("timeline.html")
    let timeline = try Self.rewind(["timeline", directory.path, "--output", page])
    #expect(timeline.status == 0, "\(timeline.errors)")
    #expect(timeline.errors.contains("wrote \(page)"))
    #expect(
      try String(contentsOfFile: page, encoding: .utf8).contains("\"sequence\":\(fixture.events.count)"))
    let export = try Self.rewind(["export", directory.path])
    #expect(export.output.split(separator: "\n").count == fixture.events.count)
    let unwritable = try Self.rewind(["export", directory.path, "--output", directory.path])
    #expect(unwritable.status == 74)
    #expect(unwritable.errors.contains(directory.path))
  }
}
