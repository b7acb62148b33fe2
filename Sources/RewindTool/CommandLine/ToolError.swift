import Foundation
import RewindLog

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a command failed; each case maps to an ``ExitStatus``, and its message names the path and cause.
public enum ToolError: Error, Sendable, CustomStringConvertible {
  /// The command line is wrong.
  case usage(UsageError)
  /// A path or event that does not exist.
  case noInput(path: String, cause: String)
  /// A file that could not be read or written.
  case io(path: String, cause: String)
  /// The log is damaged or tampered with, or verification failed.
  case damaged(path: String, cause: String)
  /// A server refused the credentials or a permission the command needs.
  case noPermission(path: String, cause: String)

  /// The exit status for this error.
  public var status: ExitStatus {
    switch self {
    case .usage: .usage
    case .noInput: .noInput
    case .io: .ioError
    case .damaged: .failure
    case .noPermission: .noPermission
    }
  }

  public var description: String {
    switch self {
    case .usage(let error): error.message
    case .noInput(let path, let cause): "\(path): \(cause)"
    case .io(let path, let cause): "\(path): \(cause)"
    case .damaged(let path, let cause): "\(path): \(cause)"
    case .noPermission(let path, let cause): "\(path): \(cause)"
    }
  }

  /// Classifies an error of `RewindLog` met while reading the log at `path`.
  static func reading(_ path: String, _ error: any Error) -> ToolError {
    if let tool = error as? ToolError { return tool }
    if let usage = error as? UsageError { return .usage(usage) }
    guard let journal = error as? FileJournalError else {
      if let io = error as? IOError { return classify(io) }
      return .damaged(path: path, cause: String(describing: error))
    }
    switch journal.code {
    case .io, .durabilityLost:
      return journal.underlying.map(classify) ?? .io(path: path, cause: journal.description)
    case .locked: return .io(path: path, cause: journal.description)
    case .keyRequired: return .usage(UsageError("\(path): \(journal.description): pass --key-file FILE"))
    default: return .damaged(path: path, cause: journal.description)
    }
  }

  private static func classify(_ io: IOError) -> ToolError {
    let cause = "cannot \(io.operation): \(String(cString: strerror(io.code))) (errno \(io.code))"
    return io.code == ENOENT ? .noInput(path: io.path, cause: cause) : .io(path: io.path, cause: cause)
  }
}
