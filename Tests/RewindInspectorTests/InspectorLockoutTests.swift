import Foundation
import Rewind
import RewindTestSupport
import Testing

@testable import RewindInspector

/// Outside testing: eight connections that never sent their hello held every real tool off until they
/// closed. A connection that does not authenticate within the handshake timeout is closed and its slot
/// freed, and while all slots are taken a new connection displaces the oldest silent one.
@Suite(.timeLimit(.minutes(1))) struct InspectorLockoutTests {
  /// `count` connections to `inspector` that send nothing.
  static func silentConnections(_ count: Int, to inspector: Inspector<Notes.State, Notes.Action>) throws
    -> [Socket]
  {
    try (0..<count).map { _ in try Socket.connect(loopbackPort: inspector.port) }
  }

  /// Whether the inspector closed `socket` within `milliseconds` (it sends a silent peer nothing).
  static func isClosed(_ socket: Socket, within milliseconds: Int32) -> Bool {
    (try? socket.read(atMost: 1, timeout: milliseconds))?.isEmpty == true
  }

  @Test func silentConnectionsAreClosedAtTheHandshakeTimeoutAndAToolGetsIn() throws {
    let (_, inspector) = try makeInspectedStore(handshakeTimeout: .milliseconds(200))
    defer { inspector.stop() }
    let silent = try Self.silentConnections(
      Inspector<Notes.State, Notes.Action>.handshakeLimit, to: inspector)
    // Each is closed once its 200 ms are over: waited for as an event, bounded well below the default 5 s.
    for socket in silent { #expect(Self.isClosed(socket, within: 3_000)) }
    #expect(inspector.handshakes.counts.waiting == 0)
    let client = try TestClient.connect(to: inspector)
    _ = try client.attach(to: inspector)
    #expect(inspector.isAttached)
  }

  @Test func silentConnectionsCannotHoldARealToolOff() throws {
    // A timeout far longer than the test: only displacement can let the tool in.
    let (_, inspector) = try makeInspectedStore(handshakeTimeout: .seconds(120))
    defer { inspector.stop() }
    let silent = try Self.silentConnections(
      Inspector<Notes.State, Notes.Action>.handshakeLimit, to: inspector)
    let client = try TestClient.connect(to: inspector)
    let welcome = try client.attach(to: inspector)
    #expect(welcome["type"] == .string("welcome"))
    #expect(inspector.isAttached)
    // The oldest silent connection made room and was closed; the others still wait.
    #expect(Self.isClosed(silent[0], within: 3_000))
    #expect(inspector.handshakes.counts.waiting == silent.count - 1)
  }

  @Test func anAttachedToolIsNotClosedByTheHandshakeTimeout() throws {
    let (_, inspector) = try makeInspectedStore(handshakeTimeout: .milliseconds(200))
    defer { inspector.stop() }
    let client = try TestClient.connect(to: inspector)
    _ = try client.attach(to: inspector)
    // A silent connection made after the tool attached is closed at its timeout: by then the tool has been
    // attached longer than a handshake may take.
    let silent = try Self.silentConnections(1, to: inspector)
    #expect(Self.isClosed(silent[0], within: 3_000))
    let reply = try client.perform(.ping)
    #expect(reply["ok"] == .bool(true), "\(reply.text)")
    #expect(inspector.isAttached)
  }

  @Test func theTimeoutIsMillisecondsClamped() {
    #expect(InspectorOptions(handshakeTimeout: .milliseconds(250)).handshakeMilliseconds == 250)
    #expect(InspectorOptions(handshakeTimeout: .zero).handshakeMilliseconds == 1)
    #expect(InspectorOptions(handshakeTimeout: .seconds(-3)).handshakeMilliseconds == 1)
    #expect(InspectorOptions(handshakeTimeout: .seconds(Int64.max)).handshakeMilliseconds == .max)
    #expect(InspectorOptions().handshakeMilliseconds == 5_000)
    // Whole milliseconds that fit and a fraction that pushes them past Int64 (this trapped).
    let edge = Duration(secondsComponent: Int64.max / 1_000, attosecondsComponent: 900_000_000_000_000_000)
    #expect(InspectorOptions(handshakeTimeout: edge).handshakeMilliseconds == .max)
    let negativeEdge = Duration(
      secondsComponent: Int64.min / 1_000, attosecondsComponent: -900_000_000_000_000_000)
    #expect(InspectorOptions(handshakeTimeout: negativeEdge).handshakeMilliseconds == 1)
  }
}
