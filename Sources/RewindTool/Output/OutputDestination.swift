import Foundation

/// Where a command's main result goes: standard output, or a file given with `--output`.
enum OutputDestination {
  /// Writes `text` to `path` (replacing it atomically), or to `output` when `path` is nil or `-`.
  static func write(_ text: String, to path: String?, or output: any TextOutput) throws(ToolError) {
    guard let path, path != "-" else {
      output.write(text)
      return
    }
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      let cause = (error as NSError).localizedDescription
      let parent = (path as NSString).deletingLastPathComponent
      if !parent.isEmpty, !FileManager.default.fileExists(atPath: parent) {
        throw .noInput(path: path, cause: "the directory \(parent) does not exist")
      }
      throw .io(path: path, cause: "cannot write: \(cause)")
    }
  }
}
