#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

func errnoDescription(_ code: Int32) -> String {
  guard let text = strerror(code) else { return "error" }
  return String(cString: text)
}

/// The real file system, through POSIX calls.
package struct POSIXFileSystem: LogFileSystem {
  package init() {}

  package func open(_ path: String, create: Bool) throws(IOError) -> any LogFile {
    let flags = O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0)
    let fd = retrying { systemOpen(path, flags, 0o644) }
    guard fd >= 0 else { throw IOError(operation: "open", path: path, code: errno) }
    return POSIXFile(fd: fd, path: path)
  }

  package func createNew(_ path: String) throws(IOError) -> any LogFile {
    let fd = retrying { systemOpen(path, O_RDWR | O_CLOEXEC | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644) }
    guard fd >= 0 else { throw IOError(operation: "create", path: path, code: errno) }
    return POSIXFile(fd: fd, path: path)
  }

  package func openForReading(_ path: String) throws(IOError) -> any LogFile {
    // O_NONBLOCK: a FIFO where a file was expected opens at once (and reads as empty) instead of waiting
    // forever for a writer; it changes nothing for a regular file.
    let fd = retrying { systemOpen(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK, 0) }
    guard fd >= 0 else { throw IOError(operation: "open", path: path, code: errno) }
    return POSIXFile(fd: fd, path: path)
  }

  package func contents(of directory: String) throws(IOError) -> [String] {
    guard let dir = opendir(directory) else { throw IOError(operation: "list", path: directory, code: errno) }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  package func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

  package func createDirectory(_ directory: String) throws(IOError) {
    var path = directory.hasPrefix("/") ? "" : "."
    for component in directory.split(separator: "/") {
      path += "/" + component
      if mkdir(path, 0o755) != 0 && errno != EEXIST {
        throw IOError(operation: "mkdir", path: path, code: errno)
      }
    }
  }

  package func rename(_ source: String, to destination: String) throws(IOError) {
    guard systemRename(source, destination) == 0 else {
      throw IOError(operation: "rename", path: source, code: errno)
    }
  }

  package func remove(_ path: String) throws(IOError) {
    guard unlink(path) == 0 else { throw IOError(operation: "remove", path: path, code: errno) }
  }

  package func syncDirectory(_ directory: String) throws(IOError) {
    let fd = systemOpen(directory, O_RDONLY | O_CLOEXEC, 0)
    guard fd >= 0 else { throw IOError(operation: "open", path: directory, code: errno) }
    defer { _ = systemClose(fd) }
    guard fsync(fd) == 0 else { throw IOError(operation: "sync", path: directory, code: errno) }
  }

  package func lock(_ path: String) throws(IOError) -> any LogFileLock {
    let fd = systemOpen(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw IOError(operation: "open", path: path, code: errno) }
    // A process forked by this one holds an inherited copy of a lock until its exec closes it, so a
    // lock released a moment ago can look held. On a loaded machine a spawned child may wait tens of
    // milliseconds for a core before its exec (a full test run at load 26 saw 50 ms pass), so retry for
    // about half a second (2 ms apart, then 10 ms) before reporting the log held.
    var attempts = 0
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      let code = errno
      attempts += 1
      if (code == EWOULDBLOCK || code == EINTR) && attempts < 60 {
        usleep(attempts < 10 ? 2_000 : 10_000)
        continue
      }
      _ = systemClose(fd)
      throw IOError(operation: "lock", path: path, code: code)
    }
    return POSIXLock(fd: fd)
  }
}

private func retrying(_ call: () -> Int32) -> Int32 {
  while true {
    let result = call()
    if result >= 0 || errno != EINTR { return result }
  }
}

// The platform's functions under names that do not clash with the protocol's methods.
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
private func systemRename(_ source: String, _ destination: String) -> Int32 { rename(source, destination) }

final class POSIXLock: LogFileLock {
  private let fd: Int32
  init(fd: Int32) { self.fd = fd }
  func release() { _ = systemClose(fd) }
}

/// A file descriptor. `pread`/`pwrite` keep no shared offset, so reads and writes may come from any thread.
final class POSIXFile: LogFile {
  let fd: Int32
  let path: String

  init(fd: Int32, path: String) {
    self.fd = fd
    self.path = path
  }

  func size() throws(IOError) -> UInt64 {
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw IOError(operation: "stat", path: path, code: errno) }
    return UInt64(info.st_size)
  }

  func read(at offset: UInt64, count: Int) throws(IOError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: max(count, 0))
    let done = bytes.withUnsafeMutableBytes { buffer in
      Result { () throws(IOError) in try read(at: offset, into: buffer) }
    }
    let got = try done.get()
    if got < count { bytes.removeLast(count - got) }
    return bytes
  }

  func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws(IOError) -> Int {
    let count = buffer.count
    var done = 0
    while done < count {
      let result = pread(fd, buffer.baseAddress.map { $0 + done }, count - done, off_t(offset) + off_t(done))
      if result < 0 {
        if errno == EINTR { continue }
        throw IOError(operation: "read", path: path, code: errno)
      }
      if result == 0 { break }
      done += result
    }
    return done
  }

  func write(_ bytes: [UInt8], at offset: UInt64) throws(IOError) {
    var done = 0
    var failure: Int32 = 0
    bytes.withUnsafeBytes { buffer in
      while done < buffer.count {
        let result = pwrite(
          fd, buffer.baseAddress.map { $0 + done }, buffer.count - done, off_t(offset) + off_t(done))
        if result < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        done += result
      }
    }
    if failure != 0 { throw IOError(operation: "write", path: path, code: failure) }
  }

  func sync() throws(IOError) {
    #if canImport(Darwin)
      // fsync on Apple systems does not flush the drive's cache; F_FULLFSYNC does.
      if fcntl(fd, F_FULLFSYNC) == 0 { return }
      guard fsync(fd) == 0 else { throw IOError(operation: "sync", path: path, code: errno) }
    #else
      guard fdatasync(fd) == 0 else { throw IOError(operation: "sync", path: path, code: errno) }
    #endif
  }

  func truncate(to size: UInt64) throws(IOError) {
    guard ftruncate(fd, off_t(size)) == 0 else {
      throw IOError(operation: "truncate", path: path, code: errno)
    }
  }

  func close() { _ = systemClose(fd) }

  func nextData(from offset: UInt64) -> UInt64? {
    #if os(Linux)
      // SEEK_DATA (Linux's value; Glibc's module leaves it out, as it needs _GNU_SOURCE).
      let seekData: Int32 = 3
      let found = lseek(fd, off_t(offset), seekData)
      if found >= 0 { return UInt64(found) }
      // ENXIO: only holes from here to the end. Anything else (no SEEK_DATA here): data may be anywhere.
      return errno == ENXIO ? nil : offset
    #else
      return offset
    #endif
  }
}
