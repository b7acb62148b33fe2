/// The exit statuses scripts can rely on (all but 0 and 1 follow BSD's `sysexits.h`).
public enum ExitStatus: Int32, Sendable, CaseIterable {
  /// Success.
  case ok = 0
  /// Verification failed or the log is damaged or tampered with.
  case failure = 1
  /// The command line is wrong (`EX_USAGE`).
  case usage = 64
  /// The data is wrong in a way a crash rarely causes: `verify --strict` found a complete frame with a
  /// bad checksum at the log's end (`EX_DATAERR`).
  case dataError = 65
  /// The log directory, a file or an event named does not exist (`EX_NOINPUT`).
  case noInput = 66
  /// A file could not be read or written (`EX_IOERR`).
  case ioError = 74
  /// A server refused the credentials or the permissions the command needs (`EX_NOPERM`): retrying with
  /// the same ones cannot succeed.
  case noPermission = 77
}
