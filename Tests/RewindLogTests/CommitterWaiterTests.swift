import Dispatch
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

/// Every kind of waiter after every kind of failure the committer can meet: each is served (a read of
/// what was written) or ends with the failure, never reports durable what a sync did not cover, and
/// never hangs. Waiters are tried both queued while the committer is inside the failing call and
/// arriving after the failure.
@Suite struct CommitterWaiterTests {
  /// A failure on the committer's path, and the file operation that fails.
  enum Failure: String, CaseIterable, Sendable {
    case write, sync, truncate, createSegment, syncDirectory

    var operation: FaultyFileSystem.Operation {
      switch self {
      case .write: .write
      case .sync: .sync
      case .truncate: .truncate
      case .createSegment: .open
      case .syncDirectory: .syncDirectory
      }
    }
    /// Whether the failure happens while rolling to a new segment.
    var rolls: Bool { self == .truncate || self == .createSegment || self == .syncDirectory }
    /// Whether the frames were written (only their sync failed).
    var written: Bool { self == .sync }
  }

  /// Every way to wait on the committer.
  enum Kind: String, CaseIterable, Sendable {
    case waitForDurability, flush, immediateAppend, close, anchor, snapshot, storeDurability
    case eventsInRange, forEachEvent, inspect, handedToOS, statusUpdates

    /// Waiters that wait for a sync: none may return normally once the sync failed.
    var waitsForDurability: Bool {
      switch self {
      case .eventsInRange, .forEachEvent, .inspect, .handedToOS, .statusUpdates: false
      default: true
      }
    }
  }

  enum Timing: String, CaseIterable, Sendable { case queuedBeforeFailure, afterFailure }

  /// What a waiter returned.
  enum Served: Sendable, Equatable {
    case done
    case events([Event<Note>])
    case sequences([UInt64])
    case statuses([DurabilityStatus])
  }

  static let last: UInt64 = 9

  @Test(arguments: Failure.allCases)
  func everyWaiterIsServedOrWokenWithTheFailure(_ failure: Failure) async throws {
    for kind in Kind.allCases {
      for timing in Timing.allCases { try await trial(failure, kind, timing) }
    }
  }

