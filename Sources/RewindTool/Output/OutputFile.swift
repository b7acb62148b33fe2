#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where `-o FILE` writes, reporting every write error with the path.
///
/// - A regular file, or a path that does not exist yet, is written as `FILE.partial` and renamed over
///   `FILE` only when everything was written and synced: a failed command leaves the old file as it was.
/// - A device, FIFO or socket (`/dev/null`, `/dev/stdout`, a named pipe) is written in place: it is never
///   replaced by a regular file.
/// - A symbolic link is refused (neither followed nor replaced): pass the path it points to.
final class OutputFile {
  let path: String
  private let fd: Int32
  /// The temporary file renamed over `path` at the end, for a regular file.
  private let partial: String?
  private var closed = false

  private init(path: String, fd: Int32, partial: String?) {
    self.path = path
    self.fd = fd
    self.partial = partial
  }

  /// Opens `path` for a command's output, as described above.
  static func open(_ path: String) throws(ToolError) -> OutputFile {
    // An empty path would write `.partial` in the working directory, then fail to rename it.
    guard !path.isEmpty else { throw .usage(UsageError("the output file's path is empty")) }
    var info = stat()
    if lstat(path, &info) == 0 {
      switch info.st_mode & S_IFMT {
      case S_IFLNK:
        throw .usage(
          UsageError(
            "\(path) is a symbolic link: rewind neither follows nor replaces one; give the path it points to")
        )
      case S_IFDIR: throw .io(path: path, cause: "cannot write: it is a directory")
      case S_IFREG: break
      default:
        // A device or a pipe: written in place, never created, truncated or replaced.
        let fd = retrying { openFile(path, O_WRONLY | O_CLOEXEC | O_NOCTTY, 0) }
        guard fd >= 0 else { throw failure("cannot open", path, errno) }
        return OutputFile(path: path, fd: fd, partial: nil)
      }
    } else if errno != ENOENT {
      throw failure("cannot inspect", path, errno)
    }
    let partial = path + ".partial"
    let fd = retrying { openFile(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644) }
    guard fd >= 0 else {
      let code = errno
      if code == ENOENT {
        throw .noInput(path: path, cause: "the directory \(parentDirectory(of: path)) does not exist")
      }
      throw failure("cannot create \(partial)", path, code)
    }
    return OutputFile(path: path, fd: fd, partial: partial)
  }

  /// Writes all of `bytes`.
  /// - Throws: ``ToolError/io(path:cause:)`` naming the path and the error (e.g. no space left).
  func write(_ bytes: some Collection<UInt8>) throws(ToolError) {
    var failed: Int32 = 0
    Array(bytes).withUnsafeBytes { raw in
      var done = 0
      while done < raw.count {
        let result = writeFile(fd, raw.baseAddress.map { $0 + done }, raw.count - done)
        if result < 0 {
          if errno == EINTR { continue }
          failed = errno
          return
        }
        done += result
      }
    }
    if failed != 0 { throw Self.failure("cannot write", path, failed) }
  }

  /// Finishes: a regular file is synced, closed and renamed over `path`; anything else is closed.
  func commit() throws(ToolError) {
    guard !closed else { return }
    closed = true
    if partial != nil, fsync(fd) != 0 {
      let code = errno
      _ = closeFile(fd)
      discardPartial()
      throw Self.failure("cannot write", path, code)
    }
    if closeFile(fd) != 0 {
      let code = errno
      discardPartial()
      throw Self.failure("cannot write", path, code)
    }
    if let partial, renameFile(partial, path) != 0 {
      let code = errno
      discardPartial()
      throw Self.failure("cannot replace", path, code)
    }
  }

  /// Gives up: closes, and removes the partial file so that `path` is left as it was.
  func abandon() {
    guard !closed else { return }
    closed = true
    _ = closeFile(fd)
    discardPartial()
  }

  deinit { abandon() }

  private func discardPartial() {
    if let partial { _ = unlink(partial) }
  }

  private static func failure(_ what: String, _ path: String, _ code: Int32) -> ToolError {
    .io(path: path, cause: "\(what): \(String(cString: strerror(code))) (errno \(code))")
  }

  private static func parentDirectory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }
}

private func retrying(_ call: () -> Int32) -> Int32 {
  while true {
    let result = call()
    if result >= 0 || errno != EINTR { return result }
  }
}

// The platform's functions under names that do not clash with the methods above.
private func openFile(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
private func closeFile(_ fd: Int32) -> Int32 { close(fd) }
private func writeFile(_ fd: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(fd, pointer, count)
}
private func renameFile(_ source: String, _ destination: String) -> Int32 { rename(source, destination) }

extension OutputFile {
  /// Writes `text` to `path` as a command's `-o FILE` output: whole or not at all (see ``open(_:)``).
  static func write(_ text: String, to path: String) throws(ToolError) {
    try write(Array(text.utf8), to: path)
  }

  /// Writes `bytes` to `path` as a command's `-o FILE` output: whole or not at all (see ``open(_:)``).
  static func write(_ bytes: [UInt8], to path: String) throws(ToolError) {
    let file = try open(path)
    do {
      try file.write(bytes)
      try file.commit()
    } catch {
      file.abandon()
      throw error
    }
  }
}
