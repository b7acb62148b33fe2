import Dispatch
import Foundation
import Rewind
import Synchronization
import Testing

@testable import RewindShip

/// What a client does with input a real server never sends: each is a typed error, nothing hangs, and a
/// request waiting for a reply ends with the error.
@Suite struct NATSBadServerTests {
  static func connectError(_ server: ScriptedServer) -> NATSError? {
    do throws(NATSError) {
      let connection = try NATSConnection.connect(
        to: server.address, options: NATSConnectionOptions(connectTimeout: .seconds(2)))
      connection.close()
      return nil
    } catch {
      return error
    }
  }

  @Test func malformedInfoIsAProtocolError() {
    let server = ScriptedServer { $0.send("INFO {\"server_id\": 12\r\n") }
    guard case .protocolViolation(_, .malformedInfo)? = Self.connectError(server) else {
      Issue.record("expected malformedInfo")
      return
    }
  }

  @Test func errDuringTheHandshakeIsAServerError() {
    let server = ScriptedServer { client in
      client.send("INFO \(ScriptedServer.info(extra: #","auth_required":true"#))\r\n")
      _ = client.read(until: "CONNECT")
      client.send("-ERR 'Authorization Violation'\r\n")
    }
    let error = Self.connectError(server)
    #expect(error?.isAuthorizationViolation == true, "\(String(describing: error))")
  }

