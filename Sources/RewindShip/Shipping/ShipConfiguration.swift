import RewindLog

/// Where and how a log is shipped.
public struct ShipConfiguration: Sendable {
  /// The servers to connect to (a cluster's others are learnt from it).
  public var servers: [NATSServerAddress]
  /// Credentials, timeouts and keep-alive.
  public var connection: NATSConnectionOptions
  /// The stream: one stream per log (Docs/Shipping.md explains why).
  public var stream: String
  /// The subject the events are published to; default `rewind.log.<log id>`.
  public var subject: String?
  /// Replicas for a stream the shipper creates (1 or 3, or 5).
  public var replicas: Int
  /// Whether the shipper creates the stream when it does not exist.
  public var createsStream: Bool
  /// How many events may await their acknowledgement at once.
  public var window: Int
  /// The chain key of a keyed log: the shipper recomputes every chain value before shipping. Without it, a
  /// keyed log is shipped with only its stored chain values' links checked (a verifier with the key checks
  /// the rest).
  public var chainKey: ChainKey?
  /// How long an event may wait for its acknowledgement before the shipper asks the stream what it holds.
  public var acknowledgementTimeout: Duration
  /// How long a JetStream API request may take.
  public var requestTimeout: Duration
  /// The waits between attempts after failures.
  public var backoff: NATSBackoff
  /// How often a caught-up shipper looks for new events (``Shipper/wake()`` looks at once).
  public var pollInterval: Duration
  /// The duplicate window of a stream the shipper creates.
  public var duplicateWindow: Duration
  /// Prepended to the event type name in `ce-type`.
  public var typePrefix: String
  /// Ships only events up to the sequence this returns (a journal's durable sequence), when set.
  public var shipsThrough: (@Sendable () -> UInt64)?

  /// Creates a configuration.
  public init(
    servers: [NATSServerAddress], stream: String, connection: NATSConnectionOptions = NATSConnectionOptions(),
    subject: String? = nil, replicas: Int = 1, createsStream: Bool = true, window: Int = 256,
    chainKey: ChainKey? = nil, acknowledgementTimeout: Duration = .seconds(5),
    requestTimeout: Duration = .seconds(5),
    backoff: NATSBackoff = NATSBackoff(), pollInterval: Duration = .milliseconds(50),
    duplicateWindow: Duration = .seconds(120), typePrefix: String = "",
    shipsThrough: (@Sendable () -> UInt64)? = nil
  ) {
    self.servers = servers
    self.stream = stream
    self.connection = connection
    self.subject = subject
    self.replicas = replicas
    self.createsStream = createsStream
    self.window = window
    self.chainKey = chainKey
    self.acknowledgementTimeout = acknowledgementTimeout
    self.requestTimeout = requestTimeout
    self.backoff = backoff
    self.pollInterval = pollInterval
    self.duplicateWindow = duplicateWindow
    self.typePrefix = typePrefix
    self.shipsThrough = shipsThrough
  }

  /// Why the configuration cannot work, or `nil`.
  var problem: String? {
    if servers.isEmpty { return "no server" }
    if window < 1 { return "the window must be at least 1" }
    if let problem = NATSName.problem(stream, kind: "stream") { return problem }
    if let subject,
      let problem = NATSName.subjectProblem(subject)
        ?? (subject.contains(where: { "*>".contains($0) })
          ? "a subject may not hold wildcards" : nil)
    {
      return problem
    }
    if ![1, 3, 5].contains(replicas) { return "replicas must be 1, 3 or 5" }
    return nil
  }
}

/// How far shipping has got, and what it is doing.
public struct ShipProgress: Sendable, Hashable {
  /// What the shipper is doing.
  public enum State: Sendable, Hashable {
    /// Not started yet.
    case idle
    /// Connecting to a server.
    case connecting
    /// Reading the stream's last message and comparing it with the log.
    case resynchronizing
    /// Publishing events.
    case shipping
    /// Everything in the log is acknowledged; waiting for more.
    case caughtUp
    /// Paused by the app (offline, or on purpose).
    case paused
    /// Waiting before the next attempt after a failure (``ShipProgress/lastError``).
    case waitingToRetry
    /// Stopped: by ``Shipper/stop()``, or for good after a fatal error.
    case stopped
  }

  /// The state.
  public var state: State = .idle
  /// Every event through this one is acknowledged by the stream (0: none yet).
  public var shippedThrough: UInt64 = 0
  /// The stream sequence of ``shippedThrough``.
  public var streamSequence: UInt64 = 0
  /// The newest event read from the log.
  public var readThrough: UInt64 = 0
  /// Events published and not yet acknowledged.
  public var inFlight: Int = 0
  /// The first event the stream holds (0 while unknown).
  public var firstShipped: UInt64 = 0
  /// The last error; fatal when ``state`` is `.stopped` and it is set.
  public var lastError: ShipError?
  /// Replies that arrived for no waiting request (late acknowledgements after a timeout): dropped.
  public var ignoredReplies: Int = 0
  /// How many times the shipper re-read the stream after an error.
  public var resynchronizations: Int = 0
}
