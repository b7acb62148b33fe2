import Foundation
import Rewind
import RewindTestSupport
import Testing

@testable import RewindLog

@Suite struct SnapshotTests {
  func fill(_ directory: String, count: UInt64, snapshotsAt: [UInt64]) throws -> Notes.State {
    let store = try Store.open(
      directory: directory, initialState: Notes.State(), reducer: Notes(), options: testOptions)
    let journal = try #require(store.journal as? FileJournal<Note>)
    for sequence in UInt64(1)...count {
      store.send(note(sequence))
      if snapshotsAt.contains(sequence) { try store.writeSnapshot(to: journal) }
    }
    try journal.close()
    return store.state
  }

  func reopen(_ directory: String) throws -> (Store<Notes.State, Note>, FileJournal<Note>) {
    let store = try Store.open(
      directory: directory, initialState: Notes.State(), reducer: Notes(), options: testOptions)
    return (store, try #require(store.journal as? FileJournal<Note>))
  }

  @Test func opensFromTheNewestSnapshotAndReplaysTheRest() throws {
    let directory = TemporaryDirectory()
    let before = try fill(directory.path, count: 100, snapshotsAt: [40, 70])
    let (store, journal) = try reopen(directory.path)
    #expect(store.state == before)
    #expect(store.sequence == 100)
    #expect(journal.snapshotRecovery == SnapshotRecovery(usedSequence: 70, rejected: []))
  }

  @Test func aDamagedSnapshotFallsBackToAnOlderOneThenToAFullReplay() throws {
    let directory = TemporaryDirectory()
    let before = try fill(directory.path, count: 100, snapshotsAt: [40, 70])
    let newest = directory.path + "/" + SnapshotFile.fileName(sequence: 70)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: newest))
    bytes[bytes.count / 2] ^= 0xFF
    try bytes.write(to: URL(fileURLWithPath: newest))
    do {
      let (store, journal) = try reopen(directory.path)
      #expect(store.state == before)
      #expect(journal.snapshotRecovery?.usedSequence == 40)
      #expect(journal.snapshotRecovery?.rejected.first?.file == SnapshotFile.fileName(sequence: 70))
    }
    try FileManager.default.removeItem(atPath: directory.path + "/" + SnapshotFile.fileName(sequence: 40))
    let (store, journal) = try reopen(directory.path)
    #expect(store.state == before)
    #expect(journal.snapshotRecovery?.usedSequence == nil)
  }

  @Test func aSnapshotOfAnotherHistoryIsNotUsed() throws {
    let directory = TemporaryDirectory()
    let other = TemporaryDirectory()
    _ = try fill(other.path, count: 50, snapshotsAt: [50])
    let before = try fill(directory.path, count: 60, snapshotsAt: [])
    try FileManager.default.copyItem(
      atPath: other.path + "/" + SnapshotFile.fileName(sequence: 50),
      toPath: directory.path + "/" + SnapshotFile.fileName(sequence: 50))
    let (store, journal) = try reopen(directory.path)
    #expect(store.state == before)
    #expect(journal.snapshotRecovery?.usedSequence == nil)
    guard case .mismatch = journal.snapshotRecovery?.rejected.first?.reason else {
      Issue.record("expected a mismatch, got \(String(describing: journal.snapshotRecovery))")
      return
    }
    // The foreign snapshot did not place the scan either (its frame position could land on a frame of
    // this log: then the index ended before the log, which the committer's invariants caught, about one
    // run in five): every event reads back.
    #expect(try journal.events(in: 1...60).map(\.sequence) == Array(1...60))
  }

  @Test func snapshotsAreWrittenEveryNEvents() async throws {
    let directory = TemporaryDirectory()
    let options = FileJournalOptions(durability: .grouped(), segmentSize: 4096, snapshotInterval: 25)
    let before: Notes.State
    do {
      let store = try Store.open(
        directory: directory.path, initialState: Notes.State(), reducer: Notes(), options: options)
      for sequence in UInt64(1)...110 { store.send(note(sequence)) }
      try await store.waitForDurability()
      before = store.state
      // Snapshots are written off the sending thread; wait for the last one due (bounded, generously).
      // A snapshot records the state when it is written, which may be past the event that made it due.
      for _ in 0..<3000 {
        if let newest = snapshotSequences(directory.path).last, newest >= 100 { break }
        try await Task.sleep(for: .milliseconds(10))  // waits for the snapshot file
      }
      try (store.journal as? FileJournal<Note>)?.close()
    }
    #expect((1...2).contains(snapshotSequences(directory.path).count), "at most `keptSnapshots` files")
    let (store, journal) = try reopen(directory.path)
    #expect(store.state == before)
    #expect((journal.snapshotRecovery?.usedSequence ?? 0) >= 100)
  }

  func snapshotSequences(_ directory: String) -> [UInt64] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
      .compactMap(SnapshotFile.sequence(fromFileName:)).sorted()
  }

  @Test func onlyTheNewestKeptSnapshotsStay() throws {
    let directory = TemporaryDirectory()
    let options = FileJournalOptions(durability: .grouped(), segmentSize: 4096, keptSnapshots: 2)
    let store = try Store.open(
      directory: directory.path, initialState: Notes.State(), reducer: Notes(), options: options)
    let journal = try #require(store.journal as? FileJournal<Note>)
    for sequence in UInt64(1)...50 {
      store.send(note(sequence))
      if sequence % 10 == 0 { try store.writeSnapshot(to: journal) }
    }
    #expect(snapshotSequences(directory.path) == [10, 20, 30, 40, 50])
    try journal.removeOldSnapshots()
    #expect(snapshotSequences(directory.path) == [40, 50])
    try journal.removeSnapshots(after: 45)
    #expect(snapshotSequences(directory.path) == [40])
    try journal.close()
  }
}
