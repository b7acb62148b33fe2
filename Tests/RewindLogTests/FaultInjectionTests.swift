import Foundation
import Rewind
import RewindTestSupport
import Testing

@testable import RewindLog

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Failing writes and syncs at the Nth operation, and power loss that applies, drops, garbles or tears
/// every unsynced write, over many seeds: nothing acknowledged is lost, nothing unwritten is acknowledged,
/// and the log always reopens to a valid prefix of what was appended.
@Suite struct FaultInjectionTests {
  static let seeds = UInt64(0)..<300

  @Test func powerLossAndIOErrorsNeverLoseAcknowledgedEvents() async throws {
    var torn = 0
    var lostEvents = 0
    for seed in Self.seeds {
      let outcome = try await trial(seed: seed)
      torn += outcome.torn ? 1 : 0
      lostEvents += outcome.droppedUnacknowledged ? 1 : 0
    }
    // The trials really crash mid-write: some tails are torn and some unacknowledged events are lost.
    #expect(torn > 0)
    #expect(lostEvents > 0)
  }

  func trial(seed: UInt64) async throws -> (torn: Bool, droppedUnacknowledged: Bool) {
    var random = TestRandom(seed: seed)
    let injects = seed % 3 != 0
    let fileSystem = FaultyFileSystem(
      seed: seed, failAt: injects ? Int(random.next() % 40) + 1 : nil,
      failCode: random.next() % 2 == 0 ? EIO : ENOSPC,
      sticky: random.next() % 2 == 0)
    let durability: Durability = random.next() % 4 == 0 ? .immediate : .grouped()
    let options = FileJournalOptions(durability: durability, segmentSize: 512 + Int(random.next() % 1024))
    var appended: UInt64 = 0
    var acknowledged: UInt64 = 0
    var crashed: FaultyFileSystem
    do {
      let journal = try FileJournal<Note>(directory: "/log", options: options, fileSystem: fileSystem)
      let count = 10 + random.next() % 120
      for sequence in 1...count {
        // An append that throws may still have reached the disk: it counts as offered, not acknowledged.
        appended = sequence
        do { try journal.append(event(sequence)) } catch { break }
        if durability == .immediate { acknowledged = sequence }
        if random.next() % 6 == 0 {
          do {
            try await journal.waitForDurability(through: sequence)
            acknowledged = sequence
          } catch {
            #expect(journal.durabilityStatus.isLost, "seed \(seed)")
            break
          }
        }
      }
      // Power is cut while the committer may still be running.
      acknowledged = max(acknowledged, journal.durableSequence)
      crashed = fileSystem.powerLoss(seed: random.next())
      try? journal.close()
    } catch {
      // The injected fault hit while creating the log: nothing was acknowledged.
      #expect(acknowledged == 0, "seed \(seed)")
      crashed = fileSystem.powerLoss(seed: random.next())
    }
    let reopened: FileJournal<Note>
    do {
      reopened = try FileJournal<Note>(directory: "/log", options: options, fileSystem: crashed)
    } catch {
      Issue.record("seed \(seed): reopening after the crash failed: \(error)")
      return (false, false)
    }
    let last = reopened.lastSequence
    #expect(last >= acknowledged, "seed \(seed): acknowledged \(acknowledged) but recovered \(last)")
    #expect(last <= appended, "seed \(seed): recovered \(last) of \(appended) appended")
    if last > 0 {
      #expect(try reopened.events(in: 1...last) == (1...last).map(event), "seed \(seed)")
    }
    try reopened.close()
    return (reopened.recoveryReport.tornTail != nil, last < appended)
  }

  @Test func aFailedSyncPoisonsTheJournalUntilReopened() async throws {
    // Creating the log takes a header write, a sync and a directory sync; fail the first frame's sync.
    let fileSystem = FaultyFileSystem(seed: 3, failAt: 5, failCode: EIO)
    let journal = try FileJournal<Note>(directory: "/log", options: testOptions, fileSystem: fileSystem)
    let updates = journal.durabilityStatusUpdates()
    try journal.append(event(1))
    await #expect(throws: FileJournalError.self) { try await journal.waitForDurability(through: 1) }
    var seen: [DurabilityStatus] = []
    for await status in updates { seen.append(status) }
    #expect(seen.first == .healthy(durableThrough: 0))
    #expect(seen.last?.isLost == true)
    guard case .lost(let error, let durable) = journal.durabilityStatus else {
      Issue.record("expected lost durability, got \(journal.durabilityStatus)")
      return
    }
    #expect(error.code == EIO)
    #expect(durable == 0)
    // The failure is not retried away: later appends are refused although the disk works again.
    #expect { try journal.append(event(2)) } throws: { error in
      (error as? FileJournalError)?.code == .durabilityLost
    }
    #expect(throws: FileJournalError.self) { try journal.close() }
    let reopened = try FileJournal<Note>(directory: "/log", options: testOptions, fileSystem: fileSystem)
    #expect(reopened.lastSequence <= 1)
    try reopened.append(event(reopened.lastSequence + 1))
    try reopened.flush()
  }
}

/// Item 3 of "Failure paths": what reopening reports durable is what a successful sync covered.
@Suite struct ReopenDurabilityTests {
  /// Events 6...8 are written but their sync fails; the journal is closed and reopened from the same page
  /// cache (the process went on). What the reopened journal calls durable must survive a power cut.
  @Test(arguments: UInt64(0)..<20)
  func reopeningSyncsWhatItReportsDurable(seed: UInt64) throws {
    let fileSystem = FaultyFileSystem(seed: seed)
    let journal = try FileJournal<Note>(directory: "/log", options: testOptions, fileSystem: fileSystem)
    for sequence in UInt64(1)...5 { try journal.append(event(sequence)) }
    try journal.flush()
    fileSystem.failNext(.sync, code: EIO)
    // The committer may fail the sync of event 6 before 7 is appended: later appends then throw.
    for sequence in UInt64(6)...8 { try? journal.append(event(sequence)) }
    #expect(throws: FileJournalError.self) { try journal.flush() }
    #expect(journal.durableSequence == 5)
    try? journal.close()

    let reopened = try FileJournal<Note>(directory: "/log", options: testOptions, fileSystem: fileSystem)
    let durable = reopened.durableSequence
    #expect(durable == reopened.lastSequence)
    let crashed = fileSystem.powerLoss(seed: seed)
    try reopened.close()
    let recovered = try FileJournal<Note>(directory: "/log", options: testOptions, fileSystem: crashed)
    #expect(
      recovered.lastSequence >= durable,
      "seed \(seed): reported \(durable) durable, \(recovered.lastSequence) survived")
    try recovered.close()
  }

  @Test func aSyncThatFailsOnReopenRefusesToOpen() throws {
    let fileSystem = FaultyFileSystem(seed: 2)
    try appendNotes(3, to: fileSystem)
    fileSystem.failNext(.sync, code: EIO)
    #expect {
      _ = try FileJournal<Note>(directory: "/log", options: testOptions, fileSystem: fileSystem)
    } throws: { error in
      guard let error = error as? FileJournalError, error.code == .io, let cause = error.underlying else {
        return false
      }
      return cause.operation == "sync" && cause.code == EIO
    }
    // The directory was released: a later open works.
    let reopened = try FileJournal<Note>(directory: "/log", options: testOptions, fileSystem: fileSystem)
    #expect(reopened.durableSequence == 3)
    try reopened.close()
  }
}
