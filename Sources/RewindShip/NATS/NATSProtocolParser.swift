/// Reads the operations a NATS server sends from the bytes of a connection, fed as they arrive.
///
/// The bytes are untrusted: a control line is bounded (``maximumControlLine``), a message by the server's
/// `max_payload` (``maximumMessage``), and anything that breaks the grammar is a typed
/// ``NATSProtocolError``. Memory is bounded by those two limits plus one read, whatever is fed.
struct NATSProtocolParser {
  /// The longest control line accepted (an `INFO` with many cluster URLs fits easily).
  static let defaultMaximumControlLine = 64 << 10

  let maximumControlLine: Int
  /// The largest message (headers and payload) accepted.
  var maximumMessage: Int

  private var buffer: [UInt8] = []
  private var start = 0

  init(
    maximumMessage: Int = NATSServerInfo.defaultMaxPayload,
    maximumControlLine: Int = defaultMaximumControlLine
  ) {
    self.maximumMessage = maximumMessage
    self.maximumControlLine = maximumControlLine
  }

  /// The bytes fed and not yet consumed.
  var bufferedBytes: Int { buffer.count - start }

  /// Whether part of an operation has been fed but not yet completed.
  var isMidOperation: Bool { start < buffer.count }

  /// Adds bytes read from the connection.
  mutating func feed(_ bytes: some Collection<UInt8>) {
    if start > 0, start == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      start = 0
    } else if start > 64 << 10, start * 2 > buffer.count {
      buffer.removeSubrange(0..<start)
      start = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// The next complete operation and its bytes as received (a proxy forwards them unchanged).
  mutating func nextWithBytes() throws(NATSProtocolError) -> (NATSServerOperation, [UInt8])? {
    let before = start
    guard let operation = try next() else { return nil }
    return (operation, Array(buffer[before..<start]))
  }

  /// The next complete operation, or `nil` when more bytes are needed.
  mutating func next() throws(NATSProtocolError) -> NATSServerOperation? {
    guard start < buffer.count else { return nil }
    guard let lineEnd = findLineEnd() else {
      if buffer.count - start > maximumControlLine { throw .controlLineTooLong(limit: maximumControlLine) }
      return nil
    }
    guard lineEnd - start <= maximumControlLine else { throw .controlLineTooLong(limit: maximumControlLine) }
    let line = buffer[start..<lineEnd]
    let afterLine = lineEnd + 2
    let words = Self.words(line)
    guard let first = words.first else { throw .malformedControlLine("an empty line") }
    let operation = String(decoding: first, as: UTF8.self).uppercased()
    switch operation {
    case "MSG", "HMSG":
      guard let (message, end) = try message(words, headers: operation == "HMSG", payloadStart: afterLine)
      else {
        return nil
      }
      start = end
      return .message(message)
    case "PING", "PONG", "+OK":
      guard words.count == 1 else { throw .malformedControlLine(Self.text(line)) }
      start = afterLine
      return operation == "PING" ? .ping : operation == "PONG" ? .pong : .ok
    case "INFO":
      let json = line.dropFirst(4).drop { $0 == 32 || $0 == 9 }
      guard !json.isEmpty else { throw .malformedInfo("no JSON after INFO") }
      let info = try NATSServerInfo.parse(json)
      start = afterLine
      return .info(info)
    case "-ERR":
      var text = Self.text(line.dropFirst(4)).trimmingWhitespace
      if text.count >= 2, text.hasPrefix("'"), text.hasSuffix("'") {
        text = String(text.dropFirst().dropLast())
      }
      start = afterLine
      return .error(text)
    default:
      throw .unknownOperation(String(Self.text(first).prefix(32)))
    }
  }

  /// `MSG subject sid [reply] size` or `HMSG subject sid [reply] hdrlen totlen`, once its payload is in.
  private func message(_ words: [ArraySlice<UInt8>], headers: Bool, payloadStart: Int)
    throws(NATSProtocolError) -> (NATSMessage, Int)?
  {
    let fixed = headers ? 6 : 5
    guard words.count == fixed || words.count == fixed - 1 else {
      throw .malformedControlLine(Self.text(words.joinedWithSpaces))
    }
    let hasReply = words.count == fixed
    guard let sid = Self.number(words[2]) else {
      throw .malformedControlLine("a subscription id that is not a number")
    }
    guard let total = Self.number(words[words.count - 1]), total <= UInt64(Int.max) else {
      throw .malformedControlLine("a message size that is not a number")
    }
    var headerLength = 0
    if headers {
      guard let length = Self.number(words[words.count - 2]), length <= total else {
        throw .malformedControlLine("a header size that is not a number no larger than the total")
      }
      headerLength = Int(length)
    }
    guard total <= UInt64(maximumMessage) else {
      throw .oversizedMessage(size: Int(total), limit: maximumMessage)
    }
    let end = payloadStart + Int(total)
    guard buffer.count >= end + 2 else { return nil }
    guard buffer[end] == 13, buffer[end + 1] == 10 else { throw .missingPayloadTerminator }
    guard let subject = String(validating: words[1], as: UTF8.self) else {
      throw .malformedControlLine("a subject that is not UTF-8")
    }
    var reply: String?
    if hasReply {
      guard let text = String(validating: words[3], as: UTF8.self) else {
        throw .malformedControlLine("a reply subject that is not UTF-8")
      }
      reply = text
    }
    var parsedHeaders: NATSHeaders?
    if headers {
      guard headerLength > 0 else { throw .malformedHeaders("an empty header block") }
      parsedHeaders = try NATSHeaders.parse(buffer[payloadStart..<(payloadStart + headerLength)])
    }
    let message = NATSMessage(
      subject: subject, sid: sid, reply: reply, headers: parsedHeaders,
      payload: Array(buffer[(payloadStart + headerLength)..<end]))
    return (message, end + 2)
  }

  /// The index of the CR of the first CR LF from `start`, or `nil`.
  private func findLineEnd() -> Int? {
    let limit = min(buffer.count, start + maximumControlLine + 2)
    var index = start
    while index + 1 < limit {
      if buffer[index] == 13, buffer[index + 1] == 10 { return index }
      index += 1
    }
    return nil
  }

  /// The line split at runs of spaces and tabs (a server may write two spaces where a reply is empty).
  private static func words(_ line: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
    line.split(omittingEmptySubsequences: true) { $0 == 32 || $0 == 9 }
  }

  /// A decimal number of at most 19 digits.
  private static func number(_ bytes: ArraySlice<UInt8>) -> UInt64? {
    guard !bytes.isEmpty, bytes.count <= 19 else { return nil }
    var value: UInt64 = 0
    for byte in bytes {
      guard byte >= 48, byte <= 57 else { return nil }
      value = value * 10 + UInt64(byte - 48)
    }
    return value
  }

  private static func text(_ bytes: ArraySlice<UInt8>) -> String {
    String(decoding: bytes.prefix(200), as: UTF8.self)
  }
}

extension [ArraySlice<UInt8>] {
  fileprivate var joinedWithSpaces: ArraySlice<UInt8> { ArraySlice(joined(separator: [32])) }
}

extension String {
  fileprivate var trimmingWhitespace: String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
