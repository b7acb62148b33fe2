/// An HTTP response of the live page's server, with the headers every response carries: no caching, no
/// sniffing, no referrer, no framing, and the Content-Security-Policy that keeps the page to its own
/// origin.
struct HTTPResponse {
  var status: Int
  var contentType: String
  var body: [UInt8]
  var extraHeaders: [(String, String)] = []

  /// The page may load scripts, styles and data only from its own origin, and nothing else.
  static let contentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
    + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

  static func text(_ status: Int, _ message: String) -> HTTPResponse {
    HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array((message + "\n").utf8))
  }

  static func json(_ text: [UInt8]) -> HTTPResponse {
    HTTPResponse(status: 200, contentType: "application/json", body: text)
  }

  /// The status line, headers and body.
  var bytes: [UInt8] {
    var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
    head += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
    head += Self.commonHeaders
    for (name, value) in extraHeaders { head += "\(name): \(value)\r\n" }
    head += "Connection: close\r\n\r\n"
    return Array(head.utf8) + body
  }

  /// The head of a Server-Sent Events stream.
  static var eventStreamHead: [UInt8] {
    Array(
      ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n" + commonHeaders
        + "Connection: close\r\n\r\n").utf8)
  }

  static var commonHeaders: String {
    "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\n"
      + "X-Frame-Options: DENY\r\nCross-Origin-Resource-Policy: same-origin\r\n"
      + "Content-Security-Policy: \(contentSecurityPolicy)\r\n"
  }

  static func reason(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 400: "Bad Request"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 409: "Conflict"
    case 413: "Content Too Large"
    case 415: "Unsupported Media Type"
    case 431: "Request Header Fields Too Large"
    case 501: "Not Implemented"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    default: "Status"
    }
  }
}
