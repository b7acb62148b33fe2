#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// The real file system opened for reading only, so tools can inspect a log on a read-only mount or
/// without write permission, and can never change it. Every changing operation fails with `EROFS`.
struct ReadOnlyFileSystem: LogFileSystem {
  func open(_ path: String, create: Bool) throws(IOError) -> any LogFile {
    guard !create else { throw IOError(operation: "create", path: path, code: EROFS) }
    var fd: Int32
    repeat { fd = openReadOnly(path) } while fd < 0 && errno == EINTR
    guard fd >= 0 else { throw IOError(operation: "open", path: path, code: errno) }
    return POSIXFile(fd: fd, path: path)
  }

  func openForReading(_ path: String) throws(IOError) -> any LogFile { try open(path, create: false) }
  func contents(of directory: String) throws(IOError) -> [String] {
    try POSIXFileSystem().contents(of: directory)
  }
  func exists(_ path: String) -> Bool { POSIXFileSystem().exists(path) }
  func createDirectory(_ directory: String) throws(IOError) {
    throw IOError(operation: "mkdir", path: directory, code: EROFS)
  }
  func rename(_ source: String, to destination: String) throws(IOError) {
    throw IOError(operation: "rename", path: source, code: EROFS)
  }
  func remove(_ path: String) throws(IOError) { throw IOError(operation: "remove", path: path, code: EROFS) }
  func syncDirectory(_ directory: String) throws(IOError) {}
  func lock(_ path: String) throws(IOError) -> any LogFileLock {
    throw IOError(operation: "lock", path: path, code: EROFS)
  }
}

// O_NONBLOCK: opening a FIFO put where a segment or report was expected returns at once (and reads as
// empty) instead of waiting forever for a writer; it changes nothing for a regular file.
private func openReadOnly(_ path: String) -> Int32 { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
