/// An HTTP/1.1 request as the live page's server reads it: the request line, the headers and a body of at
/// most ``bodyLimit`` bytes. Everything a browser (or anything else on this machine) sends is untrusted, so
/// the parser bounds every part and never traps.
struct HTTPRequest: Equatable {
  var method: String
  /// The path without the query.
  var path: String
  /// The query's parameters, percent-decoded; a repeated name keeps its first value.
  var query: [String: String]
  /// Header names in lowercase.
  var headers: [String: String]
  var body: [UInt8]

  /// The most bytes of request line and headers.
  static var headLimit: Int { 16 * 1024 }
  /// The most bytes of body.
  static var bodyLimit: Int { 64 * 1024 }

  /// What reading a request can end with besides a request.
  enum ParseError: Error, Equatable {
    /// More bytes are needed.
    case incomplete
    /// Not a request this server takes: answered with `status` and closed.
    case bad(status: Int, reason: String)
  }

  /// Parses a request from the start of `bytes`; returns it with the number of bytes it took.
  static func parse(_ bytes: [UInt8]) throws(ParseError) -> (HTTPRequest, Int) {
    guard let headEnd = find([13, 10, 13, 10], in: bytes, limit: headLimit) else {
      if bytes.count >= headLimit { throw .bad(status: 431, reason: "request head too large") }
      throw .incomplete
    }
    guard let head = String(validating: bytes[..<headEnd], as: UTF8.self) else {
      throw .bad(status: 400, reason: "request head is not UTF-8")
    }
    var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
    guard !lines.isEmpty else { throw .bad(status: 400, reason: "no request line") }
    let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
    guard requestLine.count == 3, requestLine[2] == "HTTP/1.1" || requestLine[2] == "HTTP/1.0" else {
      throw .bad(status: 400, reason: "malformed request line")
    }
    let method = String(requestLine[0])
    guard !method.isEmpty, method.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
      throw .bad(status: 400, reason: "malformed method")
    }
    let target = requestLine[1]
    guard target.hasPrefix("/") else { throw .bad(status: 400, reason: "the target must be a path") }
    let pathPart = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    guard let path = percentDecoded(pathPart[0]) else { throw .bad(status: 400, reason: "malformed path") }
    var query: [String: String] = [:]
    if pathPart.count == 2 {
      for pair in pathPart[1].split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard let name = percentDecoded(parts[0]),
          let value = percentDecoded(parts.count == 2 ? parts[1] : "")
        else { throw .bad(status: 400, reason: "malformed query") }
        if query[name] == nil { query[name] = value }
      }
    }
    var headers: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { throw .bad(status: 400, reason: "malformed header") }
      let name = line[..<colon].lowercased()
      guard !name.isEmpty, !name.contains(" ") else {
        throw .bad(status: 400, reason: "malformed header name")
      }
      let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t")
      // A repeated Host, Origin or Content-Length could mean two things to two readers: refused.
      if headers[name] != nil, ["host", "origin", "content-length", "transfer-encoding"].contains(name) {
        throw .bad(status: 400, reason: "repeated \(name) header")
      }
      headers[name] = value
    }
    guard headers["transfer-encoding"] == nil else {
      throw .bad(status: 501, reason: "chunked bodies are not accepted")
    }
    var length = 0
    if let text = headers["content-length"] {
      guard let value = Int(text), value >= 0, text.allSatisfy(\.isASCII) else {
        throw .bad(status: 400, reason: "malformed content-length")
      }
      guard value <= bodyLimit else { throw .bad(status: 413, reason: "body too large") }
      length = value
    }
    let bodyStart = headEnd + 4
    guard bytes.count - bodyStart >= length else { throw .incomplete }
    let request = HTTPRequest(
      method: method, path: path, query: query, headers: headers,
      body: Array(bytes[bodyStart..<(bodyStart + length)]))
    return (request, bodyStart + length)
  }

  static func find(_ needle: [UInt8], in bytes: [UInt8], limit: Int) -> Int? {
    let end = min(bytes.count, limit + needle.count)
    guard end >= needle.count else { return nil }
    var index = 0
    while index + needle.count <= end {
      if bytes[index] == needle[0], Array(bytes[index..<(index + needle.count)]) == needle { return index }
      index += 1
    }
    return nil
  }

  /// `text` with `%XX` escapes (and `+` as a space) decoded; `nil` for a malformed escape or bytes that are
  /// not UTF-8.
  static func percentDecoded(_ text: Substring) -> String? {
    var bytes: [UInt8] = []
    var utf8 = text.utf8[...]
    while let byte = utf8.popFirst() {
      switch byte {
      case UInt8(ascii: "%"):
        guard let high = utf8.popFirst().flatMap(hexValue), let low = utf8.popFirst().flatMap(hexValue) else {
          return nil
        }
        bytes.append(high << 4 | low)
      case UInt8(ascii: "+"): bytes.append(0x20)
      default: bytes.append(byte)
      }
    }
    return String(validating: bytes, as: UTF8.self)
  }

  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x41...0x46: byte - 0x41 + 10
    case 0x61...0x66: byte - 0x61 + 10
    default: nil
    }
  }
}

extension Substring {
  /// The text without leading and trailing characters in `set`.
  fileprivate func trimmingCharacters(in set: String) -> String {
    var text = self
    while let first = text.first, set.contains(first) { text = text.dropFirst() }
    while let last = text.last, set.contains(last) { text = text.dropLast() }
    return String(text)
  }
}
