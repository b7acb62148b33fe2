import Rewind

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

// Reading a secret only from a file that is still one: the checks OpenSSH makes of a private key.

extension TokenFile {
  /// The first `limit + 1` bytes of `path` (one more than allowed, so that a caller sees a file too long),
  /// if `path` is a regular file owned by the current user whose mode grants no group or other permission.
  /// The checks are made on the opened descriptor, so the file cannot be swapped between check and read.
  /// - Throws: ``TokenFileError``.
  static func readPrivateFile(_ path: String, limit: Int) throws(TokenFileError) -> [UInt8] {
    // O_NOFOLLOW: a symbolic link fails to open (ELOOP); O_NONBLOCK: a FIFO opens at once, unread.
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      var link = stat()
      if lstat(path, &link) == 0, let kind = nonRegularFileKind(link.st_mode) {
        throw .notARegularFile(path, kind: kind)
      }
      throw .cannotRead(path)
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw .cannotRead(path) }
    if let kind = nonRegularFileKind(info.st_mode) { throw .notARegularFile(path, kind: kind) }
    guard info.st_uid == geteuid() else { throw .notOwnedByUser(path, owner: UInt32(info.st_uid)) }
    guard UInt32(info.st_mode) & 0o077 == 0 else { throw .tooOpen(path, mode: UInt32(info.st_mode) & 0o7777) }
    var bytes = [UInt8](repeating: 0, count: limit + 1)
    var filled = 0
    while filled < bytes.count {
      let result = bytes.withUnsafeMutableBytes {
        systemRead(descriptor, $0.baseAddress.map { $0 + filled }, $0.count - filled)
      }
      if result < 0 && errno == EINTR { continue }
      guard result >= 0 else { throw .cannotRead(path) }
      if result == 0 { break }
      filled += result
    }
    return Array(bytes.prefix(filled))
  }
}

/// `read(2)`, named apart from ``TokenFile/read(from:)``.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(descriptor, buffer, count)
}
