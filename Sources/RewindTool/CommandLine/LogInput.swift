import Foundation
import RewindLog

/// Opens the log a command names, turning what is wrong into a ``ToolError``.
enum LogInput {
  /// A reader for the log of an invocation (its directory and `--key-file`).
  static func open(_ invocation: Invocation) throws(ToolError) -> LogReader {
    try open(invocation.directory, key: KeyFile.key(invocation.arguments))
  }

  /// A reader for the log in `path`, which must be a directory holding at least one segment.
  static func open(_ path: String, key: ChainKey? = nil) throws(ToolError) -> LogReader {
    try requireLogDirectory(path)
    do {
      return try LogReader(directory: path, key: key)
    } catch {
      throw ToolError.reading(path, error)
    }
  }

  /// Checks that `path` is a directory with log segments in it.
  static func requireLogDirectory(_ path: String) throws(ToolError) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .noInput(path: path, cause: "no such directory")
    }
    guard isDirectory.boolValue else { throw .noInput(path: path, cause: "not a directory") }
    let names: [String]
    do { names = try FileManager.default.contentsOfDirectory(atPath: path) } catch {
      throw .io(path: path, cause: "cannot list the directory: \(error.localizedDescription)")
    }
    guard names.contains(where: { $0.hasPrefix("segment-") && $0.hasSuffix(".log") }) else {
      throw .noInput(path: path, cause: "no Rewind log here (no segment-*.log files)")
    }
  }

  /// Every event of `reader` in `range`, with a progress bar while reading.
  static func events(
    _ reader: LogReader, from first: UInt64 = 1, through last: UInt64? = nil, progress: ProgressBar? = nil,
    _ body: (EventView) throws -> Void
  ) throws {
    var done: UInt64 = 0
    try reader.forEachEvent(from: first, through: last) { event, committed in
      try body(EventView(event, committed: committed))
      done += 1
      progress?.update(done)
    }
    progress?.finish()
  }
}
