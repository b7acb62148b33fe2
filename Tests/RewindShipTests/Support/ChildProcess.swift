import Dispatch
import Foundation
import Rewind
import RewindLog
import RewindTestSupport
import RewindTesting

/// An executable of this package, built next to the test bundle (`swift test` builds `rewind` and
/// `rewind-crash-child` for this target).
func builtExecutable(_ name: String) -> String? {
  var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  for _ in 0..<5 {
    let candidate = directory.appendingPathComponent(name).path
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    directory.deleteLastPathComponent()
  }
  return nil
}

/// Starts `path arguments` with its output discarded (or read line by line with `onLine`).
func launch(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Process {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: path)
  process.arguments = arguments
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  if !environment.isEmpty {
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  }
  try process.run()
  return process
}

/// Runs `path arguments` to its end; returns its status and output.
func runToEnd(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (
  status: Int32, output: String
) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: path)
  process.arguments = arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = pipe
  if !environment.isEmpty {
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  }
  try process.run()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// Appends events to a log on a thread of its own, a frame of 1–8 events at a time, until stopped.
final class Appender: @unchecked Sendable {
  // @unchecked: `stopRequested` and `last` are read and written under `lock`.
  private let lock = NSLock()
  private var stopRequested = false
  private var last: UInt64 = 0
  private let finished = DispatchSemaphore(value: 0)
  private var failure: (any Error)?

  /// Starts appending to the log in `directory`, pausing `pause` seconds between frames.
  init(directory: String, pause: Double = 0.001, seed: UInt64) {
    let thread = Thread { [self] in
      defer { finished.signal() }
      var random = SplitMix64(seed: seed)
      do {
        let journal = try FileJournal<CrashAction>(
          directory: directory, options: FileJournalOptions(durability: .none, segmentSize: 16 << 10))
        var sequence = journal.lastSequence
        while !lock.withLock({ stopRequested }) {
          for _ in 0..<Int.random(in: 1...8, using: &random) {
            sequence += 1
            try journal.append(crashEvent(sequence))
          }
          try journal.flush()
          lock.withLock { last = sequence }
          Thread.sleep(forTimeInterval: pause)  // paces the appends in bursts, as an app's; waits for nothing
        }
        try journal.close()
      } catch {
        lock.withLock { failure = error }
      }
    }
    thread.start()
  }

  /// The last event appended and flushed.
  var lastSequence: UInt64 { lock.withLock { last } }

  /// Stops appending and closes the journal; returns the last event, or throws what failed.
  func stop() throws -> UInt64 {
    lock.withLock { stopRequested = true }
    finished.wait()
    if let failure = lock.withLock({ failure }) { throw failure }
    return lastSequence
  }
}
