#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// Why a socket operation failed.
public struct SocketError: Error, Equatable, CustomStringConvertible {
  /// The operation: `socket`, `bind`, `listen`, `accept`, `connect`, `read`, `write`, ...
  public var operation: String
  /// The C library's error number, 0 when the failure was not one (a timeout, the peer closing).
  public var code: Int32
  /// What happened, in words.
  public var detail: String

  /// A failure with the current `errno`.
  static func system(_ operation: String) -> SocketError {
    let code = errno
    return SocketError(operation: operation, code: code, detail: String(cString: strerror(code)))
  }

  public var description: String {
    code == 0 ? "\(operation): \(detail)" : "\(operation): \(detail) (errno \(code))"
  }
}
