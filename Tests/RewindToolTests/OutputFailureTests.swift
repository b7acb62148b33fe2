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

/// Items 5 and 6 of "Failure paths": every write error of the tool's outputs is reported (exit 74 naming
/// the path or "standard output"); `-o` never replaces what is not a regular file and never follows a
/// symbolic link.
@Suite struct OutputFailureTests {
  /// Runs `rewind arguments` with standard output going to `output`; returns the status and standard error.
  static func rewind(_ arguments: [String], output: FileHandle) throws -> (status: Int32, errors: String) {
    let path = try #require(ExecutableTests.executable(), "the rewind executable is not built")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// Reads the FIFO at `path` to its end on a thread of its own: what it received, and a semaphore
  /// signalled once the writer has closed it.
  static func readToEnd(_ path: String) -> (Locked<Data>, DispatchSemaphore) {
    let received = Locked(Data())
    let done = DispatchSemaphore(value: 0)
    Thread {
      if let handle = FileHandle(forReadingAtPath: path) {
        let data = handle.readDataToEndOfFile()
        received.withLock { $0 = data }
      }
      done.signal()
    }.start()
    return (received, done)
  }

  static func fileType(_ path: String) -> mode_t? {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
  }

  @Test(arguments: [["export"], ["events"], ["export", "--format", "cloudevents"], ["info", "--json"]])
  func aFullStandardOutputExits74(_ command: [String]) throws {
    let directory = TemporaryDirectory()
    _ = try writeFixtureLog(directory.path)
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    let run = try Self.rewind([command[0], directory.path] + command.dropFirst(), output: full)
    #expect(run.status == 74, "\(command): \(run.errors)")
    #expect(run.errors.contains("standard output"), "\(run.errors)")
    #expect(run.errors.contains("No space left on device"), "\(run.errors)")
  }

  @Test func aClosedPipeIsAQuietEnding() throws {
    let directory = TemporaryDirectory()
    _ = try writeFixtureLog(directory.path)
    let pipe = Pipe()
    try pipe.fileHandleForReading.close()
    let run = try Self.rewind(["export", directory.path], output: pipe.fileHandleForWriting)
    #expect(!run.errors.contains("cannot write"), "\(run.errors)")
  }

  @Test func outputToADeviceIsWrittenInPlaceAndItsErrorsReported() throws {
    let directory = TemporaryDirectory()
    _ = try writeFixtureLog(directory.path)
    let null = try ExecutableTests.rewind(["export", directory.path, "-o", "/dev/null"])
    #expect(null.status == 0, "\(null.errors)")
    #expect(Self.fileType("/dev/null") == S_IFCHR)
    let full = try ExecutableTests.rewind(["export", directory.path, "-o", "/dev/full"])
    #expect(full.status == 74, "\(full.errors)")
    #expect(
      full.errors.contains("/dev/full") && full.errors.contains("No space left on device"), "\(full.errors)")
    #expect(Self.fileType("/dev/full") == S_IFCHR)
    let timeline = try ExecutableTests.rewind(["timeline", directory.path, "-o", "/dev/full"])
    #expect(timeline.status == 74, "\(timeline.errors)")
    #expect(Self.fileType("/dev/full") == S_IFCHR)
  }

  @Test(arguments: ["export", "timeline"])
  func outputToAFIFOIsWrittenInPlace(_ command: String) throws {
    let directory = TemporaryDirectory()
    _ = try writeFixtureLog(directory.path)
    let fifo = directory.file("out.fifo")
    #expect(mkfifo(fifo, 0o600) == 0)
    let (received, readerDone) = Self.readToEnd(fifo)
    let run = try ExecutableTests.rewind([command, directory.path, "-o", fifo])
    #expect(run.status == 0, "\(run.errors)")
    // The reader ends at the end of file, once the tool has closed the FIFO.
    #expect(readerDone.wait(timeout: .now() + 10) == .success, "the reader saw the end of the output")
    #expect(Self.fileType(fifo) == S_IFIFO, "the FIFO was replaced")
    #expect(!received.withLock { $0 }.isEmpty)
  }

  @Test(arguments: ["export", "timeline"])
  func aSymbolicLinkIsRefusedNotFollowedOrReplaced(_ command: String) throws {
    let directory = TemporaryDirectory()
    _ = try writeFixtureLog(directory.path)
    let target = directory.file("target.txt")
    try "keep me".write(toFile: target, atomically: false, encoding: .utf8)
    let link = directory.file("link.txt")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let run = try ExecutableTests.rewind([command, directory.path, "-o", link])
    #expect(run.status == 64, "\(run.errors)")
    #expect(run.errors.contains("symbolic link"), "\(run.errors)")
    #expect(Self.fileType(link) == S_IFLNK)
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me")
  }

  @Test func aRegularFileIsReplacedOnlyWhenEverythingWasWritten() throws {
    let directory = TemporaryDirectory()
    _ = try writeFixtureLog(directory.path)
    let out = directory.file("events.jsonl")
    try "old".write(toFile: out, atomically: false, encoding: .utf8)
    let run = try ExecutableTests.rewind(["export", directory.path, "-o", out])
    #expect(run.status == 0, "\(run.errors)")
    #expect(try String(contentsOfFile: out, encoding: .utf8).hasPrefix("{"))
    #expect(!FileManager.default.fileExists(atPath: out + ".partial"))
  }

  /// Outside testing: `rewind report -o FILE` keeps the rules of every `-o FILE`. It used to write
  /// `FILE.partial` and rename it over whatever `FILE` was: a symbolic link and a FIFO were replaced by a
  /// regular file (and, as root, so was `/dev/null`), and a missing directory exited 1 naming the log.
  @Test func aReportKeepsTheOutputRules() throws {
    let directory = TemporaryDirectory()
    _ = try writeFixtureLog(directory.path)
    let report = ["report", directory.path, "--app", "com.example.notes", "-o"]

    let target = directory.file("target.txt")
    try "keep me".write(toFile: target, atomically: false, encoding: .utf8)
    let link = directory.file("link.rwreport")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let linked = try ExecutableTests.rewind(report + [link])
    #expect(linked.status == 64 && linked.errors.contains("symbolic link"), "\(linked.errors)")
    #expect(Self.fileType(link) == S_IFLNK)
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me")

    let fifo = directory.file("bug.fifo")
    #expect(mkfifo(fifo, 0o600) == 0)
    let (received, readerDone) = Self.readToEnd(fifo)
    let piped = try ExecutableTests.rewind(report + [fifo])
    #expect(piped.status == 0, "\(piped.errors)")
    #expect(readerDone.wait(timeout: .now() + 10) == .success, "the reader saw the end of the report")
    #expect(Self.fileType(fifo) == S_IFIFO, "the FIFO was replaced")
    #expect(received.withLock { $0 }.starts(with: Array("RWNDRPRT".utf8)))

    let missing = try ExecutableTests.rewind(report + [directory.file("no-such-directory/bug.rwreport")])
    #expect(missing.status == 66 && missing.errors.contains("does not exist"), "\(missing.errors)")
  }

  /// Outside testing: an empty `-o` path is a usage error (it exited 74, "cannot replace").
  @Test(arguments: [["export"], ["timeline"], ["report", "--app", "com.example.notes"]])
  func anEmptyOutputPathIsAUsageError(_ command: [String]) throws {
    let directory = TemporaryDirectory()
    _ = try writeFixtureLog(directory.path)
    let result = runTool([command[0], directory.path] + command.dropFirst() + ["-o", ""])
    #expect(result.status == 64, "\(command): \(result.errors)")
  }
}
