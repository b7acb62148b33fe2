import Foundation
import RewindInspector
import RewindLog
import RewindTestSupport
import Testing

@testable import RewindTool

/// The live page's server: who it refuses, what every answer carries, and how a page is streamed.
@Suite(.timeLimit(.minutes(2))) struct LiveServerTests {
  /// A source that records the commands it is given.
  final class RecordingSource: LiveSource, @unchecked Sendable {
    let lock = NSLock()
    var commands: [InspectorCommand] = []

    func perform(_ command: InspectorCommand) throws -> InspectorJSON {
      lock.withLock { commands.append(command) }
      return .object([("type", .string("reply")), ("ok", .bool(true))])
    }

    func stop() {}
  }

  static func event(_ sequence: UInt64) -> InspectorJSON {
    .object([
      ("seq", .unsigned(sequence)), ("kind", .string("action")), ("type", .string("list.swipe.panBegan")),
      ("actor", .string("you")), ("source", .string("user")),
      ("payload", .object([("n", .unsigned(sequence))])),
      ("changes", .array([])),
    ])
  }

  static func start(requestTimeout: Int32 = 10_000) throws -> (LiveServer, LiveTimeline, RecordingSource) {
    let timeline = LiveTimeline(title: "test", isReadOnly: false)
    let source = RecordingSource()
    let server = try LiveServer(
      port: 0, timeline: timeline, source: source, requestTimeout: requestTimeout, log: { _ in })
    Thread.detachNewThread { server.run() }
    return (server, timeline, source)
  }

  /// Sends `request` raw and returns the response's text.
  static func exchange(_ server: LiveServer, _ request: String) throws -> String {
    let socket = try Socket.connect(loopbackPort: server.port)
    try socket.write(Array(request.utf8), timeout: 5_000)
    var bytes: [UInt8] = []
    while let chunk = try? socket.read(atMost: 65_536, timeout: 5_000), !chunk.isEmpty { bytes += chunk }
    return String(decoding: bytes, as: UTF8.self)
  }

  static func get(_ server: LiveServer, _ path: String, host: String? = nil, headers: String = "") throws
    -> String
  {
    try exchange(
      server, "GET \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(server.port)")\r\n\(headers)\r\n")
  }

  @Test func theHostTheOriginAndTheTokenAreChecked() throws {
    let (server, _, _) = try Self.start()
    defer { server.stop() }
    let token = server.token.hexadecimal
    let page = try Self.get(server, "/?token=\(token)")
    #expect(page.hasPrefix("HTTP/1.1 200"))
    #expect(page.contains("Content-Security-Policy: default-src 'none'; script-src 'self'"))
    #expect(page.contains("X-Frame-Options: DENY"))
    #expect(!page.contains("<script>"), "no inline script: the policy would refuse it")
    #expect(
      try Self.get(server, "/?token=\(token)", host: "localhost:\(server.port)").hasPrefix("HTTP/1.1 200"))
    // DNS rebinding: a name that resolves to 127.0.0.1 is still another host.
    #expect(
      try Self.get(server, "/?token=\(token)", host: "evil.example:\(server.port)").hasPrefix("HTTP/1.1 403"))
    #expect(try Self.exchange(server, "GET /?token=\(token) HTTP/1.1\r\n\r\n").hasPrefix("HTTP/1.1 403"))
    #expect(
      try Self.get(
        server, "/api/events?from=1&to=2&token=\(token)", headers: "Origin: http://evil.example\r\n"
      )
      .hasPrefix("HTTP/1.1 403"))
    #expect(
      try Self.get(
        server, "/api/events?from=1&to=2&token=\(token)",
        headers: "Origin: http://127.0.0.1:\(server.port)\r\n"
      )
      .hasPrefix("HTTP/1.1 200"))
    for path in ["/", "/app.js", "/events", "/api/export", "/api/events?from=1&to=2"] {
      #expect(try Self.get(server, path).hasPrefix("HTTP/1.1 403"), "\(path) without the token")
      #expect(
        try Self.get(server, path + (path.contains("?") ? "&" : "?") + "token=00").hasPrefix("HTTP/1.1 403"))
    }
  }

  @Test func commandsAreCheckedThenForwarded() throws {
    let (server, _, source) = try Self.start()
    defer { server.stop() }
    let token = server.token.hexadecimal
    func post(_ body: String, type: String = "application/json") throws -> String {
      try Self.exchange(
        server,
        "POST /api/command?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Type: \(type)\r\n"
          + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
    }
    #expect(try post(#"{"type":"jump","to":3}"#).hasPrefix("HTTP/1.1 200"))
    #expect(try post(#"{"type":"jump","to":3}"#, type: "text/plain").hasPrefix("HTTP/1.1 415"), "a form post")
    #expect(try post(#"{"type":"eval","code":"x"}"#).hasPrefix("HTTP/1.1 400"))
    #expect(try post(#"{"type":"bye"}"#).hasPrefix("HTTP/1.1 400"))
    #expect(try post("[1]").hasPrefix("HTTP/1.1 400"))
    #expect(source.lock.withLock { source.commands } == [.jump(to: 3)])
  }

  @Test func aPageThatFallsBehindGetsAGapAndFetchesIt() throws {
    let (server, timeline, _) = try Self.start()
    defer { server.stop() }
    let token = server.token.hexadecimal
    timeline.append((1...3).map(Self.event))
    let socket = try Socket.connect(loopbackPort: server.port)
    try socket.write(
      Array("GET /events?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n".utf8),
      timeout: 5_000)
    var text = ""
    func readUntil(_ needle: String) throws {
      while !text.contains(needle) {
        let chunk = try socket.read(atMost: 65_536, timeout: 10_000)
        guard !chunk.isEmpty else { throw BrowserError.failed("the stream closed") }
        text += String(decoding: chunk, as: UTF8.self)
      }
    }
    try readUntil(#""seq":3"#)
    #expect(text.contains("event: info") && text.contains("event: status"))
    // More events at once than a page is sent in one go: a gap it fetches instead.
    let many = LiveServer.streamLag + 1
    timeline.append((4...(3 + many)).map(Self.event))
    try readUntil("event: gap")
    #expect(text.contains(#"{"from":4,"to":\#(3 + many),"behind":true}"#))
    let page = try Self.get(server, "/api/events?from=4&to=\(3 + many)&token=\(token)")
    #expect(page.contains(#""seq":4,"#) && page.contains(#""seq":\#(3 + LiveServer.pageLimit),"#))
    #expect(!page.contains(#""seq":\#(4 + LiveServer.pageLimit),"#), "one page at most")
  }

  @Test func followingALogStreamsItsEventsWithFullPathsReadOnly() throws {
    let directory = TemporaryDirectory("follow")
    let fixture = try writeFixtureLog(directory.path, count: 20, snapshotEvery: nil)
    let timeline = LiveTimeline(title: directory.path, isReadOnly: true)
    let source = LogFollowSource(timeline: timeline, directory: directory.path, key: nil)
    try source.poll()
    let texts = timeline.texts(in: 1...20)
    #expect(texts.count == 20)
    let first = try InspectorJSON.parse(texts[0])
    #expect(first["type"] == .string("add"))
    #expect(first["changes"] == .null)
    #expect(
      try source.perform(.jump(to: 1))["error"] == .string("read-only"), "following a log changes nothing")
    // The log grows: the next poll reads what was appended.
    let journal = try FileJournal<Note>(directory: directory.path)
    try journal.append(fixtureEvent(21))
    try journal.close()
    try source.poll()
    #expect(timeline.texts(in: 21...21).count == 1)
    #expect(fixture.events.count == 20)
  }
}
