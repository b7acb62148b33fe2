/// A message a server delivered (`MSG` or `HMSG`).
public struct NATSMessage: Sendable, Hashable {
  /// The subject it was published to.
  public var subject: String
  /// The subscription it was delivered on.
  public var sid: UInt64
  /// Where a reply goes, if the publisher asked for one.
  public var reply: String?
  /// The header block (`HMSG` only).
  public var headers: NATSHeaders?
  /// The payload.
  public var payload: [UInt8]

  /// Creates a message.
  public init(
    subject: String, sid: UInt64, reply: String? = nil, headers: NATSHeaders? = nil, payload: [UInt8]
  ) {
    self.subject = subject
    self.sid = sid
    self.reply = reply
    self.headers = headers
    self.payload = payload
  }

  /// The status of a status message (`NATS/1.0 503` and the like): no payload, only a code.
  public var status: Int? { headers?.status }
}

/// One operation a server sends.
public enum NATSServerOperation: Sendable, Hashable {
  /// `INFO {json}`: sent first, and again when the cluster or the server's state changes.
  case info(NATSServerInfo)
  /// `MSG` or `HMSG`.
  case message(NATSMessage)
  /// `PING`: answer with `PONG`.
  case ping
  /// `PONG`: the answer to a `PING`.
  case pong
  /// `+OK` (verbose mode only).
  case ok
  /// `-ERR 'text'`.
  case error(String)
}
