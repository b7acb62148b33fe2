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
