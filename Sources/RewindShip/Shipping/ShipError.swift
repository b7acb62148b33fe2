import RewindLog

/// What is wrong with the local log, found before anything of it was shipped.
public enum ShipLogProblem: Sendable, Hashable, CustomStringConvertible {
  /// A file could not be read.
  case io(String)
  /// The directory holds no log.
  case noLog(directory: String)
  /// Damage (not a torn tail): a flipped byte, a cut-short segment that is not the newest...
  case damaged(segment: String, offset: UInt64, reason: String)
  /// A frame's chain value does not match its contents: the log was edited.
  case tampered(segment: String, offset: UInt64, firstSequence: UInt64)
  /// Retention removed events the stream does not hold.
  case eventsCut(requested: UInt64, firstAvailable: UInt64)
  /// A key was given for a log that is not keyed.
  case notKeyed(segment: String)
  /// The key does not fit the log.
  case wrongKey(segment: String)
  /// A frame a verifier could not recompute from what would be shipped.
  case unshippable(segment: String, offset: UInt64, reason: String)

  init(_ error: LogTailError) {
    switch error {
    case .io(let text): self = .io(text)
    case .noLog(let directory): self = .noLog(directory: directory)
    case .damaged(let segment, let offset, let reason):
      self = .damaged(segment: segment, offset: offset, reason: reason)
    case .tampered(let segment, let offset, let first):
      self = .tampered(segment: segment, offset: offset, firstSequence: first)
    case .eventsCut(let requested, let first): self = .eventsCut(requested: requested, firstAvailable: first)
    case .notKeyed(let segment): self = .notKeyed(segment: segment)
    case .wrongKey(let segment): self = .wrongKey(segment: segment)
    case .unshippable(let segment, let offset, let reason):
      self = .unshippable(segment: segment, offset: offset, reason: reason)
    }
  }

  public var description: String {
    switch self {
    case .io(let text): "cannot read the log: \(text)"
    case .noLog(let directory): "no log in \(directory)"
    case .damaged(let segment, let offset, let reason): "damaged at byte \(offset) of \(segment): \(reason)"
    case .tampered(let segment, let offset, let first):
      "the frame at byte \(offset) of \(segment) (events from \(first)) does not match its chain value: the log was modified"
    case .eventsCut(let requested, let first):
      "event \(requested) was removed by retention (the log now starts at \(first)) before it was shipped"
    case .notKeyed(let segment): "a key was given but the log is not keyed (\(segment))"
    case .wrongKey(let segment): "the key does not fit the log (\(segment))"
    case .unshippable(let segment, let offset, let reason):
      "the frame at byte \(offset) of \(segment) cannot be shipped: \(reason)"
    }
  }
}

/// Why shipping stopped or is retrying.
public enum ShipError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The stream holds a different history than the local log from `sequence` on: nothing more is shipped.
  case diverged(sequence: UInt64, streamSequence: UInt64, reason: String)
  /// The local log is damaged, modified, or no longer holds what must be shipped next.
  case localLog(ShipLogProblem)
  /// The stream cannot hold the log safely (it allows deletes or purges, stores other subjects...), or
  /// does not exist and may not be created.
  case streamConfiguration(String)
  /// The stream holds another log's events, or messages that are not shipped events.
  case foreignStream(String)
  /// The configuration is unusable (no server, a window of 0...).
  case invalidConfiguration(String)
  /// Talking to the server failed (retried).
  case nats(NATSError)
  /// JetStream answered with an error or nonsense: retried, unless the error is permanent
  /// (``JetStreamAPIError/isPermanent``).
  case jetStream(JetStreamError)
  /// No acknowledgement for an event in time (retried: the stream says what it holds).
  case acknowledgementTimeout(sequence: UInt64)
  /// The stream's last sequence moved under the shipper (another shipper, a lost acknowledgement): it
  /// reads the stream again and continues after what it holds.
  case streamMoved(sequence: UInt64)
  /// Shipping was stopped before it caught up.
  case stopped

  /// Whether retrying cannot help: the shipper stops.
  public var isFatal: Bool {
    switch self {
    case .diverged, .localLog, .streamConfiguration, .foreignStream, .invalidConfiguration, .stopped: true
    case .nats(let error):
      error.isAccessRefused || { if case .tlsRequired = error { true } else { false } }()
    // A JetStream error is retried unless the server refused the request for good (its err_code says so).
    case .jetStream(let error): error.isPermanent
    case .acknowledgementTimeout, .streamMoved: false
    }
  }

  /// Whether the server refused this client access (credentials, a subject it may not publish to,
  /// JetStream not enabled for its account): `rewind ship` exits 77 for it.
  public var isAccessRefused: Bool {
    switch self {
    case .nats(let error): error.isAccessRefused
    case .jetStream(let error): error.isAccessRefused
    default: false
    }
  }

  public var description: String {
    switch self {
    case .diverged(let sequence, let streamSequence, let reason):
      "the stream's history diverges from the local log at event \(sequence) (stream sequence \(streamSequence)): \(reason)"
    case .localLog(let problem): "local log: \(problem)"
    case .streamConfiguration(let why): "stream: \(why)"
    case .foreignStream(let why): "the stream holds something else: \(why)"
    case .invalidConfiguration(let why): "invalid configuration: \(why)"
    case .nats(let error): error.description
    case .jetStream(let error): error.description
    case .acknowledgementTimeout(let sequence): "no acknowledgement for event \(sequence) in time"
    case .streamMoved(let sequence):
      "the stream moved on before event \(sequence) (wrong last sequence); reading it again"
    case .stopped: "stopped"
    }
  }
}
