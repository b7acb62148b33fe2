import Foundation
import RewindLog
import RewindTestSupport
import RewindTesting
import Testing

@testable import RewindShip

/// JetStream errors that no retry can change fail at once with the server's code and description;
/// transient ones (no leader, a cluster forming) are still retried.
@Suite struct JetStreamPermanentErrorTests {
  @Test func errorCodesAreClassified() {
    // (status, err_code) as nats-server 2.9 sends them (server/errors.json), and whether they are permanent.
    let cases: [(Int, Int, Bool)] = [
      (500, 10074, true),  // replicas > 1 not supported in non-clustered mode
      // What an operator can clear without the request changing: retried.
      (400, 10005, false),  // no suitable peers for placement (a rolling restart)
      (503, 10023, false),  // insufficient resources
      (500, 10047, false),  // insufficient storage
      (500, 10028, false),  // insufficient memory
      (400, 10002, false),  // account resources exceeded
      (400, 10003, true),  // bad request
      (400, 10025, true),  // invalid JSON
      (400, 10058, true),  // stream name already in use with a different configuration
      (400, 10065, true),  // subjects overlap with an existing stream
      (503, 10039, false),  // JetStream not enabled for account (also after a full disk disabled it)
      (503, 10076, false),  // JetStream not enabled
      (503, 10008, false),  // JetStream system temporarily unavailable
      (500, 10009, false),  // JetStream cluster can not handle request (not the leader)
      (503, 10004, false),  // incomplete results
      (400, 10071, false),  // wrong last sequence: the shipper reads the stream again
      (404, 10059, false),  // stream not found: the caller creates it
      (500, 0, false),  // an old server without err_code
      (400, 19_999, false),  // a code this client does not know: retried, as before
    ]
    for (status, code, permanent) in cases {
      let error = JetStreamAPIError(code: status, errorCode: code, text: "t")
      #expect(error.isPermanent == permanent, "err_code \(code)")
      #expect(ShipError.jetStream(.api(error)).isFatal == permanent, "err_code \(code)")
    }
    #expect(JetStreamAPIError(code: 503, errorCode: 10039, text: "").isAccessRefused)
    #expect(!JetStreamAPIError(code: 500, errorCode: 10074, text: "").isAccessRefused)
    #expect(!ShipError.jetStream(.nats(.timeout("x"))).isFatal)
    #expect(!ShipError.jetStream(.malformedResponse("x")).isFatal)
    #expect(ShipError.jetStream(.nats(.serverError(server: "s", message: "Authorization Violation"))).isFatal)
  }

  @Test func moreReplicasThanServersFailsAtOnceWithTheServersError() throws {
    guard NATSServerProcess.available() else { return }
    let server = try NATSServerProcess()
    try server.start()
    let log = TemporaryDirectory()
    try appendEvents(log.path, 1...5)
    let configuration = testConfiguration([server.address], stream: streamName(), replicas: 3)
    let shipper = try Shipper(directory: log.path, configuration: configuration)
    #expect {
      try shipper.shipUntilCaughtUp(maximumAttempts: 10)
    } throws: { error in
      guard let error = error as? ShipError, case .jetStream(.api(let api)) = error else { return false }
      return api.errorCode == JetStreamAPIError.replicasNotSupported && api.code == 500
        && api.text.contains("replicas") && error.isFatal
    }
    // One attempt: a permanent error stops the shipper without a retry.
    #expect(shipper.progress.state == .stopped)
    #expect(shipper.progress.resynchronizations == 1)

    // The tool names the code and exits 1 (refused), not 74 (retry later).
    let tool = try #require(builtExecutable("rewind"))
    let run = try runToEnd(
      tool,
      [
        "ship", log.path, "--server", server.address.description, "--stream", streamName(), "--replicas", "3",
      ])
    #expect(run.status == 1 && run.output.contains("10074"), "\(run.status): \(run.output)")
  }
}
