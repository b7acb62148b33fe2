/// How a client connects and keeps a connection alive.
public struct NATSConnectionOptions: Sendable, Hashable {
  /// How to authenticate; `nil` for a server without authentication.
  public var credentials: NATSCredentials?
  /// The client's name in the server's connection list.
  public var name: String
  /// How long a TCP connect and the handshake (INFO, CONNECT, PONG) may take.
  public var connectTimeout: Duration
  /// How often a quiet connection sends `PING`.
  public var pingInterval: Duration
  /// How many `PING`s may go unanswered before the connection counts as stale and is closed.
  public var maximumOutstandingPings: Int

  /// Creates options.
  public init(
    credentials: NATSCredentials? = nil, name: String = "rewind", connectTimeout: Duration = .seconds(5),
    pingInterval: Duration = .seconds(20), maximumOutstandingPings: Int = 2
  ) {
    self.credentials = credentials
    self.name = name
    self.connectTimeout = connectTimeout
    self.pingInterval = pingInterval
    self.maximumOutstandingPings = max(1, maximumOutstandingPings)
  }
}

extension Duration {
  /// Whole milliseconds, at least 1 and at most `Int32.max`, for `poll`.
  var pollMilliseconds: Int32 {
    let (seconds, attoseconds) = components
    let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
    return Int32(clamping: max(1, milliseconds))
  }
}
