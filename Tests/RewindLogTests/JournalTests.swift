import Foundation
import Rewind
import RewindTestSupport
import Testing

@testable import RewindLog

@Suite struct JournalTests {
  @Test(arguments: [EventCodec.binary, .json])
  func eventsSurviveReopening(codec: EventCodec) throws {
    let directory = TemporaryDirectory()
    let options = FileJournalOptions(durability: .grouped(), segmentSize: 4096, codec: codec)
    do {
      let journal = try FileJournal<Note>(directory: directory.path, options: options)
      for sequence in UInt64(1)...300 {
        try journal.append(event(sequence))
        if sequence % 10 == 0 { try journal.flush() }  // several frames, so segments roll
      }
      try journal.close()
    }
    let reopened = try FileJournal<Note>(directory: directory.path, options: options)
    #expect(reopened.lastSequence == 300)
    #expect(reopened.recoveryReport.tornTail == nil)
    #expect(reopened.recoveryReport.segmentCount > 1, "segments roll by size")
    #expect(try reopened.events(in: 1...300) == (1...300).map(event))
    #expect(try reopened.events(in: 120...130) == (120...130).map(event))
    var seen: [UInt64] = []
    try reopened.forEachEvent(from: 290) { seen.append($0.sequence) }
    #expect(seen == Array(290...300))
    let inspected = try reopened.inspect(from: 5, through: 5)
    #expect(inspected.first?.typeName == "clear")
    #expect(inspected.first?.schemaVersion == 1)
    #expect(inspected.first?.codec == codec)
  }

  @Test(arguments: [Durability.none, .grouped(), .grouped(window: .milliseconds(1)), .immediate])
  func everyDurabilityLevelAcknowledgesAndReadsBack(durability: Durability) async throws {
    let directory = TemporaryDirectory()
    let journal = try FileJournal<Note>(
      directory: directory.path, options: FileJournalOptions(durability: durability))
    for sequence in UInt64(1)...50 {
      try journal.append(event(sequence))
      if durability == .immediate { #expect(journal.durableSequence == sequence) }
    }
    try await journal.waitForDurability(through: 50)
    #expect(journal.durableSequence == 50)
    #expect(journal.durabilityStatus == .healthy(durableThrough: 50))
    #expect(try journal.events(in: 1...50).count == 50)
  }

  @Test func aSecondWriterFailsAtOnce() throws {
    let directory = TemporaryDirectory()
    let journal = try FileJournal<Note>(directory: directory.path)
    #expect {
      _ = try FileJournal<Note>(directory: directory.path)
    } throws: { error in
      (error as? FileJournalError) == .locked(directory: directory.path)
    }
    try journal.close()
    _ = try FileJournal<Note>(directory: directory.path)
  }

  @Test func refusesGapsAndAppendsAfterClose() throws {
    let directory = TemporaryDirectory()
    let journal = try FileJournal<Note>(directory: directory.path)
    try journal.append(event(1))
    #expect(throws: JournalError.sequenceGap(expected: 2, received: 3)) { try journal.append(event(3)) }
    try journal.close()
    #expect { try journal.append(event(2)) } throws: { error in
      (error as? FileJournalError)?.code == .closed
    }
  }

  @Test func aStoreRestoresItsStateAfterReopening() async throws {
    let directory = TemporaryDirectory()
    let before: Notes.State
    do {
      let store = try Store.open(directory: directory.path, initialState: Notes.State(), reducer: Notes())
      for sequence in UInt64(1)...200 { store.send(note(sequence)) }
      try await store.waitForDurability()
      before = store.state
      #expect(store.journalStatus.isFailed == false)
    }
    let store = try Store.open(directory: directory.path, initialState: Notes.State(), reducer: Notes())
    #expect(store.state == before)
    #expect(store.sequence == 200)
    store.send(.add("after"))
    #expect(store.sequence == 201)
  }

  @Test func undoAndRedoAreJournaledAndReplayed() async throws {
    let directory = TemporaryDirectory()
    let before: Notes.State
    do {
      let store = try Store.open(
        directory: directory.path, initialState: Notes.State(), reducer: Notes(), history: .undoEveryAction)
      for sequence in UInt64(1)...20 { store.send(note(sequence)) }
      store.undo()
      store.undo()
      store.redo()
      store.send(.add("after undo"))
      try await store.waitForDurability()
      before = store.state
      #expect(store.sequence == 24)
    }
    let store = try Store.open(
      directory: directory.path, initialState: Notes.State(), reducer: Notes(), history: .undoEveryAction)
    #expect(store.state == before)
    let journal = try #require(store.journal as? FileJournal<Note>)
    #expect(
      try journal.inspect(from: 21, through: 23).map(\.typeName) == [
        "rewind.undo", "rewind.undo", "rewind.redo",
      ])
  }

  @Test func aStoreReportsLostDurabilityAndKeepsWorkingInMemory() async throws {
    // Fail the 5th write or sync: the one after the first segment is created and one group committed.
    let fileSystem = FaultyFileSystem(seed: 1, failAt: 5, failCode: ENOSPC, sticky: true)
    let journal = try FileJournal<Note>(
      directory: "/log", options: FileJournalOptions(durability: .grouped()), fileSystem: fileSystem)
    let diagnostics = DiagnosticLog()
    let store = try Store(
      initialState: Notes.State(), reducer: Notes(), journal: journal, diagnostics: { diagnostics.add($0) })
    var acknowledged: UInt64 = 0
    for sequence in UInt64(1)...40 {
      store.send(note(sequence))
      do {
        try await store.waitForDurability()
        acknowledged = store.sequence
      } catch {}
    }
    #expect(store.state.removals == 5)
    #expect(store.sequence == 40, "the store keeps working in memory")
    #expect(journal.durabilityStatus.isLost)
    #expect(store.journalStatus.isFailed)
    #expect(acknowledged <= journal.durableSequence)
    await #expect(throws: (any Error).self) { try await journal.waitForDurability(through: 40) }
  }
}

