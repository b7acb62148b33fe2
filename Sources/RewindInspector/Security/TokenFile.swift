import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// The file that tells a tool where the inspector listens and with which token: JSON, mode 0600.
///
/// ```json
/// {"protocol":"rewind-inspector","versions":[1],"host":"127.0.0.1","port":53127,"token":"9f3c…","pid":4242}
/// ```
public struct TokenFile: Sendable, Equatable {
  /// The loopback port.
  public var port: UInt16
  /// The token.
  public var token: InspectorToken
  /// The app's process id.
  public var processID: Int32

  /// Creates the description of an inspector.
  public init(port: UInt16, token: InspectorToken, processID: Int32) {
    (self.port, self.token, self.processID) = (port, token, processID)
  }

  /// The default path: `$XDG_RUNTIME_DIR` (a directory only the user can enter) or else the temporary
  /// directory, `rewind-inspector-<pid>.json`.
  public static func defaultPath(processID: Int32 = getpid()) -> String {
    let environment = ProcessInfo.processInfo.environment
    let directory =
      environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? NSTemporaryDirectory()
    let trimmed = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    return "\(trimmed)/rewind-inspector-\(processID).json"
  }

  /// The file's JSON.
  public var json: InspectorJSON {
    .object([
      ("protocol", .string("rewind-inspector")),
      ("versions", .array(Hello.supportedVersions.map(InspectorJSON.unsigned))),
      ("host", .string("127.0.0.1")), ("port", .integer(Int64(port))), ("token", .string(token.hexadecimal)),
      ("pid", .integer(Int64(processID))),
    ])
  }

  /// Writes the file at `path`, created new with mode 0600: an existing file (or a symbolic link) there
  /// is refused rather than overwritten or followed. A file left half-written is removed.
  /// - Throws: ``TokenFileError``.
  public func write(to path: String) throws(TokenFileError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .cannotCreate(path, String(cString: strerror(errno))) }
    do throws(TokenFileError) {
      defer { close(descriptor) }
      // The mode is exactly 0600 whatever the umask was; a reader refuses any other.
      guard fchmod(descriptor, 0o600) == 0 else { throw TokenFileError.cannotCreate(path, Self.lastError) }
      let bytes = json.bytes + [0x0A]
      var written = 0
      while written < bytes.count {
        let result = bytes.withUnsafeBytes {
          systemWrite(descriptor, $0.baseAddress.map { $0 + written }, bytes.count - written)
        }
        if result < 0 && errno == EINTR { continue }
        guard result > 0 else { throw TokenFileError.cannotCreate(path, Self.lastError) }
        written += result
      }
    } catch {
      unlink(path)
      throw error
    }
  }

  /// Reads a token file: a regular file of the current user's that no one else may read or write (as
  /// OpenSSH requires of a private key), holding an inspector's JSON.
  /// - Throws: ``TokenFileError``: ``TokenFileError/notARegularFile(_:kind:)`` (a symbolic link, a
  ///   directory, a FIFO…), ``TokenFileError/notOwnedByUser(_:owner:)``, ``TokenFileError/tooOpen(_:mode:)``
  ///   (its mode grants a group or other users any permission), ``TokenFileError/cannotRead(_:)`` or
  ///   ``TokenFileError/malformed(_:)``.
  public static func read(from path: String) throws(TokenFileError) -> TokenFile {
    let data = try readPrivateFile(path, limit: 4096)
    guard data.count <= 4096, let json = try? InspectorJSON.parse(data),
      json["protocol"]?.stringValue == "rewind-inspector",
      let port = json["port"]?.unsignedValue, port > 0, port <= UInt64(UInt16.max),
      let text = json["token"]?.stringValue, let token = InspectorToken(hexadecimal: text)
    else { throw .malformed(path) }
    let processID = json["pid"]?.unsignedValue.flatMap { Int32(exactly: $0) } ?? 0
    return TokenFile(port: UInt16(port), token: token, processID: processID)
  }

  /// The text of the last failed call's `errno`.
  static var lastError: String { String(cString: strerror(errno)) }
}

/// Why a token file could not be written or read.
public enum TokenFileError: Error, Equatable, CustomStringConvertible {
  /// The file could not be created (it exists, or the directory is not writable).
  case cannotCreate(String, String)
  /// The file could not be read.
  case cannotRead(String)
  /// The file is not an inspector's token file.
  case malformed(String)
  /// The path is not a regular file but `kind` ("a symbolic link", "a directory", "a FIFO"…): it is not
  /// followed or read.
  case notARegularFile(String, kind: String)
  /// The file belongs to another user (user id `owner`), who could have written any token into it.
  case notOwnedByUser(String, owner: UInt32)
  /// The file's permission bits (`mode`, e.g. 0o644) let a group or other users read or write it: the
  /// token is no longer a secret.
  case tooOpen(String, mode: UInt32)

  public var description: String {
    switch self {
    case .cannotCreate(let path, let reason): "cannot create the token file \(path): \(reason)"
    case .cannotRead(let path): "cannot read the token file \(path)"
    case .malformed(let path): "\(path) is not an inspector token file"
    case .notARegularFile(let path, let kind):
      "the token file \(path) is \(kind), not a regular file: give the path of the file the app wrote"
    case .notOwnedByUser(let path, let owner):
      "the token file \(path) belongs to user \(owner), not to you (user \(geteuid())): refused"
    case .tooOpen(let path, let mode):
      "the token file \(path) has mode \(Self.octal(mode)): other users can read the token, so it is "
        + "refused; run chmod 600 \(path)"
    }
  }

  /// `mode` as four octal digits, `0644`.
  static func octal(_ mode: UInt32) -> String {
    let digits = String(mode & 0o7777, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

/// `write(2)`, named apart from ``TokenFile/write(to:)``.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
