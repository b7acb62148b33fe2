/// The configuration of a stream, as far as shipping sets or checks it.
public struct JetStreamStreamConfig: Sendable, Hashable, Codable {
  /// The stream's name.
  public var name: String
  /// The subjects it stores.
  public var subjects: [String]
  /// How many servers hold a copy (1, 3 or 5).
  public var replicas: Int
  /// The window in which a repeated `Nats-Msg-Id` is answered as a duplicate, in nanoseconds.
  public var duplicateWindow: Int64
  /// Whether deleting single messages is refused.
  public var denyDelete: Bool
  /// Whether purging is refused.
  public var denyPurge: Bool
  /// What happens when a limit is reached: `new` refuses new messages (nothing shipped is ever dropped),
  /// `old` would discard the oldest.
  public var discard: String
  /// `file` or `memory`.
  public var storage: String
  /// `limits`, `interest` or `workqueue`.
  public var retention: String
  /// Limits: -1 for none.
  public var maxMessages: Int64
  /// The most bytes, -1 for none.
  public var maxBytes: Int64
  /// The longest age in nanoseconds, 0 for none.
  public var maxAge: Int64
  /// The largest message, -1 for the server's `max_payload`.
  public var maxMessageSize: Int32
  /// Whether rollup headers are allowed (shipping never allows them: they delete messages).
  public var allowRollup: Bool
  /// What the stream holds, for people.
  public var description: String?

  enum CodingKeys: String, CodingKey {
    case name, subjects, discard, storage, retention, description
    case replicas = "num_replicas"
    case duplicateWindow = "duplicate_window"
    case denyDelete = "deny_delete"
    case denyPurge = "deny_purge"
    case maxMessages = "max_msgs"
    case maxBytes = "max_bytes"
    case maxAge = "max_age"
    case maxMessageSize = "max_msg_size"
    case allowRollup = "allow_rollup_hdrs"
  }

  /// A stream for shipped logs: file storage, limits retention with no limit, discard new, deletes,
  /// purges and rollups refused.
  public init(
    name: String, subjects: [String], replicas: Int = 1, duplicateWindow: Duration = .seconds(120),
    description: String? = nil
  ) {
    self.name = name
    self.subjects = subjects
    self.replicas = replicas
    let (seconds, attoseconds) = duplicateWindow.components
    self.duplicateWindow = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    denyDelete = true
    denyPurge = true
    discard = "new"
    storage = "file"
    retention = "limits"
    maxMessages = -1
    maxBytes = -1
    maxAge = 0
    maxMessageSize = -1
    allowRollup = false
    self.description = description
  }

  /// Decodes a configuration; fields an older or newer server leaves out take the server's defaults.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decode(String.self, forKey: .name)
    subjects = try container.decodeIfPresent([String].self, forKey: .subjects) ?? []
    replicas = try container.decodeIfPresent(Int.self, forKey: .replicas) ?? 1
    duplicateWindow = try container.decodeIfPresent(Int64.self, forKey: .duplicateWindow) ?? 0
    denyDelete = try container.decodeIfPresent(Bool.self, forKey: .denyDelete) ?? false
    denyPurge = try container.decodeIfPresent(Bool.self, forKey: .denyPurge) ?? false
    discard = try container.decodeIfPresent(String.self, forKey: .discard) ?? "old"
    storage = try container.decodeIfPresent(String.self, forKey: .storage) ?? "file"
    retention = try container.decodeIfPresent(String.self, forKey: .retention) ?? "limits"
    maxMessages = try container.decodeIfPresent(Int64.self, forKey: .maxMessages) ?? -1
    maxBytes = try container.decodeIfPresent(Int64.self, forKey: .maxBytes) ?? -1
    maxAge = try container.decodeIfPresent(Int64.self, forKey: .maxAge) ?? 0
    maxMessageSize = try container.decodeIfPresent(Int32.self, forKey: .maxMessageSize) ?? -1
    allowRollup = try container.decodeIfPresent(Bool.self, forKey: .allowRollup) ?? false
    description = try container.decodeIfPresent(String.self, forKey: .description)
  }

  /// Why an existing stream cannot hold a shipped log without risk of losing or rewriting it, or `nil`.
  public var shippingProblem: String? {
    if !denyDelete { return "it allows deleting messages (deny_delete is off)" }
    if !denyPurge { return "it allows purging (deny_purge is off)" }
    if allowRollup { return "it allows rollup headers, which delete messages" }
    if retention != "limits" {
      return "its retention is '\(retention)': messages would be removed once consumed"
    }
    if discard != "new" && (maxMessages > 0 || maxBytes > 0 || maxAge > 0) {
      return "it has limits and discards old messages when they are reached"
    }
    if maxAge > 0 { return "its messages expire (max_age)" }
    return nil
  }
}

/// What `$JS.API.STREAM.INFO` answers.
public struct JetStreamStreamInfo: Sendable, Hashable, Decodable {
  /// The configuration.
  public var config: JetStreamStreamConfig
  /// The stream's state.
  public var state: State
  /// The cluster placement: the leader's name and the replicas (`nil` on a server without clustering).
  public var cluster: Cluster?

  /// How many messages a stream holds and where.
  public struct State: Sendable, Hashable, Decodable {
    /// How many messages.
    public var messages: UInt64
    /// The first sequence (0 when empty).
    public var firstSequence: UInt64
    /// The last sequence (0 when empty).
    public var lastSequence: UInt64

    enum CodingKeys: String, CodingKey {
      case messages
      case firstSequence = "first_seq"
      case lastSequence = "last_seq"
    }
  }

  /// Where a replicated stream lives.
  public struct Cluster: Sendable, Hashable, Decodable {
    /// The stream leader's server name.
    public var leader: String?
    /// The other servers holding a copy.
    public var replicas: [Replica]?
  }

  /// A server holding a copy of a stream, as its leader sees it.
  public struct Replica: Sendable, Hashable, Decodable {
    /// The server's name.
    public var name: String
    /// Whether its copy is up to date.
    public var current: Bool
  }
}
