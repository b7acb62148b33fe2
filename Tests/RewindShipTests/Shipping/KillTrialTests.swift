import Foundation
import Rewind
import RewindLog
import RewindTestSupport
import RewindTesting
import Testing

@testable import RewindShip

/// kill -9, at random moments, of the shipper (`rewind ship --follow`) while the app appends, and of the
/// app while it appends and an in-process shipper follows: every time, the stream holds every event once,
/// in order, and the verifier passes. `REWIND_SHIP_TRIALS` sets the number of trials (Scripts/ship-trials.sh).
@Suite(.serialized) struct KillTrialTests {
  static var trials: Int { Int(ProcessInfo.processInfo.environment["REWIND_SHIP_TRIALS"] ?? "") ?? 20 }

  static func verify(_ server: NATSServerAddress, _ stream: String) throws -> RemoteVerifyReport {
    try RemoteVerifier(configuration: RemoteVerifyConfiguration(servers: [server], stream: stream)).run()
  }

  @Test func killingTheShipperLosesAndRepeatsNothing() throws {
    guard NATSServerProcess.available() else { return }
    let tool = try #require(builtExecutable("rewind"), "the rewind executable is not built")
    let seed = UInt64(ProcessInfo.processInfo.environment["REWIND_SHIP_SEED"] ?? "") ?? 0x5417_0031
    var random = SplitMix64(seed: seed)
    let server = try NATSServerProcess()
    try server.start()
    let log = TemporaryDirectory()
    let stream = streamName()
    let appender = Appender(directory: log.path, seed: seed)
    var passed = 0
    var failed = 0
    for trial in 0..<Self.trials {
      let window = [1, 4, 32, 256][Int.random(in: 0..<4, using: &random)]
      let child = try launch(
        tool,
        [
          "ship", log.path, "--server", server.address.description, "--stream", stream, "--follow",
          "--window", String(window),
        ])
      // Deliberate jitter: a random point of the shipping to kill at.
      Thread.sleep(forTimeInterval: Double.random(in: 0.02...0.35, using: &random))
      sendSignal(child.processIdentifier, SIGKILL)
      child.waitUntilExit()
      let report = try Self.verify(server.address, stream)
      if report.isIntact {
        passed += 1
      } else {
        failed += 1
        Issue.record("seed \(seed), trial \(trial): \(String(describing: report.firstProblem))")
      }
    }
    let last = try appender.stop()
    let shipper = try Shipper(
      directory: log.path, configuration: testConfiguration([server.address], stream: stream))
    #expect(try shipper.shipUntilCaughtUp().shippedThrough == last)
    let report = try Self.verify(server.address, stream)
    #expect(
      report.isIntact && report.verifiedEvent == last && report.streamLastSequence == last,
      "seed \(seed): \(report)")
    print("shipper kill -9 trials (seed \(seed), \(last) events): \(passed) passed, \(failed) failed")
  }

  @Test func killingTheAppMidAppendShipsNoTornFrame() throws {
    guard NATSServerProcess.available() else { return }
    let child = try #require(builtExecutable("rewind-crash-child"), "rewind-crash-child is not built")
    let seed = UInt64(ProcessInfo.processInfo.environment["REWIND_SHIP_SEED"] ?? "") ?? 0xA990_0031
    var random = SplitMix64(seed: seed)
    let server = try NATSServerProcess()
    try server.start()
    let log = TemporaryDirectory()
    let stream = streamName()
    // The first run creates the log the shipper follows.
    let first = try launch(child, [log.path])
    let created = ContinuousClock().now + .seconds(20)
    while recordBytes(1, in: log.path) == nil, ContinuousClock().now < created {
      Thread.sleep(forTimeInterval: 0.01)  // waits for the child to write the log's first event
    }
    sendSignal(first.processIdentifier, SIGKILL)
    first.waitUntilExit()
    let shipper = try Shipper(
      directory: log.path, configuration: testConfiguration([server.address], stream: stream))
    shipper.start()
    defer { shipper.stop() }
    // The stream exists once the first event is shipped: a verify before that finds no stream to check.
    try #require(
      shipper.waitUntilShipped(through: 1, timeout: .seconds(30)), "seed \(seed): event 1 never shipped")
    let trials = max(5, Self.trials / 4)
    var passed = 0
    for trial in 0..<trials {
      let app = try launch(child, [log.path])
      // Deliberate jitter: a random point of the appends to kill at.
      Thread.sleep(forTimeInterval: Double.random(in: 0.02...0.3, using: &random))
      sendSignal(app.processIdentifier, SIGKILL)
      app.waitUntilExit()
      let report = try Self.verify(server.address, stream)
      #expect(report.isIntact, "seed \(seed), trial \(trial): \(String(describing: report.firstProblem))")
      if report.isIntact { passed += 1 }
    }
    // Recovery cuts any torn tail; what it keeps is what was shipped, and shipping goes on from there.
    let journal = try FileJournal<CrashAction>(directory: log.path)
    let last = journal.lastSequence
    try journal.close()
    #expect(shipper.waitUntilShipped(through: last, timeout: .seconds(30)))
    #expect(shipper.progress.lastError?.isFatal != true, "\(String(describing: shipper.progress.lastError))")
    let contents = try StreamContents(server.address, stream: stream)
    #expect(
      contents.holdsExactly(1...last),
      "seed \(seed): \(contents.sequences.count) events, last \(contents.sequences.last ?? 0)")
    let differing = contents.events.filter { $0.record != recordBytes($0.sequence, in: log.path) }.map(
      \.sequence)
    #expect(differing.isEmpty, "events whose shipped record differs from the log's: \(differing.prefix(10))")
    print("app kill -9 trials (seed \(seed), \(last) events): \(passed) passed, \(trials - passed) failed")
  }
}

/// The record bytes the log holds for event `sequence`.
func recordBytes(_ sequence: UInt64, in directory: String) -> [UInt8]? {
  let tail = LogTail(directory: directory, key: nil)
  guard (try? tail.open()) != nil, (try? tail.seek(toFrameContaining: sequence)) != nil,
    let frame = try? tail.next(), frame.firstSequence <= sequence, sequence <= frame.lastSequence
  else { return nil }
  return frame.records[Int(sequence - frame.firstSequence)]
}