  @Test func errAfterConnectingEndsThePendingRequest() throws {
    let server = ScriptedServer { client in
      guard client.handshake() != nil, client.read(until: "PUB") != nil else { return }
      client.send("-ERR 'Stale Connection'\r\n")
      _ = client.readLine()
    }
    let connection = try NATSTestClient.connect(server.address)
    defer { connection.close() }
    #expect(throws: NATSError.serverError(server: server.address.description, message: "Stale Connection")) {
      _ = try connection.request("a", payload: [], timeout: .seconds(10))
    }
  }

  @Test func aReplyForAnUnknownInboxIsReportedAndResolvesNothing() throws {
    let events = Locked<[NATSConnection.Event]>([])
    let server = ScriptedServer { client in
      guard let inbox = client.handshake(), client.read(until: "PUB") != nil else { return }
      client.send("MSG \(inbox)999 1 2\r\nhi\r\n")
      _ = client.readLine()
    }
    let connection = try NATSTestClient.connect(server.address) { event in
      events.withLock { $0.append(event) }
    }
    defer { connection.close() }
    #expect(throws: NATSError.self) {
      _ = try connection.request("a", payload: [], timeout: .milliseconds(500))
    }
    let unknown = events.withLock { $0 }.contains { event in
      if case .unknownInbox(.unknownInbox(let subject)) = event { return subject.hasSuffix(".999") }
      return false
    }
    #expect(unknown)
  }

  @Test func aConnectionClosedMidMessageSaysSo() throws {
    let server = ScriptedServer { client in
      guard let inbox = client.handshake(), client.read(until: "PUB") != nil else { return }
      client.send("MSG \(inbox)1 1 10\r\nabc")
    }
    let connection = try NATSTestClient.connect(server.address)
    defer { connection.close() }
    #expect(throws: NATSError.connectionClosed(server: server.address.description, midMessage: true)) {
      _ = try connection.request("a", payload: [], timeout: .seconds(10))
    }
  }

  @Test func anOversizedMessageIsRefused() throws {
    let server = ScriptedServer { client in
      guard let inbox = client.handshake(info: ScriptedServer.info(maxPayload: 100)),
        client.read(until: "PUB") != nil
      else { return }
      client.send("MSG \(inbox)1 1 5000\r\n")
      _ = client.readLine()
    }
    let connection = try NATSTestClient.connect(server.address)
    defer { connection.close() }
    #expect(
      throws: NATSError.protocolViolation(
        server: server.address.description, .oversizedMessage(size: 5000, limit: 100))
    ) {
      _ = try connection.request("a", payload: [], timeout: .seconds(10))
    }
    // The client checks the server's max_payload before sending.
    #expect(throws: NATSError.payloadTooLarge(size: 101, maxPayload: 100)) {
      try connection.publish(
        NATSOutboundMessage(subject: "a", headers: nil, payload: [UInt8](repeating: 0, count: 101)))
    }
  }

  @Test func aServerThatSaysNothingTimesOut() {
    let server = ScriptedServer { client in _ = client.readLine() }
    guard case .timeout? = Self.connectError(server) else {
      Issue.record("expected a timeout")
      return
    }
  }

  @Test func tlsRequiredIsRefusedOnLinux() {
    #if !canImport(Network)
      let server = ScriptedServer { client in
        client.send("INFO \(ScriptedServer.info(extra: #","tls_required":true"#))\r\n")
        _ = client.readLine()
      }
      #expect(Self.connectError(server) == .tlsRequired(server: server.address.description))
    #endif
  }

  /// A server in lame-duck mode from its first INFO stays last in every later round, however the rounds
  /// rotate: the third round, which would start with it, still tries the announced server first.
  @Test func aServerInLameDuckModeFromItsFirstInfoStaysLast() throws {
    let accepted = Locked<[String]>([])
    let second = ScriptedServer(onAccept: { accepted.withLock { $0.append("second") } }) { client in
      _ = client.handshake()
      _ = client.readLine()
    }
    let first = ScriptedServer(onAccept: { accepted.withLock { $0.append("first") } }) { client in
      let info = ScriptedServer.info(extra: #","ldm":true,"connect_urls":["127.0.0.1:\#(second.port)"]"#)
      _ = client.handshake(info: info)
      _ = client.readLine()
    }
    let client = try NATSClient(
      servers: [first.address], options: NATSConnectionOptions(connectTimeout: .seconds(2)))
    try client.connect().close()
    #expect(client.servers == [first.address, second.address])
    for round in 2...3 {
      let connection = try client.connect()
      #expect(connection.server == second.address, "round \(round): \(accepted.withLock { $0 })")
      connection.close()
    }
  }

  @Test func lameDuckModeMovesTheClientToAnotherServer() throws {
    // The servers in the order clients reached them.
    let accepted = Locked<[String]>([])
    let second = ScriptedServer(onAccept: { accepted.withLock { $0.append("second") } }) { client in
      _ = client.handshake()
      _ = client.readLine()
    }
    let first = ScriptedServer(onAccept: { accepted.withLock { $0.append("first") } }) { client in
      guard client.handshake() != nil else { return }
      client.send(
        "INFO \(ScriptedServer.info(extra: #","ldm":true,"connect_urls":["127.0.0.1:\#(second.port)"]"#))\r\n"
      )
      _ = client.readLine()
    }
    let sawLameDuck = DispatchSemaphore(value: 0)
    let client = try NATSClient(
      servers: [first.address], options: NATSConnectionOptions(connectTimeout: .seconds(2)))
    let connection = try client.connect { event in
      if case .lameDuck = event { sawLameDuck.signal() }
    }
    #expect(sawLameDuck.wait(timeout: .now() + 10) == .success)
    #expect(client.servers == [first.address, second.address], "the announced server is learned")
    connection.close()
    // The next round tries the announced server first and the lame duck last.
    let next = try client.connect()
    defer { next.close() }
    let order = accepted.withLock { $0 }
    #expect(order.prefix(2) == ["first", "second"], "the second round went to the announced server first")
    // Where the announced server's handshake failed, the round fell back to the lame duck, as it should;
    // say so rather than fail on what the harness did (one CI run under ThreadSanitizer saw it).
    if next.server != second.address {
      print("lame-duck test: the announced server was tried, not connected: \(order)")
      #expect(next.server == first.address && order == ["first", "second", "first"])
    }
  }
}