final class DiagnosticLog: Sendable {
  private let entries = Locked<[Diagnostic]>([])
  func add(_ diagnostic: Diagnostic) { entries.withLock { $0.append(diagnostic) } }
  var all: [Diagnostic] { entries.withLock { $0 } }
}

/// Item 1 of "Failure paths": an event the journal refuses is never reported durable, nor any after it.
@Suite struct RefusedEventTests {
  /// An action holding a number, which the JSON codec cannot encode when it is NaN.
  enum Reading: Codable, Sendable, Equatable {
    case value(Double)
  }

  struct Readings: Reducer {
    func reduce(into state: inout [Double], action: Reading) -> Effect<Reading> {
      if case .value(let value) = action { state.append(value) }
      return .none
    }
  }

  @Test func anEventTooLargeIsNeverReportedDurableNorAnyLaterOne() async throws {
    let directory = TemporaryDirectory()
    let store = try Store.open(
      directory: directory.path, initialState: Notes.State(), reducer: Notes(), diagnostics: { _ in })
    let journal = try #require(store.journal as? FileJournal<Note>)
    for sequence in UInt64(1)...40 {
      // Event 20 encodes to more than a frame holds (16 MiB).
      store.send(sequence == 20 ? .add(String(repeating: "x", count: 17 << 20)) : note(sequence))
      if sequence == 19 { try await store.waitForDurability() }
    }
    #expect(store.sequence == 40, "the store goes on in memory")
    await #expect {
      try await store.waitForDurability()
    } throws: { error in
      guard let refused = error as? RefusedEventError, let reason = refused.reason as? FileJournalError,
        reason.code == .eventTooLarge, reason.location?.sequence == 20
      else { return false }
      return refused.sequence == 20
    }
    guard case .failed(let error) = store.journalStatus else {
      Issue.record("journalStatus is healthy after a refused event")
      return
    }
    #expect((error as? RefusedEventError)?.sequence == 20)
    // The journal holds 19 events and says so when asked for more.
    #expect(journal.lastSequence == 19)
    try await journal.waitForDurability(through: 19)
    await #expect {
      try await journal.waitForDurability(through: 40)
    } throws: { error in
      guard let error = error as? FileJournalError else { return false }
      return error.code == .eventTooLarge && error.location?.sequence == 20
    }
    try journal.close()
    let reopened = try Store.open(directory: directory.path, initialState: Notes.State(), reducer: Notes())
    #expect(reopened.sequence == 19)
  }

  @Test func anEventTheCodecCannotEncodeIsNeverReportedDurable() async throws {
    let directory = TemporaryDirectory()
    let store = try Store.open(
      directory: directory.path, initialState: [Double](), reducer: Readings(),
      options: FileJournalOptions(codec: .json), diagnostics: { _ in })
    store.send(.value(1))
    try await store.waitForDurability()
    store.send(.value(.nan))
    store.send(.value(3))
    await #expect {
      try await store.waitForDurability()
    } throws: { error in
      guard let refused = error as? RefusedEventError, let reason = refused.reason as? FileJournalError,
        reason.code == .unencodableEvent, reason.location?.sequence == 2
      else { return false }
      return refused.sequence == 2
    }
    #expect(store.journalStatus.isFailed)
    #expect(store.state.count == 3)
  }

  @Test func aJournalAskedForAnEventItNeverHadSaysSo() async throws {
    let journal = try FileJournal<Note>(
      directory: "/log", options: testOptions, fileSystem: FaultyFileSystem(seed: 1))
    try journal.append(event(1))
    await #expect(throws: FileJournalError.notAppended(sequence: 5, lastAppended: 1)) {
      try await journal.waitForDurability(through: 5)
    }
    // A read is not a promise: like the in-memory journal's, it returns the events held in the range.
    #expect(try journal.events(in: 1...5).count == 1)
    try journal.close()
  }
}
