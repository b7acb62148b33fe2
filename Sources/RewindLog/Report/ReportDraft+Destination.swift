import Rewind

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

// Where a report may be written: a new path or a regular file, never renamed over anything else.

extension ReportDraft {
  /// Refuses a destination that exists and is not a regular file (a directory, a FIFO, a device, a socket
  /// or a symbolic link, which a rename would replace or fail on), and a `.partial` beside it that is not
  /// one either (opening it would follow the link or wait on the FIFO). Made before anything is written.
  /// - Throws: ``ReportError/notARegularFile(path:kind:)``.
  static func checkDestination(_ path: String) throws(ReportError) {
    for candidate in [path, path + ".partial"] {
      var info = stat()
      // A path that cannot be looked at (it does not exist yet, say) is left to the write to report.
      guard lstat(candidate, &info) == 0 else { continue }
      if let kind = nonRegularFileKind(info.st_mode) { throw .notARegularFile(path: candidate, kind: kind) }
    }
  }
}
