import Foundation
import RewindInspector
import Synchronization

/// The live page's HTTP server: loopback only, its own per-run token on every request, the `Host` and
/// `Origin` headers checked (against DNS rebinding and other sites' pages), and a Content-Security-Policy
/// that keeps the page to its own origin (Docs/Inspector.md, "The security model").
///
/// Routes: `/` the page, `/app.js` and `/app.css` its code, `/events` the live stream (Server-Sent Events),
/// `/api/events?from=&to=` stored events, `/api/command` (POST, JSON) a command for the app,
/// `/api/export` the session as JSON lines.
final class LiveServer: Sendable {
  let listener: Listener
  /// The port the page is served on.
  let port: UInt16
  let token = InspectorToken.random()
  let timeline: LiveTimeline
  let source: any LiveSource
  /// The connections handled: one still sending its request is displaced by a new one when all are
  /// taken, so that idle local connections cannot hold the page off.
  let connections = ConnectionSlots(limit: connectionLimit)
  /// How long a connection may take to send its whole request, in milliseconds.
  let requestTimeout: Int32
  /// Told of each refused request, for the tool's log.
  let log: @Sendable (String) -> Void

  /// The most connections served at once (a page uses two or three).
  static var connectionLimit: Int { 32 }
  /// The most events a page is sent in one go before the stream sends a gap for it to fetch instead.
  static var streamLag: UInt64 { 5_000 }
  /// The most events one `/api/events` answer holds.
  static var pageLimit: UInt64 { 2_000 }

  init(
    port: UInt16, timeline: LiveTimeline, source: any LiveSource, requestTimeout: Int32 = 10_000,
    log: @escaping @Sendable (String) -> Void
  ) throws {
    self.requestTimeout = requestTimeout
    listener = try Listener(port: port)
    self.port = listener.port
    self.timeline = timeline
    self.source = source
    self.log = log
  }

  /// The page's address, with its token.
  var url: String { "http://127.0.0.1:\(port)/?token=\(token.hexadecimal)" }

  /// Serves until ``stop()``; returns then.
  func run() {
    while let socket = try? listener.accept() {
      guard let ticket = connections.admit(socket) else { continue }
      Thread.detachNewThread { [self] in serve(socket, ticket: ticket) }
    }
  }

  func stop() { listener.close() }

  // MARK: Requests

  /// Serves one connection, holding `ticket` until it ends.
  func serve(_ socket: Socket, ticket: ConnectionSlots.Ticket) {
    var serving = false
    defer { connections.leave(ticket, wasServing: serving) }
    guard SocketAddress.peer(of: socket.descriptor).isLoopback else { return }
    let (parsed, refusal) = read(socket)
    guard let request = parsed else {
      if let refusal { try? socket.write(refusal.bytes, timeout: 5_000) }
      socket.shutdown()
      return
    }
    if let refusal = check(request) {
      log(
        "refused \(request.method) \(request.path.prefix(80)): \(refusal.body.count > 0 ? String(decoding: refusal.body, as: UTF8.self).trimmingCharacters(in: .newlines) : "")"
      )
      try? socket.write(refusal.bytes, timeout: 5_000)
      socket.shutdown()
      return
    }
    // The request carries the token: from now on it is served, never displaced.
    serving = connections.authenticated(ticket)
    guard serving else { return }
    if request.method == "GET" && request.path == "/events" {
      stream(to: socket)
    } else if request.method == "GET" && request.path == "/api/export" {
      export(to: socket)
    } else {
      try? socket.write(respond(to: request).bytes, timeout: 30_000)
    }
    socket.shutdown()
  }