  func trial(_ failure: Failure, _ kind: Kind, _ timing: Timing) async throws {
    let label = "\(failure) / \(kind) / \(timing)"
    let fileSystem = FaultyFileSystem(seed: 11)
    let options = FileJournalOptions(
      durability: kind == .immediateAppend ? .immediate : .grouped(),
      segmentSize: failure.rolls ? 256 : 1 << 20)
    let journal = try FileJournal<Note>(directory: "/log", options: options, fileSystem: fileSystem)
    let store = try Store(
      initialState: Notes.State(), reducer: Notes(), journal: journal, diagnostics: { _ in })
    // One durable frame first, so that the next frame rolls to a new segment when the segments are small.
    store.send(note(1))
    try journal.flush()
    let reached = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let before = timing == .queuedBeforeFailure
    fileSystem.failNext(
      failure.operation, code: failure == .sync ? EIO : ENOSPC, pause: before ? (reached, release) : nil)
    let statuses = journal.durabilityStatusUpdates()
    let appendRest = { @Sendable in for sequence in 2...Self.last { store.send(note(sequence)) } }

    let completion = Completion()
    if kind == .immediateAppend {
      // The append is the waiter: it waits for its own sync.
      if !before {
        appendRest()
        try await Self.until(label) { journal.durabilityStatus.isLost }
      }
      Completion.onThread(completion) {
        try journal.append(event(journal.lastSequence + 1))
        return .done
      }
    } else {
      appendRest()
      if !before { try await Self.until(label) { journal.durabilityStatus.isLost } }
      if before { try await Self.until(label) { reached.wait(timeout: .now()) == .success } }
      start(kind, journal: journal, store: store, statuses: statuses, completion: completion)
    }
    if before {
      if kind == .immediateAppend {
        try await Self.until(label) { reached.wait(timeout: .now()) == .success }
      }
      if kind != .statusUpdates {
        try await Self.until(label) { journal.committer.read(\.queuedWaiterCount) > 0 }
      }
      release.signal()
    }
    guard let result = try await completion.result(within: 10) else {
      Issue.record("\(label): the waiter did not return within 10 s")
      return
    }
    #expect(journal.durabilityStatus.isLost, "\(label)")
    let durable = journal.durableSequence
    #expect(durable == 1, "\(label): nothing after event 1 had a successful sync")
    // Frames are dropped after a failure: only those committed before it were written.
    let written = journal.committer.read(\.written)
    let appended = journal.lastSequence
    // A read serves what the journal holds (appends stop at the failure), once all of it is written.
    let held = min(Self.last, appended)
    let reads = (1...held).map { EventPayload<Note>.action(note($0)) }
    switch result {
    case .success(let served):
      switch served {
      case .statuses(let seen):
        #expect(seen.first == .healthy(durableThrough: 1), "\(label)")
        #expect(seen.last?.isLost == true, "\(label): the stream ends after telling of the failure")
      case .events(let events):
        #expect(!kind.waitsForDurability && written >= held, "\(label): served \(events.count) events")
        #expect(events.map(\.payload) == reads, "\(label)")
        #expect(events.map(\.sequence) == Array(1...held), "\(label)")
      case .sequences(let sequences):
        #expect(!kind.waitsForDurability && written >= held, "\(label)")
        #expect(sequences == Array(1...held), "\(label)")
      case .done:
        #expect(!kind.waitsForDurability, "\(label): a wait for durability returned after the sync failed")
        #expect(written >= appended, "\(label): handed to the OS although the write failed")
      }
    case .failure(let error):
      #expect(kind != .statusUpdates, "\(label)")
      // What was written is served; a read fails only when its events never reached the file.
      #expect(
        kind.waitsForDurability || written < held, "\(label): what was written should be served: \(error)")
      let expected: Bool
      switch error {
      case let lost as FileJournalError where lost.code == .durabilityLost:
        expected = lost.underlying?.code == (failure == .sync ? EIO : ENOSPC)
      case let missing as FileJournalError where missing.code == .notAppended:
        expected =
          missing == .notAppended(sequence: missing.location?.sequence ?? 0, lastAppended: appended)
          && (missing.location?.sequence ?? 0) > appended
      case let refused as RefusedEventError:
        if (refused.reason as? FileJournalError)?.code == .durabilityLost {
          expected = true
        } else {
          expected = false
        }
      default: expected = false
      }
      #expect(expected, "\(label): expected the injected failure, got \(error)")
    }
    try? journal.close()
  }

  /// Starts waiter `kind` (other than an immediate append).
  func start(
    _ kind: Kind, journal: FileJournal<Note>, store: Store<Notes.State, Note>,
    statuses: AsyncStream<DurabilityStatus>, completion: Completion
  ) {
    let last = Self.last
    switch kind {
    case .waitForDurability:
      Completion.inTask(completion) {
        try await journal.waitForDurability(through: last)
        return .done
      }
    case .storeDurability:
      Completion.inTask(completion) {
        try await store.waitForDurability()
        return .done
      }
    case .statusUpdates:
      Completion.inTask(completion) {
        var seen: [DurabilityStatus] = []
        for await status in statuses { seen.append(status) }
        return .statuses(seen)
      }
    case .flush:
      Completion.onThread(completion) {
        try journal.flush(); return .done
      }
    case .close:
      Completion.onThread(completion) {
        try journal.close(); return .done
      }
    case .anchor:
      Completion.onThread(completion) {
        _ = try journal.anchor(); return .done
      }
    case .snapshot:
      Completion.onThread(completion) {
        try journal.writeSnapshot(Notes.State(), at: last)
        return .done
      }
    case .handedToOS:
      Completion.onThread(completion) {
        try journal.waitUntilHandedToOS(); return .done
      }
    case .eventsInRange: Completion.onThread(completion) { .events(try journal.events(in: 1...last)) }
    case .forEachEvent:
      Completion.onThread(completion) {
        var events: [Event<Note>] = []
        try journal.forEachEvent(from: 1) { events.append($0) }
        return .events(events)
      }
    case .inspect: Completion.onThread(completion) { .sequences(try journal.inspect().map(\.sequence)) }
    case .immediateAppend: break
    }
  }

  /// Polls `condition` every millisecond for up to 10 s.
  static func until(_ label: String, _ condition: @Sendable () -> Bool) async throws {
    for _ in 0..<10_000 {
      if condition() { return }
      try await Task.sleep(for: .milliseconds(1))  // waits for `condition`
    }
    Issue.record("\(label): timed out waiting for the test's own setup")
    throw CancellationError()
  }

  @Test func aFailedSnapshotRenameIsAnErrorAndTheJournalGoesOn() throws {
    let fileSystem = FaultyFileSystem(seed: 5)
    let journal = try FileJournal<Note>(directory: "/log", options: testOptions, fileSystem: fileSystem)
    for sequence in UInt64(1)...3 { try journal.append(event(sequence)) }
    fileSystem.failNext(.rename, code: EIO)
    #expect { try journal.writeSnapshot(Notes.State(), at: 3) } throws: { error in
      (error as? FileJournalError)?.underlying?.operation == "rename"
    }
    // A snapshot is not the log: durability is kept, every waiter is served.
    try journal.append(event(4))
    try journal.flush()
    #expect(!journal.durabilityStatus.isLost)
    #expect(try journal.events(in: 1...4) == (1...4).map(event))
    try journal.close()
  }
}

/// The end of a waiter started on its own thread or task, polled without blocking the test's thread.
final class Completion: Sendable {
  private let outcome = Locked<Result<CommitterWaiterTests.Served, any Error>?>(nil)

  func finish(_ result: Result<CommitterWaiterTests.Served, any Error>) { outcome.withLock { $0 = result } }

  /// Runs a blocking `body` on a thread of its own, so that a hang cannot starve the task pool.
  static func onThread(
    _ completion: Completion, _ body: @escaping @Sendable () throws -> CommitterWaiterTests.Served
  ) {
    Thread { completion.finish(Result(catching: body)) }.start()
  }

  /// Runs an async `body` in a task.
  static func inTask(
    _ completion: Completion, _ body: @escaping @Sendable () async throws -> CommitterWaiterTests.Served
  ) {
    Task.detached {
      do { completion.finish(.success(try await body())) } catch { completion.finish(.failure(error)) }
    }
  }

  /// The result, once there, polled for up to `seconds`; `nil` if the waiter is still waiting.
  func result(within seconds: Int) async throws -> Result<CommitterWaiterTests.Served, any Error>? {
    for _ in 0..<(seconds * 1000) {
      if let result = outcome.withLock({ $0 }) { return result }
      try await Task.sleep(for: .milliseconds(1))  // waits for the waiter's result
    }
    return nil
  }
}
