/// Every file operation the log makes, so tests can substitute a layer that injects faults and simulates
/// power loss. Paths are plain strings; directories are separated by "/".
package protocol LogFileSystem: Sendable {
  /// Opens a file for reading and writing, creating it when `create` is true.
  func open(_ path: String, create: Bool) throws(IOError) -> any LogFile
  /// Opens an existing file for reading only, so that verifying works on files this process may not write.
  func openForReading(_ path: String) throws(IOError) -> any LogFile
  /// Creates `path`, which must not exist, without following a link there: a temporary file in a directory
  /// others may write to, which a link planted between a check and the open must not redirect.
  func createNew(_ path: String) throws(IOError) -> any LogFile
  /// The names (not paths) of the entries in `directory`.
  func contents(of directory: String) throws(IOError) -> [String]
  /// Whether `path` names an existing file or directory.
  func exists(_ path: String) -> Bool
  /// Creates `directory` and its parents if missing.
  func createDirectory(_ directory: String) throws(IOError)
  /// Atomically replaces `destination` with `source`.
  func rename(_ source: String, to destination: String) throws(IOError)
  /// Removes a file.
  func remove(_ path: String) throws(IOError)
  /// Makes the directory's entries (creations, renames, removals) durable.
  func syncDirectory(_ directory: String) throws(IOError)
  /// Takes an exclusive advisory lock on `path`, failing at once when another holder has it.
  func lock(_ path: String) throws(IOError) -> any LogFileLock
}

extension LogFileSystem {
  /// Opens the file for reading and writing; a layer without a read-only mode.
  package func openForReading(_ path: String) throws(IOError) -> any LogFile { try open(path, create: false) }

  /// Creates the file; a layer without an exclusive mode opens it as ``open(_:create:)`` does.
  package func createNew(_ path: String) throws(IOError) -> any LogFile { try open(path, create: true) }
}

/// An open file.
package protocol LogFile: AnyObject, Sendable {
  /// The current size in bytes.
  func size() throws(IOError) -> UInt64
  /// Up to `count` bytes from `offset` (fewer at the end of the file).
  func read(at offset: UInt64, count: Int) throws(IOError) -> [UInt8]
  /// Reads up to `buffer.count` bytes from `offset` into `buffer` (fewer at the end of the file), and
  /// returns how many: for a reader that fills its own buffer, without an array per read.
  func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws(IOError) -> Int
  /// Writes all of `bytes` at `offset`.
  func write(_ bytes: [UInt8], at offset: UInt64) throws(IOError)
  /// Makes the file's data and size durable (fdatasync; F_FULLFSYNC on Apple systems).
  func sync() throws(IOError)
  /// Cuts the file to `size` bytes.
  func truncate(to size: UInt64) throws(IOError)
  /// Closes the file; later calls fail.
  func close()
  /// Where data may start at or after `offset`, skipping the holes of a sparse file (which read as
  /// zeros); `nil` when there is none before the end of the file.
  func nextData(from offset: UInt64) -> UInt64?
}

extension LogFile {
  /// `offset`: a file that knows nothing of holes may hold data anywhere.
  package func nextData(from offset: UInt64) -> UInt64? { offset }

  /// Through ``read(at:count:)``, for a layer that has nothing better.
  package func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws(IOError) -> Int {
    let bytes = try read(at: offset, count: buffer.count)
    bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
    return bytes.count
  }
}

/// A held advisory lock, released by ``release()`` or when the process ends.
package protocol LogFileLock: AnyObject, Sendable {
  /// Releases the lock.
  func release()
}

/// A failed file operation: the operation, the path and the `errno` value.
public struct IOError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was attempted, e.g. "write" or "sync".
  public var operation: String
  /// The file or directory.
  public var path: String
  /// The `errno` value, e.g. `EIO` or `ENOSPC`.
  public var code: Int32

  /// Creates an error.
  public init(operation: String, path: String, code: Int32) {
    self.operation = operation
    self.path = path
    self.code = code
  }

  public var description: String { "\(operation) \(path) failed: \(errnoDescription(code)) (errno \(code))" }
}