  /// Reads one request, within ``requestTimeout`` and the parser's limits; or the response that refuses
  /// it.
  func read(_ socket: Socket) -> (request: HTTPRequest?, refusal: HTTPResponse?) {
    var bytes: [UInt8] = []
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(requestTimeout, 0)) * 1_000_000
    while true {
      let outcome: HTTPRequest.ParseError
      do {
        return (try HTTPRequest.parse(bytes).0, nil)
      } catch {
        outcome = error
      }
      switch outcome {
      case .bad(let status, let reason):
        return (nil, .text(status, reason))
      case .incomplete:
        guard bytes.count < HTTPRequest.headLimit + HTTPRequest.bodyLimit + 4 else {
          return (nil, .text(413, "request too large"))
        }
        let now = DispatchTime.now().uptimeNanoseconds
        let left = Int32(clamping: deadline > now ? (deadline - now) / 1_000_000 : 0)
        guard let chunk = try? socket.read(atMost: 16_384, timeout: left), !chunk.isEmpty else {
          return (nil, .text(400, "incomplete request"))
        }
        bytes += chunk
      }
    }
  }

  /// Why `request` is refused, or `nil`: a foreign Host (DNS rebinding), a foreign Origin, no token.
  func check(_ request: HTTPRequest) -> HTTPResponse? {
    let hosts = ["127.0.0.1:\(port)", "localhost:\(port)"]
    guard let host = request.headers["host"], hosts.contains(host.lowercased()) else {
      return .text(403, "refused: the Host header must be 127.0.0.1:\(port) or localhost:\(port)")
    }
    if let origin = request.headers["origin"], !hosts.map({ "http://" + $0 }).contains(origin.lowercased()) {
      return .text(403, "refused: requests from another origin are not served")
    }
    guard let given = request.query["token"], token.matches(given) else {
      return .text(403, "refused: this page needs its token (use the address rewind attach printed)")
    }
    guard request.method == "GET" || request.method == "POST" else { return .text(405, "GET or POST only") }
    return nil
  }

  func respond(to request: HTTPRequest) -> HTTPResponse {
    switch (request.method, request.path) {
    case ("GET", "/"):
      return HTTPResponse(
        status: 200, contentType: "text/html; charset=utf-8",
        body: Array(LivePage.html(title: timeline.title, token: token.hexadecimal).utf8))
    case ("GET", "/app.js"):
      return HTTPResponse(
        status: 200, contentType: "text/javascript; charset=utf-8", body: Array(LivePage.script.utf8))
    case ("GET", "/app.css"):
      return HTTPResponse(status: 200, contentType: "text/css; charset=utf-8", body: Array(LivePage.css.utf8))
    case ("GET", "/api/events"):
      guard let from = request.query["from"].flatMap(UInt64.init),
        let to = request.query["to"].flatMap(UInt64.init),
        from >= 1, from <= to
      else { return .text(400, "from and to must be sequence numbers, from <= to") }
      let texts = timeline.texts(in: from...min(to, from + Self.pageLimit - 1))
      return .json(Self.array(texts))
    case ("POST", "/api/command"):
      return command(request)
    default:
      return .text(404, "not found")
    }
  }

  /// `[a,b,...]` of JSON texts.
  static func array(_ texts: [[UInt8]]) -> [UInt8] {
    var out: [UInt8] = [UInt8(ascii: "[")]
    for (index, text) in texts.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      out += text
    }
    out.append(UInt8(ascii: "]"))
    return out
  }

  /// Forwards a command from the page to the app and answers with its reply.
  func command(_ request: HTTPRequest) -> HTTPResponse {
    guard request.headers["content-type"]?.lowercased().hasPrefix("application/json") == true else {
      return .text(415, "commands are JSON (Content-Type: application/json)")
    }
    guard case .object(var fields)? = try? InspectorJSON.parse(request.body) else {
      return .text(400, "a command is a JSON object")
    }
    fields.removeAll { $0.0 == "id" }
    fields.insert(("id", .integer(0)), at: 0)
    let parsed: InspectorRequest
    do {
      parsed = try InspectorRequest(.object(fields))
    } catch {
      return .text(400, "not a command: \(error.reason)")
    }
    if parsed.command == .bye { return .text(400, "the page cannot close the app's connection") }
    do {
      return .json(try source.perform(parsed.command).bytes)
    } catch {
      return .text(502, "the app did not answer: \(error)")
    }
  }

  // MARK: Streaming

  /// Sends one Server-Sent Event.
  static func event(_ name: String, _ data: [UInt8]) -> [UInt8] {
    Array("event: \(name)\ndata: ".utf8) + data + Array("\n\n".utf8)
  }

  /// The live stream for one page: what the timeline holds, then each change as it happens. A page that
  /// reads too slowly is sent a gap for what it missed, which it fetches from `/api/events`.
  func stream(to socket: Socket) {
    do {
      try socket.write(HTTPResponse.eventStreamHead, timeout: 10_000)
      let info = InspectorJSON.object([
        ("title", .string(timeline.title)), ("readOnly", .bool(timeline.isReadOnly)),
      ])
      try socket.write(Self.event("info", info.bytes), timeout: 10_000)
      var (position, newest, missing, status) = timeline.withContents {
        ($0.feed.count, $0.newest, $0.missing, $0.status)
      }
      try socket.write(Self.event("status", status), timeout: 10_000)
      if newest > 0 {
        try send(.events(1...newest), to: socket)
        for range in missing { try socket.write(Self.event("gap", Self.range(range)), timeout: 10_000) }
      }
      while true {
        let (entries, ended, current) = timeline.waitForFeed(after: position, timeout: 15)
        if entries.isEmpty && !ended {
          try socket.write(Array(": keep-alive\n\n".utf8), timeout: 10_000)
          continue
        }
        position += entries.count
        status = current
        // Behind by more than the lag: one gap for the page to fetch, not every event.
        let pending = entries.reduce(UInt64(0)) { total, entry in
          if case .events(let range) = entry { return total + UInt64(range.count) }
          return total
        }
        if pending > Self.streamLag {
          let ranges = entries.compactMap { entry -> ClosedRange<UInt64>? in
            if case .events(let range) = entry { return range }
            return nil
          }
          if let low = ranges.map(\.lowerBound).min(), let high = ranges.map(\.upperBound).max() {
            try socket.write(Self.event("gap", Self.range(low...high, behind: true)), timeout: 30_000)
          }
          for entry in entries where !Self.isEvents(entry) { try send(entry, to: socket, status: status) }
        } else {
          for entry in entries { try send(entry, to: socket, status: status) }
        }
        newest = 0
        if ended { return }
      }
    } catch {
      return
    }
  }

  static func isEvents(_ entry: LiveTimeline.FeedEntry) -> Bool {
    if case .events = entry { return true }
    return false
  }

  func send(_ entry: LiveTimeline.FeedEntry, to socket: Socket, status: [UInt8]? = nil) throws {
    switch entry {
    case .events(let range), .filled(let range):
      if UInt64(range.count) > Self.streamLag {
        try socket.write(Self.event("gap", Self.range(range, behind: true)), timeout: 30_000)
        return
      }
      var start = range.lowerBound
      while start <= range.upperBound {
        let end = min(range.upperBound, start + 499)
        try socket.write(Self.event("events", Self.array(timeline.texts(in: start...end))), timeout: 30_000)
        start = end + 1
      }
    case .gap(let range):
      try socket.write(Self.event("gap", Self.range(range)), timeout: 30_000)
    case .status:
      try socket.write(Self.event("status", status ?? timeline.withContents { $0.status }), timeout: 30_000)
    case .ended:
      let reason = timeline.withContents { $0.ended } ?? "ended"
      try socket.write(
        Self.event("ended", InspectorJSON.object([("reason", .string(reason))]).bytes), timeout: 5_000)
    }
  }

  /// `{"from":a,"to":b}`; `behind` when the page itself fell behind (the tool has the events).
  static func range(_ range: ClosedRange<UInt64>, behind: Bool = false) -> [UInt8] {
    InspectorJSON.object([
      ("from", .unsigned(range.lowerBound)), ("to", .unsigned(range.upperBound)), ("behind", .bool(behind)),
    ]).bytes
  }

  // MARK: Export

  /// The session as JSON lines: a header, then every event in order. Gaps are fetched from the app first.
  func export(to socket: Socket) {
    if let source = source as? InspectorSource {
      while let range = timeline.firstMissing {
        guard
          let reply = try? source.perform(
            .events(from: range.lowerBound, to: range.upperBound, changes: true)),
          let events = reply["events"]?.arrayValue, !events.isEmpty
        else { break }
        timeline.fill(events)
      }
    }
    let newest = timeline.withContents { $0.newest }
    let head =
      "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\n"
      + "Content-Disposition: attachment; filename=\"rewind-session.jsonl\"\r\n" + HTTPResponse.commonHeaders
      + "Connection: close\r\n\r\n"
    let header = InspectorJSON.object([
      ("rewindInspectorExport", .integer(1)), ("title", .string(timeline.title)),
      ("newest", .unsigned(newest)),
    ])
    do {
      try socket.write(Array(head.utf8) + header.bytes + [0x0A], timeout: 30_000)
      var start: UInt64 = 1
      while start <= newest {
        let end = min(newest, start + 999)
        var chunk: [UInt8] = []
        for text in timeline.texts(in: start...end) { chunk += text + [0x0A] }
        try socket.write(chunk, timeout: 30_000)
        start = end + 1
      }
    } catch {
      return
    }
  }
}
