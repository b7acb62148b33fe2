/// A message to publish: `PUB`, or `HPUB` when it has headers.
package struct NATSOutboundMessage: Sendable {
  /// The subject.
  package var subject: String
  /// Where the reply goes, if one is wanted.
  package var reply: String?
  /// The encoded header block (``NATSHeaders/encoded``), if any.
  package var headerBytes: [UInt8]?
  /// The payload.
  package var payload: [UInt8]

  /// A message with an already encoded header block.
  package init(subject: String, reply: String? = nil, headerBytes: [UInt8]?, payload: [UInt8]) {
    self.subject = subject
    self.reply = reply
    self.headerBytes = headerBytes
    self.payload = payload
  }

  /// A message with headers.
  package init(subject: String, reply: String? = nil, headers: NATSHeaders?, payload: [UInt8]) {
    self.init(subject: subject, reply: reply, headerBytes: headers?.encoded, payload: payload)
  }

  /// The bytes the server counts against `max_payload`: headers and payload.
  package var size: Int { (headerBytes?.count ?? 0) + payload.count }

  /// Appends the `PUB`/`HPUB` operation.
  package func encode(into bytes: inout [UInt8]) {
    let replyPart = reply.map { " " + $0 } ?? ""
    if let headerBytes {
      bytes += Array("HPUB \(subject)\(replyPart) \(headerBytes.count) \(size)\r\n".utf8)
      bytes += headerBytes
    } else {
      bytes += Array("PUB \(subject)\(replyPart) \(payload.count)\r\n".utf8)
    }
    bytes += payload
    bytes += [13, 10]
  }
}

/// A JSON scalar written by hand for `CONNECT` (whose field order and escaping this client controls).
enum JSONText {
  case string(String)
  case bool(Bool)
  case number(Int)

  var text: String {
    switch self {
    case .string(let value): Self.quoted(value)
    case .bool(let value): value ? "true" : "false"
    case .number(let value): String(value)
    }
  }

  /// `value` as a JSON string literal.
  static func quoted(_ value: String) -> String {
    var out = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case let control where control.value < 0x20:
        let hex = String(control.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
