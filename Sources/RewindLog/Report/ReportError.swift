/// Why a bug report cannot be written or read. Reading checks, in order: that the file is a report of a
/// version this build reads, its checksum, its metadata against the app reading it, then the hash chain
/// over its events; the first failure is the error, and nothing of the report is used.
public enum ReportError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file is not a Rewind bug report (its first bytes are not a report's), or is too short to be one.
  case notAReport(path: String)
  /// A report of a format version this build does not read.
  case unsupportedVersion(UInt32)
  /// The file is larger than the reader accepts.
  case tooLarge(bytes: UInt64, limit: UInt64)
  /// The file's bytes are damaged: its checksum does not match, or a part of it is malformed.
  case damaged(String)
  /// The report was made by another app.
  case otherApp(expected: String, found: String)
  /// An event type of the report is recorded in a schema version this build cannot read: no chain of
  /// upcasters leads from it to the app's version (or it is newer than the app's).
  case incompatibleSchema(type: String, version: UInt64, appVersion: UInt64, reason: String)
  /// The report's state does not decode as the app's state type.
  case incompatibleState(reason: String)
  /// The hash chain over the report's events breaks at event `sequence`: an event was changed, removed,
  /// added or reordered after the report was made.
  case chainBroken(sequence: UInt64, problem: FrameProblem)
  /// What the report was to be made from cannot be used (no events in the range, a log without the state
  /// before the range, a redaction that makes an event undecodable).
  case cannotReport(String)
  /// A file could not be read or written.
  case io(IOError)
  /// The report's destination (or the `.partial` beside it) exists and is `kind` ("a directory", "a FIFO",
  /// "a symbolic link"…), not a regular file: a report replaces only a regular file.
  case notARegularFile(path: String, kind: String)

  public var description: String {
    switch self {
    case .notAReport(let path): "\(path) is not a Rewind bug report"
    case .unsupportedVersion(let version):
      "the report is in format version \(version), which this build does not read"
    case .tooLarge(let bytes, let limit): "the report is \(bytes) bytes, more than the \(limit) accepted"
    case .damaged(let reason): "the report is damaged: \(reason)"
    case .otherApp(let expected, let found):
      "the report was made by \"\(found)\", not by \"\(expected)\""
    case .incompatibleSchema(let type, let version, let appVersion, let reason):
      "the report's \"\(type)\" events are in schema version \(version) and this app reads version "
        + "\(appVersion): \(reason)"
    case .incompatibleState(let reason): "the report's state does not decode as the app's state: \(reason)"
    case .chainBroken(let sequence, let problem):
      "the report's hash chain breaks at event \(sequence): \(problem)"
    case .cannotReport(let reason): "cannot make the report: \(reason)"
    case .io(let error): "\(error)"
    case .notARegularFile(let path, let kind):
      "\(path) is \(kind), not a regular file: a report is written to a new path or over a regular file"
    }
  }
}
