extension JetStreamAPIError {
  /// Whether retrying the same request cannot succeed: the server refused it for what it asks (a bad
  /// request, more replicas than the servers can place, a configuration that conflicts with an existing
  /// stream, limits or resources the account does not have, JetStream not enabled for the account).
  ///
  /// Codes not listed are treated as transient and retried (no leader, a cluster not yet formed, a request
  /// that timed out inside the cluster, and codes newer servers may add): a wrong guess there costs a retry,
  /// a wrong guess the other way would give up on a request that could have succeeded.
  public var isPermanent: Bool { Self.permanentCodes.contains(errorCode) }

  /// Whether the account is not allowed to do this at all (JetStream not enabled for it).
  public var isAccessRefused: Bool { Self.accessRefusedCodes.contains(errorCode) }

  /// JetStream is not enabled for the account.
  public static let notEnabledForAccount = 10039
  /// Replicas > 1 asked of a server that is not clustered.
  public static let replicasNotSupported = 10074
  /// The cluster has no (or not enough) peers to place the replicas on.
  public static let noSuitablePeers = 10005
  /// The servers do not have the resources the stream asks for.
  public static let insufficientResources = 10023
  /// JetStream's meta leader is not available (an election, a cluster forming): retried.
  public static let clusterNotAvailable = 10008

  private static let accessRefusedCodes: Set<Int> = [notEnabledForAccount, 10076]

  /// The err_codes of nats-server 2.9's `server/errors.json` that no retry can change.
  private static let permanentCodes: Set<Int> =
    accessRefusedCodes.union([
      10002,  // resource limits exceeded for account
      10003,  // bad request
      noSuitablePeers,
      10010,  // JetStream clustering support required
      insufficientResources,
      10025,  // invalid JSON
      10026,  // maximum consumers limit reached
      10027,  // maximum number of streams reached
      10028,  // insufficient memory resources available
      10047,  // insufficient storage resources available
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
    ])
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
