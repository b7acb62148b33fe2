extension JetStreamAPIError {
  /// Whether retrying the same request cannot succeed: the server refused it for what it asks (a bad
  /// request, more replicas than a server that is not clustered can place, a configuration that conflicts
  /// with an existing stream or exceeds what the account allows).
  ///
  /// Everything else is treated as transient and retried: no leader, a cluster not yet formed, a request
  /// that timed out inside the cluster, and what an operator can clear without the request changing (no
  /// peers to place replicas on during a rolling restart, insufficient memory or storage, the account's
  /// resources exhausted, JetStream disabled on a full disk), and codes newer servers may add. A wrong guess
  /// there costs retries; a wrong guess the other way would give up on a request that could have succeeded.
  public var isPermanent: Bool { Self.permanentCodes.contains(errorCode) }

  /// Whether the account is not allowed to do this (JetStream not enabled for it, or for the server): what
  /// `rewind ship` reports as access refused (77) if the retries give up on it.
  public var isAccessRefused: Bool { Self.accessRefusedCodes.contains(errorCode) }

  /// JetStream is not enabled for the account (also what a server reports after disabling JetStream on a
  /// full disk, until it is reloaded: retried).
  public static let notEnabledForAccount = 10039
  /// Replicas > 1 asked of a server that is not clustered.
  public static let replicasNotSupported = 10074
  /// The cluster has no (or not enough) peers to place the replicas on: retried (a rolling restart).
  public static let noSuitablePeers = 10005
  /// The servers do not have the resources the stream asks for: retried (an operator can add them).
  public static let insufficientResources = 10023
  /// JetStream's meta leader is not available (an election, a cluster forming): retried.
  public static let clusterNotAvailable = 10008

  private static let accessRefusedCodes: Set<Int> = [notEnabledForAccount, 10076]

  /// The err_codes of nats-server 2.9's `server/errors.json` about the request itself, which no retry of
  /// the same request can change.
  private static let permanentCodes: Set<Int> = [
    10003,  // bad request
    10010,  // JetStream clustering support required
    10025,  // invalid JSON
    10052,  // stream configuration validation error
    10054,  // message size exceeds maximum allowed
    10056,  // stream name in subject does not match request
    streamNameInUse,  // stream name already in use with a different configuration
    10061,  // replicas configuration can not be updated
    subjectsOverlap,  // subjects overlap with an existing stream
    replicasNotSupported,
    10103,  // durable name can not contain '.', '*', '>'
    10109,  // invalid operation on sealed stream
    10113,  // account requires a stream config to have max bytes set
    10122,  // stream max bytes exceeds account limit max stream bytes
  ]
}

extension JetStreamError {
  /// Whether retrying cannot help: the server refused the request for good, or refused this client access.
  public var isPermanent: Bool {
    switch self {
    case .api(let error): error.isPermanent
    case .nats(let error): error.isAccessRefused
    case .malformedResponse: false
    }
  }

  /// Whether the server refused this client access (credentials, permissions, JetStream for the account).
  public var isAccessRefused: Bool {
    switch self {
    case .api(let error): error.isAccessRefused
    case .nats(let error): error.isAccessRefused
    case .malformedResponse: false
    }
  }
}
