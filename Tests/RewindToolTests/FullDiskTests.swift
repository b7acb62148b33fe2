import Foundation
import Rewind
import RewindLog
import RewindTestSupport
import Testing

#if REWIND_THREAD_SANITIZER
  private let underThreadSanitizer = true
#else
  private let underThreadSanitizer = false
#endif

/// A full disk, as the issue "Failure paths" tried it: the real `Inbox` (its scripted session on a file
/// journal, `swift run Inbox --directory DIR`) and the real `rewind` run with a file size limit
/// (`ulimit -f`, 512-byte blocks: every write past it fails with EFBIG, as on a small file system), at
/// every size from nothing to the whole log. Each run ends by itself with success or its error, never
/// hangs (`timeout`), and the log always reopens.
@Suite(.disabled(if: underThreadSanitizer, "ThreadSanitizer's runtime cannot run under a file size limit"))
struct FullDiskTests {
  /// An executable built next to the test bundle.
  static func built(_ name: String) -> String? {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<5 {
      let candidate = directory.appendingPathComponent(name).path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      directory.deleteLastPathComponent()
    }
    return nil
  }

  /// Runs `executable arguments` with files limited to `blocks` × 512 bytes, for at most 60 s.
  static func limited(_ blocks: Int, _ executable: String, _ arguments: [String]) throws -> (
    status: Int32, output: String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
    // SIGXFSZ ignored, so a write past the limit fails with EFBIG instead of killing the process.
    process.arguments =
      ["60", "/bin/sh", "-c", "trap '' XFSZ; ulimit -f \(blocks) && exec \"$@\"", "sh", executable]
      + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test func theInboxExitsWithItsErrorOnAFullDisk() throws {
    let inbox = try #require(Self.built("Inbox"), "the Inbox executable is not built")
    var failures = 0
    // The scripted session writes a log of about 5 KB: from no room at all to room for everything.
    for blocks in 0...12 {
      let directory = TemporaryDirectory()
      let run = try Self.limited(blocks, inbox, ["--directory", directory.path + "/log"])
      #expect(run.status != 124, "\(blocks) blocks: the Inbox hung:\n\(run.output.suffix(2000))")
      #expect(run.status == 0 || run.status == 1, "\(blocks) blocks: status \(run.status)")
      if run.status == 1 {
        failures += 1
        #expect(
          run.output.split(separator: "\n").contains {
            $0.hasPrefix("Inbox: ") && $0.contains("File too large")
          },
          "\(blocks) blocks: no error naming the failure:\n\(run.output.suffix(2000))")
      }
      // Whatever happened, what is on disk opens.
      if FileManager.default.fileExists(atPath: directory.path + "/log") {
        #expect(throws: Never.self, "\(blocks) blocks") {
          _ = try LogReader(directory: directory.path + "/log")
        }
      }
    }
    #expect(failures > 0, "the limits were too large to fail anything")
  }

  @Test func theToolExitsWithItsErrorOnAFullDisk() throws {
    let rewind = try #require(ExecutableTests.executable(), "the rewind executable is not built")
    let directory = TemporaryDirectory()
    _ = try writeFixtureLog(directory.path)
    // `report` (outside testing) used to exit 1 naming the log, and to leave its `.partial` file behind.
    for command in [["export"], ["timeline"], ["report", "--app", "com.example.notes"]] {
      let out = directory.file("out-\(command[0])")
      let run = try Self.limited(
        1, rewind, [command[0], directory.path] + command.dropFirst() + ["-o", out])
      #expect(run.status == 74, "\(command): \(run.output)")
      #expect(run.output.contains(out) && run.output.contains("File too large"), "\(run.output)")
      #expect(!FileManager.default.fileExists(atPath: out), "no half-written output under its name")
      #expect(
        !FileManager.default.fileExists(atPath: out + ".partial"), "\(command): a .partial file was left")
    }
    // Repair on a full disk: the tail cannot be copied to quarantine, so nothing is cut off.
    let segment = directory.path + "/" + segmentFiles(directory.path)[0]
    let handle = try #require(FileHandle(forWritingAtPath: segment))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data([1, 2, 3, 4, 200, 0, 0, 0] + [UInt8](repeating: 9, count: 2000)))
    try handle.close()
    let before = try Data(contentsOf: URL(fileURLWithPath: segment))
    let repair = try Self.limited(1, rewind, ["repair", directory.path, "--yes"])
    #expect(repair.status == 74, "\(repair.output)")
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: segment)) == before, "the log was changed by a failed repair")
  }
}
