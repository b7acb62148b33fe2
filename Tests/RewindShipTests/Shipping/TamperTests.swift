import Foundation
import RewindLog
import RewindTestSupport
import Testing

@testable import RewindShip

/// Tampering on either side: a flipped byte in the local log is refused before it is shipped, a message
/// forged into the stream is named by the verifier (and stops the shipper), and the stream refuses
/// deletes and purges.
@Suite struct TamperTests {
  @Test func aFlippedLocalByteIsNeverShipped() throws {
    guard NATSServerProcess.available() else { return }
    let server = try NATSServerProcess()
    try server.start()
    let log = TemporaryDirectory()
    try appendEvents(log.path, 1...70)
    let segment = log.file("segment-00000000000000000001.log")
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: segment)))
    bytes[bytes.count / 2] ^= 0x40
    try Data(bytes).write(to: URL(fileURLWithPath: segment))
    let stream = streamName()
    let shipper = try Shipper(
      directory: log.path, configuration: testConfiguration([server.address], stream: stream))
    #expect {
      try shipper.shipUntilCaughtUp()
    } throws: { error in
      guard case .localLog(.damaged(let name, _, _)) = error as? ShipError else { return false }
      return name == "segment-00000000000000000001.log"
    }
    // What was shipped is the log's prefix before the damaged frame, and it verifies.
    let contents = try StreamContents(server.address, stream: stream)
    let shipped = contents.sequences.count
    #expect(shipped > 0 && shipped < 70 && contents.holdsExactly(1...UInt64(shipped)))
    #expect(contents.events.last?.isFrameEnd == true)
    #expect(shipper.progress.shippedThrough == UInt64(shipped))
  }

  @Test func aForgedMessageIsNamedByTheVerifierAndStopsTheShipper() throws {
    guard NATSServerProcess.available() else { return }
    let server = try NATSServerProcess()
    try server.start()
    let log = TemporaryDirectory()
    try appendEvents(log.path, 1...30, perFrame: 1)
    let stream = streamName()
    let configuration = testConfiguration([server.address], stream: stream)
    try Shipper(directory: log.path, configuration: configuration).shipUntilCaughtUp()
    // The next event, with a changed record, published where it belongs.
    try appendEvents(log.path, 31...40, perFrame: 1)
    let messages = try RemoteChainWalkTests.messages(log.path)
    var forged = messages[30]
    forged.payload[forged.payload.count - 1] ^= 1
    let connection = try NATSTestClient.connect(server.address)
    defer { connection.close() }
    let subject = try #require(
      StreamContents(server.address, stream: stream).events.first.map { "rewind.log." + $0.logID })
    let ack = try connection.request(
      subject, headers: forged.headers, payload: forged.payload, timeout: .seconds(5))
    guard case .success(let stored) = JetStream.publishAck(ack) else {
      Issue.record("the forged message was not stored")
      return
    }
    #expect(stored.sequence == 31)

    let report = try RemoteVerifier(
      configuration: RemoteVerifyConfiguration(servers: [server.address], stream: stream)
    )
    .run()
    #expect(report.firstProblem?.kind == .forged && report.firstProblem?.streamSequence == 31, "\(report)")
    #expect(report.verifiedThrough == 30)
    // The shipper compares the stream's last message with the log and refuses to go on.
    #expect {
      try Shipper(directory: log.path, configuration: configuration).shipUntilCaughtUp()
    } throws: { error in
      guard case .diverged(let sequence, let position, _) = error as? ShipError else { return false }
      return sequence == 31 && position == 31
    }
    #expect(try StreamContents(server.address, stream: stream).lastSequence == 31)
  }

  @Test func theStreamRefusesDeletesPurgesAndLoosening() throws {
    guard NATSServerProcess.available() else { return }
    let server = try NATSServerProcess()
    try server.start()
    let log = TemporaryDirectory()
    try appendEvents(log.path, 1...10)
    let stream = streamName()
    try Shipper(directory: log.path, configuration: testConfiguration([server.address], stream: stream))
      .shipUntilCaughtUp()
    let connection = try NATSTestClient.connect(server.address)
    defer { connection.close() }
    let api = JetStream(connection: connection, timeout: .seconds(5))
    #expect(throws: JetStreamError.self) { try api.deleteMessage(stream: stream, sequence: 3) }
    #expect(throws: JetStreamError.self) { try api.purge(stream: stream) }
    var config = try #require(try api.streamInfo(stream)).config
    config.denyDelete = false
    let body = try Array(JSONEncoder().encode(config))
    #expect(throws: JetStreamError.self) { _ = try api.call("$JS.API.STREAM.UPDATE.\(stream)", body) }
    #expect(try StreamContents(server.address, stream: stream).holdsExactly(1...10))
  }

  @Test func anUnsafeExistingStreamIsRefused() throws {
    guard NATSServerProcess.available() else { return }
    let server = try NATSServerProcess()
    try server.start()
    let log = TemporaryDirectory()
    try appendEvents(log.path, 1...5)
    let stream = streamName()
    let connection = try NATSTestClient.connect(server.address)
    defer { connection.close() }
    let tail = LogTail(directory: log.path, key: nil)
    try tail.open()
    var config = JetStreamStreamConfig(name: stream, subjects: ["rewind.log." + tail.logID.lowercaseHex])
    config.denyDelete = false
    _ = try JetStream(connection: connection, timeout: .seconds(5)).createStream(config)
    #expect {
      try Shipper(directory: log.path, configuration: testConfiguration([server.address], stream: stream))
        .shipUntilCaughtUp()
    } throws: { error in
      guard case .streamConfiguration = error as? ShipError else { return false }
      return true
    }
  }
}
