import Foundation

/// What a server says about itself in `INFO`: the fields this client uses.
public struct NATSServerInfo: Sendable, Hashable, Decodable {
  /// The server's unique id.
  public var serverID: String
  /// The server's name (`server_name`), unique in a cluster.
  public var serverName: String?
  /// The server's version, e.g. `2.9.10`.
  public var version: String?
  /// Whether the server accepts headers (`HPUB`).
  public var headers: Bool
  /// The largest message (headers and payload) the server accepts.
  public var maxPayload: Int
  /// Whether JetStream is enabled.
  public var jetStream: Bool
  /// Whether the server requires authentication.
  public var authRequired: Bool
  /// Whether the server requires TLS.
  public var tlsRequired: Bool
  /// Other servers of the cluster a client may connect to (`host:port`).
  public var connectURLs: [String]
  /// Whether the server is in lame-duck mode: it is about to close its connections.
  public var lameDuck: Bool

  enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case serverName = "server_name"
    case version, headers
    case maxPayload = "max_payload"
    case jetStream = "jetstream"
    case authRequired = "auth_required"
    case tlsRequired = "tls_required"
    case connectURLs = "connect_urls"
    case lameDuck = "ldm"
  }

  /// The `max_payload` used when a server does not state one: nats-server's default.
  public static let defaultMaxPayload = 1 << 20

  /// Decodes an `INFO` object.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    serverID = try container.decode(String.self, forKey: .serverID)
    serverName = try container.decodeIfPresent(String.self, forKey: .serverName)
    version = try container.decodeIfPresent(String.self, forKey: .version)
    headers = try container.decodeIfPresent(Bool.self, forKey: .headers) ?? false
    let payload = try container.decodeIfPresent(Int.self, forKey: .maxPayload) ?? Self.defaultMaxPayload
    maxPayload = payload > 0 ? payload : Self.defaultMaxPayload
    jetStream = try container.decodeIfPresent(Bool.self, forKey: .jetStream) ?? false
    authRequired = try container.decodeIfPresent(Bool.self, forKey: .authRequired) ?? false
    tlsRequired = try container.decodeIfPresent(Bool.self, forKey: .tlsRequired) ?? false
    connectURLs = try container.decodeIfPresent([String].self, forKey: .connectURLs) ?? []
    lameDuck = try container.decodeIfPresent(Bool.self, forKey: .lameDuck) ?? false
  }

  /// Parses the JSON after `INFO `.
  /// - Throws: ``NATSProtocolError/malformedInfo(_:)``.
  static func parse(_ json: ArraySlice<UInt8>) throws(NATSProtocolError) -> NATSServerInfo {
    do { return try JSONDecoder().decode(NATSServerInfo.self, from: Data(json)) } catch {
      throw .malformedInfo(Self.reason(error))
    }
  }

  private static func reason(_ error: any Error) -> String {
    switch error {
    case DecodingError.keyNotFound(let key, _): "no \(key.stringValue)"
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
      "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
    default: "not a JSON object"
    }
  }
}
