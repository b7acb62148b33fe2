import Foundation
import Rewind
import Testing

@testable import RewindShip

/// Outside testing: a subject, or a JetStream name that becomes part of one, holding a space or CR LF ends
/// the protocol line early and lets the rest be read as another operation. `rewind verify-remote --stream`
/// with `S _INBOX.x 0␍␊␍␊PUB evil 6␍␊owned!␍␊PUB x` made the verifier publish `owned!` to `evil` with the
/// auditor's credentials. The client now refuses such a subject before sending anything, and the verifier
/// refuses such names as its configuration.
@Suite struct NATSSubjectTests {
  static let injected = "S _INBOX.x 0\r\n\r\nPUB evil 6\r\nowned!\r\nPUB x"

  @Test func aSubjectThatWouldEndTheLineIsRefusedBeforeSending() throws {
    let received = Locked<[String]>([])
    let server = ScriptedServer { client in
      guard client.handshake() != nil else { return }
      while let line = client.readLine() {
        received.withLock { $0.append(line) }
        if line == "PING" { client.send("PONG\r\n") }
      }
    }
    let connection = try NATSTestClient.connect(server.address)
    defer { connection.close() }
    for subject in [Self.injected, "a b", "", "a\tb", "a\u{0}b", "a\nb"] {
      #expect(throws: NATSError.self, "\(subject.debugDescription)") {
        try connection.publish(NATSOutboundMessage(subject: subject, headers: nil, payload: Array("x".utf8)))
      }
      #expect(throws: NATSError.self, "\(subject.debugDescription)") {
        _ = try connection.subscribe(subject) { _ in }
      }
    }
    #expect(throws: NATSError.self) {
      try connection.publish(NATSOutboundMessage(subject: "ok", reply: "r x", headers: nil, payload: []))
    }
    // Once the server has answered a PING sent after everything else, it has read everything sent.
    try connection.publish(NATSOutboundMessage(subject: "fine", headers: nil, payload: []))
    try connection.roundTrip(timeout: .seconds(10))
    let lines = received.withLock { $0 }
    #expect(lines.contains("PUB fine 0"), "\(lines)")
    #expect(
      !lines.contains { $0.contains("evil") || $0.contains("owned") || $0.hasPrefix("PUB ok") }, "\(lines)")
  }

  @Test func aVerifierRefusesNamesThatWouldChangeItsSubjects() {
    // Nothing listens on port 1: a name that is not refused fails to connect instead.
    let nowhere = [NATSServerAddress(host: "127.0.0.1", port: 1)]
    let cases: [(stream: String, durable: String)] = [
      (Self.injected, "rewind-verify"), ("A.B", "rewind-verify"), ("A B", "rewind-verify"),
      (">", "rewind-verify"),
      (String(repeating: "S", count: 256), "rewind-verify"), ("S", "a.b"), ("S", "a b"), ("S", ""),
      ("S", "x\r\nPUB evil 1\r\n!"),
    ]
    for (stream, durable) in cases {
      let verifier = RemoteVerifier(
        configuration: RemoteVerifyConfiguration(servers: nowhere, stream: stream, durableName: durable))
      #expect("\(stream.debugDescription) \(durable.debugDescription)") {
        try verifier.run()
      } throws: { error in
        guard case .invalidConfiguration? = error as? RemoteVerifyError else { return false }
        return true
      }
    }
  }
}
