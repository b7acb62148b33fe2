import Dispatch
import Foundation
import Synchronization

/// Replays every recording in a directory, as many at a time as the machine has cores: the log
/// directories in it (a directory holding `segment-*.log` files) and the bug reports (`*.rwreport`).
struct CorpusReplay: Sendable {
  /// One recording's outcome: its report, or why it could not be replayed at all.
  enum Outcome: Sendable {
    case replayed(ReplayReport)
    case failed(source: String, error: String, seconds: Double)

    /// The recording's path.
    var source: String {
      switch self {
      case .replayed(let report): report.source
      case .failed(let source, _, _): source
      }
    }

    /// Whether it replayed without a divergence.
    var isClean: Bool {
      if case .replayed(let report) = self { return report.isClean }
      return false
    }

    var seconds: Double {
      switch self {
      case .replayed(let report): report.seconds
      case .failed(_, _, let seconds): seconds
      }
    }
  }

  /// The corpus directory.
  var directory: String
  /// Replays one recording (a log directory or a report file).
  var replay: @Sendable (String) throws -> ReplayReport

  /// The recordings in ``directory``, sorted by name: its log directories and report files.
  /// - Throws: ``ToolError`` when the directory does not exist or cannot be listed.
  func entries() throws(ToolError) -> [String] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
      throw .noInput(path: directory, cause: "no such directory")
    }
    guard isDirectory.boolValue else { throw .noInput(path: directory, cause: "not a directory") }
    let names: [String]
    do { names = try FileManager.default.contentsOfDirectory(atPath: directory) } catch {
      throw .io(path: directory, cause: "cannot list the directory: \(error.localizedDescription)")
    }
    return names.sorted().compactMap { name in
      let path = directory + "/" + name
      if name.hasSuffix(".rwreport") { return path }
      var inner: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &inner), inner.boolValue else {
        return nil
      }
      let files = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
      return files.contains { $0.hasPrefix("segment-") && $0.hasSuffix(".log") } ? path : nil
    }
  }

  /// Replays `entries` on `workers` threads (by default one per core) and returns their outcomes in the
  /// order of `entries`; `progress` is told of each one done (from the worker threads).
  func run(
    _ entries: [String], workers: Int = ProcessInfo.processInfo.activeProcessorCount,
    progress: @Sendable (Int) -> Void = { _ in }
  ) -> [Outcome] {
    // `Locked`, not `Mutex`: the ThreadSanitizer build swaps in a lock the sanitizer understands.
    let outcomes = Locked<[Outcome?]>(Array(repeating: nil, count: entries.count))
    let next = Atomic<Int>(0)
    let done = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: max(1, min(workers, entries.count))) { _ in
      while true {
        let index = next.add(1, ordering: .relaxed).oldValue
        guard index < entries.count else { return }
        let started = Date()
        let outcome: Outcome
        do {
          outcome = .replayed(try replay(entries[index]))
        } catch {
          outcome = .failed(
            source: entries[index], error: "\(error)", seconds: Date().timeIntervalSince(started))
        }
        outcomes.withLock { $0[index] = outcome }
        progress(done.add(1, ordering: .relaxed).newValue)
      }
    }
    return outcomes.withLock { all in
      all.enumerated().map { index, outcome in
        outcome ?? .failed(source: entries[index], error: "not replayed", seconds: 0)
      }
    }
  }
}
