import Foundation
import Rewind
import RewindTestSupport

/// The built `Inbox` executable: next to the test bundle (the test target depends on it, so `swift test`
/// builds it), or `REWIND_INBOX` when set.
func inboxExecutable() -> String? {
  if let path = ProcessInfo.processInfo.environment["REWIND_INBOX"] { return path }
  var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  for _ in 0..<5 {
    let candidate = directory.appendingPathComponent("Inbox").path
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    directory.deleteLastPathComponent()
  }
  return nil
}

/// The built `rewind` executable, found as ``inboxExecutable()`` finds the Inbox (`REWIND_TOOL` overrides).
func rewindExecutable() -> String? {
  if let path = ProcessInfo.processInfo.environment["REWIND_TOOL"] { return path }
  var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  for _ in 0..<5 {
    let candidate = directory.appendingPathComponent("rewind").path
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    directory.deleteLastPathComponent()
  }
  return nil
}

/// Text without ANSI escape sequences.
func strippingEscapes(_ text: String) -> String {
  text.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
}

/// Kills a child process with SIGKILL if it is still running after a time limit, so a hang fails the
/// test with a message instead of stalling the suite.
final class Watchdog: Sendable {
  private final class Flags: Sendable {
    let value = Locked((finished: false, fired: false))
  }

  private let flags = Flags()

  init(pid: Int32, after seconds: Double) {
    let flags = self.flags
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
      flags.value.withLock { state in
        guard !state.finished else { return }
        state.fired = true
        kill(pid, SIGKILL)
      }
    }
  }

  /// Marks the child as finished; returns whether the watchdog had killed it.
  func finish() -> Bool {
    flags.value.withLock { state in
      state.finished = true
      return state.fired
    }
  }
}
