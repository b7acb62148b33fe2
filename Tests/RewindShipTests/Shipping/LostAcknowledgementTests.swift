import Foundation
import RewindLog
import RewindTestSupport
import RewindTesting
import Testing

@testable import RewindShip

/// Acknowledgements lost on the way back (a proxy drops some), two shippers on one log, and credentials:
/// the stream holds every event once.
@Suite struct LostAcknowledgementTests {
  @Test func droppedAcknowledgementsLeadToNoDuplicate() throws {
    guard NATSServerProcess.available() else { return }
    let seed: UInt64 = 0xD209_0031
    let server = try NATSServerProcess()
    try server.start()
    let proxy = FaultProxy(upstream: server.address, seed: seed) { operation, random in
      operation.isPublishAcknowledgement && Double.random(in: 0..<1, using: &random) < 0.04
    }
    let log = TemporaryDirectory()
    try appendEvents(log.path, 1...600)
    let stream = streamName()
    var configuration = testConfiguration([proxy.address], stream: stream, window: 16)
    configuration.acknowledgementTimeout = .milliseconds(300)
    let shipper = try Shipper(directory: log.path, configuration: configuration)
    let progress = try shipper.shipUntilCaughtUp(maximumAttempts: nil)
    #expect(progress.shippedThrough == 600)
    #expect(
      proxy.droppedCount > 0 && progress.resynchronizations > 1, "seed \(seed): \(proxy.droppedCount) dropped"
    )
    let contents = try StreamContents(server.address, stream: stream)
    #expect(contents.holdsExactly(1...600), "seed \(seed): \(contents.sequences.count) messages")
  }

  @Test func twoShippersOnOneLogShipEachEventOnce() throws {
    guard NATSServerProcess.available() else { return }
    let server = try NATSServerProcess()
    try server.start()
    let log = TemporaryDirectory()
    try appendEvents(log.path, 1...50)
    let appender = Appender(directory: log.path, seed: 0x2_0031)
    let stream = streamName()
    let configuration = testConfiguration([server.address], stream: stream, window: 8)
    let first = try Shipper(directory: log.path, configuration: configuration)
    let second = try Shipper(directory: log.path, configuration: configuration)
    first.start()
    second.start()
    #expect(first.waitUntilShipped(through: 500, timeout: .seconds(30)))
    let last = try appender.stop()
    #expect(first.waitUntilShipped(through: last, timeout: .seconds(30)))
    #expect(second.waitUntilShipped(through: last, timeout: .seconds(30)))
    let moved = first.progress.resynchronizations + second.progress.resynchronizations
    first.stop()
    second.stop()
    #expect(first.progress.lastError?.isFatal != true && second.progress.lastError?.isFatal != true)
    let contents = try StreamContents(server.address, stream: stream)
    #expect(contents.holdsExactly(1...last), "\(contents.sequences.count) messages for \(last) events")
    print("two shippers: \(last) events, \(moved) resynchronizations between them")
  }

  @Test func credentialsFromAFileOrTheEnvironmentAndRefusals() throws {
    guard NATSServerProcess.available() else { return }
    let server = try NATSServerProcess(extra: "authorization { user: shipper, password: \"s3cret pass\" }")
    try server.start(waitingUntilReady: false)
    let files = TemporaryDirectory()
    try "user=shipper\npassword=s3cret pass\n".write(
      toFile: files.file("good"), atomically: true, encoding: .utf8)
    try "user=shipper\npassword=wrong\n".write(toFile: files.file("bad"), atomically: true, encoding: .utf8)
    let good = try NATSCredentials.fromFile(files.file("good"))
    #expect(good == .userPassword(user: "shipper", password: "s3cret pass"))
    #expect(!good.description.contains("s3cret"))
    let log = TemporaryDirectory()
    try appendEvents(log.path, 1...20)
    let stream = streamName()
    var configuration = testConfiguration([server.address], stream: stream)
    configuration.connection.credentials = good
    #expect(
      try Shipper(directory: log.path, configuration: configuration).shipUntilCaughtUp().shippedThrough == 20)
    configuration.connection.credentials = try NATSCredentials.fromFile(files.file("bad"))
    #expect {
      try Shipper(directory: log.path, configuration: configuration).shipUntilCaughtUp()
    } throws: { error in
      guard let error = error as? ShipError, case .nats(let nats) = error else { return false }
      return nats.isAuthorizationViolation && error.isFatal
    }
    #expect(
      try NATSCredentials.fromEnvironment([
        NATSCredentials.userVariable: "u", NATSCredentials.passwordVariable: "p",
      ]) == .userPassword(user: "u", password: "p"))
    #expect(try NATSCredentials.fromEnvironment([NATSCredentials.tokenVariable: "t"]) == .token("t"))
    #expect(try NATSCredentials.fromEnvironment([:]) == nil)
    #expect(throws: NATSError.self) {
      try NATSCredentials.fromEnvironment([NATSCredentials.userVariable: "u"])
    }
    #expect(throws: NATSError.self) { try NATSServerAddress(parsing: "nats://shipper:pw@127.0.0.1:4222") }

    // The tool reads the environment; the command line never holds the password.
    let tool = try #require(builtExecutable("rewind"))
    try appendEvents(log.path, 21...30)
    let run = try runToEnd(
      tool, ["ship", log.path, "--server", server.address.description, "--stream", stream],
      environment: [NATSCredentials.userVariable: "shipper", NATSCredentials.passwordVariable: "s3cret pass"])
    #expect(run.status == 0 && run.output.contains("events 1...30 acknowledged"), "\(run.output)")
    // Another stream for the same log's subject is refused at once, not retried.
    let other = try runToEnd(
      tool, ["ship", log.path, "--server", server.address.description, "--stream", streamName()],
      environment: [NATSCredentials.userVariable: "shipper", NATSCredentials.passwordVariable: "s3cret pass"])
    #expect(other.status == 1 && other.output.contains("one stream only"), "\(other.output)")
    let refused = try runToEnd(
      tool, ["ship", log.path, "--server", "nats://shipper:x@127.0.0.1:1", "--stream", stream])
    #expect(refused.status == 64 && refused.output.contains("never in the address"), "\(refused.output)")
  }

  @Test func aTokenAuthenticates() throws {
    guard NATSServerProcess.available() else { return }
    let server = try NATSServerProcess(extra: "authorization { token: \"t0ken\" }")
    try server.start(waitingUntilReady: false)
    let deadline = ContinuousClock().now + .seconds(20)
    var connection: NATSConnection?
    while connection == nil, ContinuousClock().now < deadline {
      connection = try? NATSTestClient.connect(server.address, credentials: .token("t0ken"))
      if connection == nil { Thread.sleep(forTimeInterval: 0.02) }  // waits for the server to accept a client
    }
    let connected = try #require(connection)
    connected.close()
    #expect {
      _ = try NATSTestClient.connect(server.address, credentials: .token("nope"))
    } throws: { ($0 as? NATSError)?.isAuthorizationViolation == true }
  }
}
