/// Where a command's main result goes: standard output, or a file given with `--output`.
enum OutputDestination {
  /// Writes `text` to `path` (see ``OutputFile`` for what a path may be), or to `output` when `path` is nil
  /// or `-`.
  static func write(_ text: String, to path: String?, or output: any TextOutput) throws(ToolError) {
    guard let path, path != "-" else {
      output.write(text)
      return
    }
    let file = try OutputFile.open(path)
    do {
      try file.write(text.utf8)
      try file.commit()
    } catch {
      file.abandon()
      throw error
    }
  }
}
