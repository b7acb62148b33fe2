import Foundation
import RewindLog
import RewindTestSupport
import RewindTesting
import Testing

@testable import RewindShip

/// A server that refuses the credentials or a permission: `rewind verify-remote` and `rewind ship` exit 77
/// (`EX_NOPERM`) naming the cause, at once, so a script that retries on 74 does not loop on a wrong
/// password; an unreachable server stays 74.
@Suite struct AccessRefusedTests {
  static let users = """
    authorization {
      users: [
        { user: shipper, password: good }
        { user: noinfo, password: pw, permissions: { publish: { deny: ["$JS.API.STREAM.INFO.>"] } } }
        { user: nopublish, password: pw, permissions: { publish: { deny: ["rewind.log.>"] } } }
      ]
    }
    """

  static func environment(_ user: String, _ password: String) -> [String: String] {
    [NATSCredentials.userVariable: user, NATSCredentials.passwordVariable: password]
  }

  /// Waits until the server accepts `shipper` (`waitUntilReady` connects without credentials).
  static func waitUntilReady(_ server: NATSServerProcess) throws {
    let deadline = ContinuousClock().now + .seconds(20)
    while ContinuousClock().now < deadline {
      if let connection = try? NATSTestClient.connect(
        server.address, credentials: .userPassword(user: "shipper", password: "good"))
      {
        connection.close()
        return
      }
      Thread.sleep(forTimeInterval: 0.02)  // waits for the server to accept a client
    }
    throw ServerProblem("nats-server did not accept a client within 20 s: \(server.logTail)")
  }

  @Test func refusedCredentialsAndPermissionsExit77() throws {
    guard NATSServerProcess.available() else { return }
    let tool = try #require(builtExecutable("rewind"))
    let server = try NATSServerProcess(extra: Self.users)
    try server.start(waitingUntilReady: false)
    try Self.waitUntilReady(server)
    let log = TemporaryDirectory()
    try appendEvents(log.path, 1...10)
    let stream = streamName()
    let address = server.address.description
    let shipped = try runToEnd(
      tool, ["ship", log.path, "--server", address, "--stream", stream],
      environment: Self.environment("shipper", "good"))
    #expect(shipped.status == 0, "\(shipped.output)")

    // A wrong password: the connection is refused.
    let verifyWrong = try runToEnd(
      tool, ["verify-remote", "--server", address, "--stream", stream],
      environment: Self.environment("shipper", "wrong"))
    #expect(verifyWrong.status == 77, "\(verifyWrong.status): \(verifyWrong.output)")
    #expect(verifyWrong.output.contains("Authorization Violation"), "\(verifyWrong.output)")
    let shipWrong = try runToEnd(
      tool, ["ship", log.path, "--server", address, "--stream", stream],
      environment: Self.environment("shipper", "wrong"))
    #expect(shipWrong.status == 77, "\(shipWrong.status): \(shipWrong.output)")
    #expect(shipWrong.output.contains("Authorization Violation"), "\(shipWrong.output)")

    // Accepted credentials without a permission the command needs: the request fails at once with the
    // server's -ERR instead of timing out.
    let verifyDenied = try runToEnd(
      tool, ["verify-remote", "--server", address, "--stream", stream, "--json"],
      environment: Self.environment("noinfo", "pw"))
    #expect(verifyDenied.status == 77, "\(verifyDenied.status): \(verifyDenied.output)")
    #expect(verifyDenied.output.contains("Permissions Violation"), "\(verifyDenied.output)")
    try appendEvents(log.path, 11...12)
    let shipDenied = try runToEnd(
      tool, ["ship", log.path, "--server", address, "--stream", stream, "--attempts", "3"],
      environment: Self.environment("nopublish", "pw"))
    #expect(shipDenied.status == 77, "\(shipDenied.status): \(shipDenied.output)")
    #expect(shipDenied.output.contains("Permissions Violation"), "\(shipDenied.output)")

    // An unreachable server is still 74: retrying may help.
    let unreachable = try runToEnd(
      tool,
      ["verify-remote", "--server", "nats://127.0.0.1:\(NATSServerProcess.freePort())", "--stream", stream],
      environment: Self.environment("shipper", "good"))
    #expect(unreachable.status == 74, "\(unreachable.status): \(unreachable.output)")
  }

  @Test func aDeniedPublishEndsTheRequestAtOnce() throws {
    guard NATSServerProcess.available() else { return }
    let server = try NATSServerProcess(extra: Self.users)
    try server.start(waitingUntilReady: false)
    try Self.waitUntilReady(server)
    let connection = try NATSTestClient.connect(
      server.address, credentials: .userPassword(user: "noinfo", password: "pw"))
    defer { connection.close() }
    // A long timeout: the test's point is that the -ERR, not the timeout, ends the wait.
    #expect {
      _ = try connection.request("$JS.API.STREAM.INFO.ANY", payload: [], timeout: .seconds(600))
    } throws: { error in
      guard let error = error as? NATSError else { return false }
      return error.isPermissionViolation && error.isAccessRefused && !error.isAuthorizationViolation
    }
  }

  @Test func theDeniedSubjectIsReadFromTheServersText() {
    #expect(
      NATSConnection.deniedPublishSubject(#"Permissions Violation for Publish to "$JS.API.STREAM.INFO.S""#)
        == "$JS.API.STREAM.INFO.S")
    #expect(
      NATSConnection.deniedPublishSubject(
        #"Permissions Violation for Publish to rewind.log.x using _INBOX.y"#)
        == "rewind.log.x")
    #expect(NATSConnection.deniedPublishSubject(#"Permissions Violation for Subscription to "a""#) == nil)
    #expect(
      NATSConnection.deniedPublishSubject(#"Permissions Violation for Publish to "unterminated"#) == nil)
    #expect(NATSConnection.deniedPublishSubject("Authorization Violation") == nil)
    // The other wording: the client may publish there but not ask for replies on its inbox.
    #expect(
      NATSConnection.deniedReplySubject(#"Permissions Violation for Publish with Reply of "_INBOX.a.7""#)
        == "_INBOX.a.7")
    #expect(
      NATSConnection.deniedPublishSubject(#"Permissions Violation for Publish with Reply of "_INBOX.a.7""#)
        == nil)
    #expect(NATSConnection.deniedReplySubject(#"Permissions Violation for Publish to "x""#) == nil)
  }
}
