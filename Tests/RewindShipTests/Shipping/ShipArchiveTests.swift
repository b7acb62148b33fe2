import Foundation
import Rewind
import RewindLog
import RewindTestSupport
import Testing

@testable import RewindShip

/// Retention with the shipping archive hook: a segment is removed only after the stream acknowledged its
/// last event and held it for the server's sync interval.
@Suite struct ShipArchiveTests {
  @Test func retentionNeverCutsWhatTheStreamDoesNotHold() throws {
    guard NATSServerProcess.available() else { return }
    let server = try NATSServerProcess()
    try server.start()
    let log = TemporaryDirectory()
    let stream = streamName()
    // Ships only what the test allows, to hold shipping back.
    let allowed = Locked<UInt64>(0)
    var configuration = testConfiguration([server.address], stream: stream)
    configuration.shipsThrough = { allowed.withLock { $0 } }
    let shipper = try Shipper(directory: log.path, configuration: configuration)
    let syncInterval = Duration.milliseconds(300)
    let options = FileJournalOptions(
      durability: .grouped(), segmentSize: 1024, snapshotInterval: nil,
      retention: RetentionPolicy(events: 10),
      archive: shipper.archive(serverSyncInterval: syncInterval, waitingUpTo: .milliseconds(200)))
    let journal = try FileJournal<CrashAction>(directory: log.path, options: options)
    for sequence in UInt64(1)...120 {
      try journal.append(crashEvent(sequence))
      if sequence % 10 == 0 { try journal.flush() }
    }
    try journal.writeSnapshot(UInt64(120), at: 120)
    try journal.flush()

    // Nothing shipped: the cut is refused and every segment stays.
    #expect(throws: FileJournalError.self) { try journal.applyRetention() }
    #expect(journal.cut == nil)
    #expect("\(String(describing: journal.retentionFailure))".contains("not acknowledged"))

    // Shipped, but acknowledged just now: still refused until the server's sync interval has passed.
    allowed.withLock { $0 = 120 }
    #expect(try shipper.shipUntilCaughtUp().shippedThrough == 120)
    #expect(throws: FileJournalError.self) { try journal.applyRetention() }
    #expect("\(String(describing: journal.retentionFailure))".contains("periodic sync"))
    #expect(journal.cut == nil)

    // Once the stream has held the events for the interval, the cut goes through.
    let deadline = ContinuousClock().now + .seconds(10)
    while shipper.control.shipped(heldFor: syncInterval) < 120, ContinuousClock().now < deadline {
      Thread.sleep(forTimeInterval: 0.02)  // waits for the acknowledged events to age past the interval
    }
    let cut = try #require(try journal.applyRetention())
    #expect(cut.throughSequence > 0 && cut.throughSequence <= 120)
    try journal.close()
    // Shipping goes on after the cut: the stream's last event is still on disk or is the cut itself.
    try appendEvents(log.path, 121...130)
    allowed.withLock { $0 = 130 }
    #expect(try shipper.shipUntilCaughtUp().shippedThrough == 130)
    #expect(try StreamContents(server.address, stream: stream).holdsExactly(1...130))
  }
}
