/// An error a JetStream API call or a publish answered with: `{"error": {"code", "err_code", "description"}}`.
public struct JetStreamAPIError: Error, Sendable, Hashable, Decodable, CustomStringConvertible {
  /// The HTTP-like status (400, 404, 500, 503).
  public var code: Int
  /// JetStream's error code (e.g. 10071 "wrong last sequence").
  public var errorCode: Int
  /// The server's description.
  public var text: String

  enum CodingKeys: String, CodingKey {
    case code
    case errorCode = "err_code"
    case text = "description"
  }

  /// Creates an error.
  public init(code: Int, errorCode: Int, text: String) {
    self.code = code
    self.errorCode = errorCode
    self.text = text
  }

  /// Decodes an error object (`err_code` and `description` may be missing from old servers).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    code = try container.decodeIfPresent(Int.self, forKey: .code) ?? 0
    errorCode = try container.decodeIfPresent(Int.self, forKey: .errorCode) ?? 0
    text = try container.decodeIfPresent(String.self, forKey: .text) ?? ""
  }

  /// `Nats-Expected-Last-Sequence` did not match the stream's last sequence.
  public static let wrongLastSequence = 10071
  /// No stream of that name.
  public static let streamNotFound = 10059
  /// No message at that sequence.
  public static let noMessageFound = 10037
  /// A stream of that name exists with another configuration.
  public static let streamNameInUse = 10058
  /// Another stream already stores the subjects.
  public static let subjectsOverlap = 10065
  /// No consumer of that name.
  public static let consumerNotFound = 10014

  public var description: String { "\(text) (JetStream error \(errorCode), status \(code))" }
}

/// What went wrong with a JetStream request.
public enum JetStreamError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The server answered with an error.
  case api(JetStreamAPIError)
  /// The request did not reach an answer (connection, timeout, no responders).
  case nats(NATSError)
  /// The answer is not the JSON the request expects.
  case malformedResponse(String)

  public var description: String {
    switch self {
    case .api(let error): error.description
    case .nats(let error): error.description
    case .malformedResponse(let why): "malformed JetStream response: \(why)"
    }
  }

  /// The API error's JetStream code, if it is one.
  public var apiErrorCode: Int? {
    if case .api(let error) = self { return error.errorCode }
    return nil
  }
}
