import Foundation

/// How the client authenticates: a user and password, or a token. Read from a file or the environment,
/// never from the command line (see ``NATSServerAddress``).
public enum NATSCredentials: Sendable, Hashable, CustomStringConvertible {
  /// `user` and `password` in `CONNECT`.
  case userPassword(user: String, password: String)
  /// `auth_token` in `CONNECT`.
  case token(String)

  /// The environment variables ``fromEnvironment(_:)`` reads.
  public static let userVariable = "REWIND_NATS_USER"
  /// The password's environment variable.
  public static let passwordVariable = "REWIND_NATS_PASSWORD"
  /// The token's environment variable.
  public static let tokenVariable = "REWIND_NATS_TOKEN"

  /// Credentials from `REWIND_NATS_TOKEN`, or `REWIND_NATS_USER` and `REWIND_NATS_PASSWORD`; `nil` when
  /// none is set.
  /// - Throws: ``NATSError/invalidCredentials(_:)`` for a user without a password (or the reverse), or
  ///   both a token and a user.
  public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
    throws(NATSError) -> NATSCredentials?
  {
    let user = environment[userVariable].flatMap { $0.isEmpty ? nil : $0 }
    let password = environment[passwordVariable].flatMap { $0.isEmpty ? nil : $0 }
    let token = environment[tokenVariable].flatMap { $0.isEmpty ? nil : $0 }
    return try make(user: user, password: password, token: token, origin: "the environment")
  }

  /// Credentials from a file of `key=value` lines: `token=…`, or `user=…` and `password=…` (blank lines
  /// and lines starting with `#` are ignored; the value is everything after the first `=`).
  /// - Throws: ``NATSError/invalidCredentials(_:)`` when the file cannot be read or is incomplete.
  public static func fromFile(_ path: String) throws(NATSError) -> NATSCredentials {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .invalidCredentials("cannot read \(path)")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw .invalidCredentials("\(path) is not UTF-8 text")
    }
    var values: [String: String] = [:]
    for raw in text.split(whereSeparator: \.isNewline) {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix("#") { continue }
      guard let equals = line.firstIndex(of: "=") else {
        throw .invalidCredentials("\(path): a line without '=' (expected user=, password= or token=)")
      }
      let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
      guard ["user", "password", "token"].contains(key) else {
        throw .invalidCredentials("\(path): unknown key '\(key)' (expected user, password or token)")
      }
      values[key] = String(line[line.index(after: equals)...])
    }
    guard
      let credentials = try make(
        user: values["user"], password: values["password"], token: values["token"], origin: path)
    else {
      throw .invalidCredentials("\(path) holds no user, password or token")
    }
    return credentials
  }

  private static func make(user: String?, password: String?, token: String?, origin: String) throws(NATSError)
    -> NATSCredentials?
  {
    switch (user, password, token) {
    case (nil, nil, nil): return nil
    case (nil, nil, let token?): return .token(token)
    case (let user?, let password?, nil): return .userPassword(user: user, password: password)
    case (_, _, .some): throw .invalidCredentials("\(origin) has both a token and a user or password")
    case (.some, nil, nil): throw .invalidCredentials("\(origin) has a user but no password")
    case (nil, .some, nil): throw .invalidCredentials("\(origin) has a password but no user")
    }
  }

  /// Names the kind of credentials, never their secrets.
  public var description: String {
    switch self {
    case .userPassword(let user, _): "user \(user) with a password"
    case .token: "a token"
    }
  }
}
