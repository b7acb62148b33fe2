import Foundation

/// A publish acknowledgement: `{"stream": "S", "seq": 5}`, with `"duplicate": true` when the message id
/// was seen within the duplicate window (`seq` is then the original's).
public struct JetStreamPublishAck: Sendable, Hashable, Decodable {
  /// The stream that stored the message.
  public var stream: String
  /// The stream sequence it was stored at.
  public var sequence: UInt64
  /// Whether the message was a duplicate of an earlier one with the same `Nats-Msg-Id`.
  public var duplicate: Bool

  enum CodingKeys: String, CodingKey {
    case stream
    case sequence = "seq"
    case duplicate
  }

  /// Creates an acknowledgement.
  public init(stream: String, sequence: UInt64, duplicate: Bool) {
    self.stream = stream
    self.sequence = sequence
    self.duplicate = duplicate
  }

  /// Decodes an acknowledgement.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    stream = try container.decode(String.self, forKey: .stream)
    sequence = try container.decode(UInt64.self, forKey: .sequence)
    duplicate = try container.decodeIfPresent(Bool.self, forKey: .duplicate) ?? false
  }
}

/// A message read from a stream by sequence (`$JS.API.STREAM.MSG.GET`).
public struct JetStreamStoredMessage: Sendable, Hashable {
  /// The subject it was published to.
  public var subject: String
  /// Its stream sequence.
  public var sequence: UInt64
  /// Its headers, if it had any.
  public var headers: NATSHeaders?
  /// The raw header block as stored (compared byte for byte).
  public var headerBytes: [UInt8]
  /// The payload.
  public var payload: [UInt8]
  /// When the server stored it (RFC 3339 text, the server's clock).
  public var time: String
}

/// The JSON of a `STREAM.MSG.GET` answer.
struct StoredMessageJSON: Decodable {
  var subject: String
  var seq: UInt64
  var hdrs: String?
  var data: String?
  var time: String?
}

/// A consumer's configuration, as the verifier creates it.
struct JetStreamConsumerConfig: Sendable, Encodable {
  var durableName: String
  var deliverPolicy = "all"
  var ackPolicy = "all"
  /// Nanoseconds.
  var ackWait: Int64 = 30_000_000_000
  var maxAckPending = 20_000
  var maxDeliver = -1
  var replayPolicy = "instant"
  var description: String?

  enum CodingKeys: String, CodingKey {
    case durableName = "durable_name"
    case deliverPolicy = "deliver_policy"
    case ackPolicy = "ack_policy"
    case ackWait = "ack_wait"
    case maxAckPending = "max_ack_pending"
    case maxDeliver = "max_deliver"
    case replayPolicy = "replay_policy"
    case description
  }
}

/// What `$JS.API.CONSUMER.INFO` answers, as far as the verifier reads it.
public struct JetStreamConsumerInfo: Sendable, Hashable, Decodable {
  /// The consumer's name.
  public var name: String
  /// The last message delivered.
  public var delivered: SequencePair
  /// Everything up to here is acknowledged.
  public var ackFloor: SequencePair
  /// Messages not yet delivered.
  public var pending: UInt64

  /// A consumer sequence and the stream sequence it stands for.
  public struct SequencePair: Sendable, Hashable, Decodable {
    /// The consumer's own count.
    public var consumerSequence: UInt64
    /// The stream sequence.
    public var streamSequence: UInt64

    enum CodingKeys: String, CodingKey {
      case consumerSequence = "consumer_seq"
      case streamSequence = "stream_seq"
    }
  }

  enum CodingKeys: String, CodingKey {
    case name, delivered
    case ackFloor = "ack_floor"
    case pending = "num_pending"
  }
}
