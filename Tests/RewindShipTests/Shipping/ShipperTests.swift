import Foundation
import Rewind
import RewindLog
import RewindTestSupport
import Testing

@testable import RewindShip

/// Shipping a real log to a real nats-server (single node) and verifying the stream.
@Suite struct ShipperTests {
  @Test func shipsEveryEventOnceAndResumesFromTheStream() throws {
    guard NATSServerProcess.available() else { return }
    let server = try NATSServerProcess()
    try server.start()
    let log = TemporaryDirectory()
    try appendEvents(log.path, 1...100)
    let stream = streamName()
    let shipper = try Shipper(
      directory: log.path, configuration: testConfiguration([server.address], stream: stream))
    let progress = try shipper.shipUntilCaughtUp()
    #expect(progress.shippedThrough == 100)
    #expect(try StreamContents(server.address, stream: stream).holdsExactly(1...100))

    // A second run ships nothing; more events continue the stream.
    try shipper.shipUntilCaughtUp()
    #expect(try StreamContents(server.address, stream: stream).lastSequence == 100)
    try appendEvents(log.path, 101...150)
    let again = try Shipper(
      directory: log.path, configuration: testConfiguration([server.address], stream: stream))
    #expect(try again.shipUntilCaughtUp().shippedThrough == 150)
    #expect(try StreamContents(server.address, stream: stream).holdsExactly(1...150))

    let report = try RemoteVerifier(
      configuration: RemoteVerifyConfiguration(servers: [server.address], stream: stream)
    )
    .run()
    #expect(report.isIntact, "\(String(describing: report.firstProblem))")
    #expect(report.verifiedThrough == 150)
    #expect(report.startsAtGenesis)
  }
}

extension ShipperTests {
  @Test func pausingStopsSendingAndResumingCatchesUp() throws {
    guard NATSServerProcess.available() else { return }
    let server = try NATSServerProcess()
    try server.start()
    let log = TemporaryDirectory()
    try appendEvents(log.path, 1...40)
    let stream = streamName()
    let shipper = try Shipper(
      directory: log.path, configuration: testConfiguration([server.address], stream: stream))
    shipper.start()
    defer { shipper.stop() }
    #expect(shipper.waitUntilShipped(through: 40, timeout: .seconds(20)))
    shipper.pause()
    #expect(shipper.control.waitForProgress(timeout: .seconds(10)) { $0.state == .paused }.state == .paused)
    try appendEvents(log.path, 41...80)
    shipper.wake()
    #expect(try StreamContents(server.address, stream: stream).lastSequence == 40)
    shipper.resume()
    #expect(shipper.waitUntilShipped(through: 80, timeout: .seconds(20)))
    #expect(try StreamContents(server.address, stream: stream).holdsExactly(1...80))
  }

  @Test func aKeyedLogShipsAndVerifiesWithItsKey() throws {
    guard NATSServerProcess.available() else { return }
    let server = try NATSServerProcess()
    try server.start()
    let log = TemporaryDirectory()
    let key = ChainKey.random()
    try appendEvents(log.path, 1...50, key: key)
    let stream = streamName()
    try Shipper(
      directory: log.path, configuration: testConfiguration([server.address], stream: stream, key: key)
    )
    .shipUntilCaughtUp()
    let verify = { (key: ChainKey?) throws -> RemoteVerifyReport in
      try RemoteVerifier(
        configuration: RemoteVerifyConfiguration(
          servers: [server.address], stream: stream, durableName: "v\(UInt32.random(in: 0...UInt32.max))",
          chainKey: key)
      ).run()
    }
    let report = try verify(key)
    #expect(report.isIntact && report.isKeyed && report.verifiedEvent == 50, "\(report)")
    #expect(throws: RemoteVerifyError.keyRequired) { try verify(nil) }
    #expect(try verify(ChainKey.random()).firstProblem?.kind == .forged)
    // The wrong key is refused before anything is shipped.
    #expect {
      try Shipper(
        directory: log.path,
        configuration: testConfiguration([server.address], stream: streamName(), key: .random())
      ).shipUntilCaughtUp()
    } throws: { error in
      guard case .localLog(.wrongKey) = error as? ShipError else { return false }
      return true
    }
  }

  @Test func theToolShipsAndVerifies() throws {
    guard NATSServerProcess.available() else { return }
    let tool = try #require(builtExecutable("rewind"))
    let server = try NATSServerProcess()
    try server.start()
    let log = TemporaryDirectory()
    try appendEvents(log.path, 1...30)
    let stream = streamName()
    let shipped = try runToEnd(
      tool, ["ship", log.path, "--server", server.address.description, "--stream", stream, "--json"])
    #expect(shipped.status == 0 && shipped.output.contains("\"shippedThrough\": 30"), "\(shipped.output)")
    let verified = try runToEnd(
      tool, ["verify-remote", "--server", server.address.description, "--stream", stream])
    #expect(verified.status == 0 && verified.output.contains("verified \(stream)"), "\(verified.output)")
    let missing = try runToEnd(
      tool, ["verify-remote", "--server", server.address.description, "--stream", "NOPE"])
    #expect(missing.status == 66, "\(missing.output)")
    let unreachable = try runToEnd(
      tool,
      [
        "ship", log.path, "--server", "nats://127.0.0.1:\(NATSServerProcess.freePort())", "--stream", stream,
        "--attempts", "2",
      ])
    #expect(unreachable.status == 74, "\(unreachable.output)")
  }
}
