/// Why the NATS protocol stream from a server could not be read: the bytes broke the protocol's grammar or
/// its limits. The connection that received them is closed; nothing in it is trusted further.
public enum NATSProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A control line began with an operation the protocol does not have.
  case unknownOperation(String)
  /// No line end within the limit: a control line longer than any server sends.
  case controlLineTooLong(limit: Int)
  /// A known operation with arguments that do not parse (count, sizes, numbers).
  case malformedControlLine(String)
  /// An `INFO` whose JSON does not decode.
  case malformedInfo(String)
  /// A message larger than the connection accepts (the server's `max_payload`).
  case oversizedMessage(size: Int, limit: Int)
  /// A header block that is not `NATS/1.0` followed by `Name: value` lines and an empty line.
  case malformedHeaders(String)
  /// A message's payload not followed by CR LF.
  case missingPayloadTerminator

  public var description: String {
    switch self {
    case .unknownOperation(let operation): "unknown protocol operation '\(operation)'"
    case .controlLineTooLong(let limit): "a control line longer than \(limit) bytes"
    case .malformedControlLine(let line): "malformed control line: \(line)"
    case .malformedInfo(let why): "malformed INFO: \(why)"
    case .oversizedMessage(let size, let limit): "a message of \(size) bytes, over the limit of \(limit)"
    case .malformedHeaders(let why): "malformed message headers: \(why)"
    case .missingPayloadTerminator: "a message payload not followed by CR LF"
    }
  }
}

/// What went wrong talking to a NATS server.
public enum NATSError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A server address that is not `nats://host:port` (or `host:port`); credentials in it are refused.
  case invalidAddress(String)
  /// Credentials that could not be read or are incomplete.
  case invalidCredentials(String)
  /// No TCP connection could be made to the server.
  case connectionFailed(server: String, reason: String)
  /// The connection ended; `midMessage` when the server closed it in the middle of an operation.
  case connectionClosed(server: String, midMessage: Bool)
  /// The server did not answer in time.
  case timeout(String)
  /// The server's bytes broke the protocol.
  case protocolViolation(server: String, NATSProtocolError)
  /// The server sent `-ERR` with this text (authorization, permissions, a stale connection...).
  case serverError(server: String, message: String)
  /// The server requires TLS, which this platform's client does not provide (see Docs/Shipping.md, leaf node).
  case tlsRequired(server: String)
  /// A message larger than the server's `max_payload`: refused before sending (the server would close the
  /// connection).
  case payloadTooLarge(size: Int, maxPayload: Int)
  /// A reply arrived for an inbox this client is not waiting on; it was dropped.
  case unknownInbox(subject: String)
  /// Nobody listens on the subject (JetStream: no stream leader, e.g. during an election).
  case noResponders(subject: String)
  /// A subject that cannot be sent: empty, or holding a space or a control character (which would end the
  /// protocol line early and let the rest be read as another operation). Refused before anything is sent.
  case invalidSubject(String)
  /// The server list is empty.
  case noServers
  /// The connection was closed by this client.
  case closed

  /// Whether the server refused the credentials.
  public var isAuthorizationViolation: Bool {
    if case .serverError(_, let message) = self {
      return message.lowercased().contains("authorization violation")
        || message.lowercased().contains("authentication")
    }
    return false
  }

  /// Whether the server refused this client's publish or subscribe on a subject
  /// (`-ERR 'Permissions Violation for Publish to "..."'`).
  public var isPermissionViolation: Bool {
    if case .serverError(_, let message) = self {
      return message.lowercased().hasPrefix("permissions violation")
    }
    return false
  }

  /// Whether the server refused this client access: its credentials, or a subject it may not use. A
  /// retry with the same credentials cannot succeed.
  public var isAccessRefused: Bool { isAuthorizationViolation || isPermissionViolation }

  public var description: String {
    switch self {
    case .invalidAddress(let text): "invalid server address '\(text)'"
    case .invalidCredentials(let why): "invalid NATS credentials: \(why)"
    case .connectionFailed(let server, let reason): "cannot connect to \(server): \(reason)"
    case .connectionClosed(let server, let midMessage):
      midMessage
        ? "\(server) closed the connection in the middle of a message" : "\(server) closed the connection"
    case .timeout(let what): "timed out: \(what)"
    case .protocolViolation(let server, let error): "\(server) broke the NATS protocol: \(error)"
    case .serverError(let server, let message): "\(server) sent -ERR '\(message)'"
    case .tlsRequired(let server):
      "\(server) requires TLS, which this client has only on Apple platforms; use a local leaf node (Docs/Shipping.md)"
    case .payloadTooLarge(let size, let maxPayload):
      "a message of \(size) bytes is over the server's max_payload of \(maxPayload)"
    case .unknownInbox(let subject): "a reply for an unknown inbox (\(subject)) was dropped"
    case .noResponders(let subject): "no responders on \(subject)"
    case .invalidSubject(let why): "invalid subject: \(why)"
    case .noServers: "no NATS server to connect to"
    case .closed: "the connection was closed"
    }
  }
}
