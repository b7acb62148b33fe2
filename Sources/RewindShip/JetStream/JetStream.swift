import Foundation

/// JetStream's request API over one connection: streams, messages by sequence, durable pull consumers.
package struct JetStream: Sendable {
  /// The connection requests go over.
  package let connection: NATSConnection
  /// How long each request may take.
  package let timeout: Duration

  /// An API on `connection`.
  package init(connection: NATSConnection, timeout: Duration) {
    self.connection = connection
    self.timeout = timeout
  }

  /// Sends an API request and returns its JSON answer, or the error it holds.
  package func call(_ subject: String, _ body: [UInt8]) throws(JetStreamError) -> Data {
    let reply: NATSMessage
    do { reply = try connection.request(subject, payload: body, timeout: timeout) } catch {
      throw .nats(error)
    }
    let data = Data(reply.payload)
    if let envelope = try? JSONDecoder().decode(ErrorEnvelope.self, from: data), let error = envelope.error {
      throw .api(error)
    }
    return data
  }

  private struct ErrorEnvelope: Decodable { var error: JetStreamAPIError? }

  package func decode<T: Decodable>(_ type: T.Type, _ data: Data, _ what: String) throws(JetStreamError) -> T
  {
    do { return try JSONDecoder().decode(T.self, from: data) } catch {
      throw .malformedResponse("\(what): \(error)")
    }
  }

  private func encode(_ value: some Encodable) -> [UInt8] {
    (try? Array(JSONEncoder().encode(value))) ?? []
  }

  /// The stream's information, or `nil` when there is no such stream.
  package func streamInfo(_ name: String) throws(JetStreamError) -> JetStreamStreamInfo? {
    do {
      return try decode(JetStreamStreamInfo.self, try call("$JS.API.STREAM.INFO.\(name)", []), "stream info")
    } catch {
      if error.apiErrorCode == JetStreamAPIError.streamNotFound { return nil }
      throw error
    }
  }

  /// Creates a stream (answered with its information; an identical existing one is no error).
  package func createStream(_ config: JetStreamStreamConfig) throws(JetStreamError) -> JetStreamStreamInfo {
    try decode(
      JetStreamStreamInfo.self, try call("$JS.API.STREAM.CREATE.\(config.name)", encode(config)),
      "stream create")
  }

  /// The message at `sequence`, or `nil` when there is none.
  package func message(stream: String, sequence: UInt64) throws(JetStreamError) -> JetStreamStoredMessage? {
    let body = Array("{\"seq\":\(sequence)}".utf8)
    let data: Data
    do { data = try call("$JS.API.STREAM.MSG.GET.\(stream)", body) } catch {
      if error.apiErrorCode == JetStreamAPIError.noMessageFound { return nil }
      throw error
    }
    struct Answer: Decodable { var message: StoredMessageJSON? }
    guard let json = try decode(Answer.self, data, "message get").message else {
      throw .malformedResponse("message get: no message")
    }
    var headerBytes: [UInt8] = []
    var headers: NATSHeaders?
    if let hdrs = json.hdrs, !hdrs.isEmpty {
      guard let decoded = Data(base64Encoded: hdrs) else {
        throw .malformedResponse("message headers are not base64")
      }
      headerBytes = Array(decoded)
      do { headers = try NATSHeaders.parse(headerBytes[...]) } catch {
        throw .malformedResponse("message \(json.seq): \(error)")
      }
    }
    var payload: [UInt8] = []
    if let text = json.data, !text.isEmpty {
      guard let decoded = Data(base64Encoded: text) else {
        throw .malformedResponse("message data is not base64")
      }
      payload = Array(decoded)
    }
    return JetStreamStoredMessage(
      subject: json.subject, sequence: json.seq, headers: headers, headerBytes: headerBytes, payload: payload,
      time: json.time ?? "")
  }

  /// Deletes one message (refused by a stream with `deny_delete`).
  package func deleteMessage(stream: String, sequence: UInt64) throws(JetStreamError) {
    _ = try call("$JS.API.STREAM.MSG.DELETE.\(stream)", Array("{\"seq\":\(sequence)}".utf8))
  }

  /// Purges the stream (refused by a stream with `deny_purge`).
  package func purge(stream: String) throws(JetStreamError) {
    _ = try call("$JS.API.STREAM.PURGE.\(stream)", [])
  }

  /// Creates (or finds) a durable pull consumer.
  func createConsumer(stream: String, _ config: JetStreamConsumerConfig) throws(JetStreamError)
    -> JetStreamConsumerInfo
  {
    struct Request: Encodable {
      var streamName: String
      var config: JetStreamConsumerConfig
      enum CodingKeys: String, CodingKey {
        case streamName = "stream_name"
        case config
      }
    }
    return try decode(
      JetStreamConsumerInfo.self,
      try call(
        "$JS.API.CONSUMER.DURABLE.CREATE.\(stream).\(config.durableName)",
        encode(Request(streamName: stream, config: config))), "consumer create")
  }

  /// A consumer's information, or `nil` when there is none.
  package func consumerInfo(stream: String, name: String) throws(JetStreamError) -> JetStreamConsumerInfo? {
    do {
      return try decode(
        JetStreamConsumerInfo.self, try call("$JS.API.CONSUMER.INFO.\(stream).\(name)", []), "consumer info")
    } catch {
      if error.apiErrorCode == JetStreamAPIError.consumerNotFound { return nil }
      throw error
    }
  }

  /// Parses a publish acknowledgement (or the error it holds).
  package static func publishAck(_ message: NATSMessage) -> Result<JetStreamPublishAck, JetStreamError> {
    if message.status == 503 { return .failure(.nats(.noResponders(subject: message.subject))) }
    let data = Data(message.payload)
    struct Answer: Decodable {
      var error: JetStreamAPIError?
    }
    // An error answer also has "stream" and "seq": look for the error first (only where it can be).
    if message.payload.contains(Self.errorKey),
      let answer = try? JSONDecoder().decode(Answer.self, from: data), let error = answer.error
    {
      return .failure(.api(error))
    }
    do { return .success(try JSONDecoder().decode(JetStreamPublishAck.self, from: data)) } catch {
      return .failure(
        .malformedResponse(
          "publish acknowledgement: \(String(decoding: message.payload.prefix(120), as: UTF8.self))"))
    }
  }

  private static let errorKey = Array("\"error\"".utf8)
}

extension [UInt8] {
  /// Whether `needle` occurs in the bytes.
  fileprivate func contains(_ needle: [UInt8]) -> Bool {
    guard needle.count <= count, let first = needle.first else { return needle.isEmpty }
    var index = 0
    while index + needle.count <= count {
      if self[index] == first, self[index..<(index + needle.count)].elementsEqual(needle) { return true }
      index += 1
    }
    return false
  }
}
