import Foundation
import RewindInspector
import RewindTestSupport
import Testing

@testable import RewindTool

/// Outside testing: 32 idle connections to the page's server held every page off until they closed. A
/// connection that has not sent its whole request within the request timeout is closed, and while all
/// slots are taken a new connection displaces the oldest one still sending its request; a page's streams
/// (authenticated) are never displaced.
@Suite(.timeLimit(.minutes(1))) struct LiveServerLockoutTests {
  /// `count` connections to `server` that send nothing.
  static func idleConnections(_ count: Int, to server: LiveServer) throws -> [Socket] {
    try (0..<count).map { _ in try Socket.connect(loopbackPort: server.port) }
  }

  /// Whether the server closed `socket` within `milliseconds`, ignoring what it sent first.
  static func isClosed(_ socket: Socket, within milliseconds: Int32) -> Bool {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(milliseconds) * 1_000_000
    while DispatchTime.now().uptimeNanoseconds < deadline {
      let left = Int32(clamping: (deadline - DispatchTime.now().uptimeNanoseconds) / 1_000_000)
      guard let chunk = try? socket.read(atMost: 4_096, timeout: max(left, 1)) else { return false }
      if chunk.isEmpty { return true }
    }
    return false
  }

  @Test func idleConnectionsAreClosedAtTheRequestTimeoutAndThePageIsServed() throws {
    let (server, _, _) = try LiveServerTests.start(requestTimeout: 200)
    defer { server.stop() }
    let idle = try Self.idleConnections(LiveServer.connectionLimit, to: server)
    for socket in idle { #expect(Self.isClosed(socket, within: 3_000)) }
    // A connection's thread frees its slot just after closing the socket: wait for that (bounded), rather
    // than read the count the moment the client sees the close (which failed a CI run under load).
    let deadline = DispatchTime.now().uptimeNanoseconds + 3_000_000_000
    while server.connections.counts.waiting != 0, DispatchTime.now().uptimeNanoseconds < deadline {
      usleep(1_000)
    }
    #expect(server.connections.counts.waiting == 0)
    let page = try LiveServerTests.get(server, "/?token=\(server.token.hexadecimal)")
    #expect(page.hasPrefix("HTTP/1.1 200"), "\(page.prefix(200))")
  }

  @Test func idleConnectionsCannotHoldThePageOffAndStreamsStay() throws {
    // A timeout far longer than the test: only displacement can let the page in.
    let (server, timeline, _) = try LiveServerTests.start(requestTimeout: 120_000)
    defer { server.stop() }
    let token = server.token.hexadecimal
    let stream = try Socket.connect(loopbackPort: server.port)
    try stream.write(
      Array("GET /events?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n".utf8),
      timeout: 5_000)
    var text = ""
    func readUntil(_ needle: String) throws {
      while !text.contains(needle) {
        let chunk = try stream.read(atMost: 65_536, timeout: 10_000)
        guard !chunk.isEmpty else { throw BrowserError.failed("the stream closed") }
        text += String(decoding: chunk, as: UTF8.self)
      }
    }
    try readUntil("event: status")
    #expect(server.connections.counts.serving == 1)
    let idle = try Self.idleConnections(LiveServer.connectionLimit - 1, to: server)
    let page = try LiveServerTests.get(server, "/?token=\(token)")
    #expect(page.hasPrefix("HTTP/1.1 200"), "\(page.prefix(200))")
    #expect(Self.isClosed(idle[0], within: 3_000), "the oldest idle connection made room")
    // The stream was not displaced: it still carries new events.
    timeline.append([LiveServerTests.event(1)])
    try readUntil(#""seq":1"#)
  }
}
