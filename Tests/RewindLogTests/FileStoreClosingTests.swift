import Foundation
import Rewind
import RewindTestSupport
import Testing

@testable import RewindLog

/// `Store.close()` on a file journal: flushed, released, and no snapshot after it.
@Suite struct FileStoreClosingTests {
  @Test func closeMakesEverythingDurableAndReleasesTheDirectory() throws {
    let directory = TemporaryDirectory()
    let diagnostics = DiagnosticLog()
    // `.none` syncs nothing on its own: what the reopen finds was flushed by the close.
    let store = try Store.open(
      directory: directory.path, initialState: Notes.State(), reducer: Notes(),
      options: FileJournalOptions(durability: .none, snapshotInterval: nil),
      diagnostics: { diagnostics.add($0) })
    #expect(store.fileJournal != nil)
    for index in 0..<50 { store.send(.add("note \(index)")) }
    try store.close()
    store.send(.clear)
    #expect(diagnostics.all.map(\.kind) == [.storeClosed])
    #expect(throws: FileJournalError.self) { try store.fileJournal?.append(noteEvent(51)) }

    let reopened = try Store.open(directory: directory.path, initialState: Notes.State(), reducer: Notes())
    #expect(reopened.sequence == 50)
    #expect(reopened.state == store.state)
    try reopened.close()
  }

  @Test func aStoreDroppedWithoutClosingWritesNoSnapshotIntoARemovedDirectory() throws {
    let directory = TemporaryDirectory()
    let diagnostics = DiagnosticLog()
    let snapshots: PeriodicSnapshots
    do {
      let store = try Store.open(
        directory: directory.path, initialState: Notes.State(), reducer: Notes(),
        options: FileJournalOptions(durability: .grouped(), snapshotInterval: 10),
        diagnostics: { diagnostics.add($0) })
      snapshots = try #require(store.fileJournal).periodicSnapshots
      // Held, so that the snapshot due at event 10 is still waiting when the store goes.
      snapshots.queue.suspend()
      for index in 0..<10 { store.send(.add("note \(index)")) }
      try #require(store.fileJournal).flush()
    }
    try FileManager.default.removeItem(atPath: directory.path)
    snapshots.queue.resume()
    snapshots.waitUntilIdle()
    #expect(!FileManager.default.fileExists(atPath: directory.path))
    #expect(diagnostics.all.isEmpty, "\(diagnostics.all)")
  }

  @Test func closeSkipsASnapshotThatWasDueButNotStarted() async throws {
    let directory = TemporaryDirectory()
    let diagnostics = DiagnosticLog()
    let store = try Store.open(
      directory: directory.path, initialState: Notes.State(), reducer: Notes(),
      options: FileJournalOptions(durability: .grouped(), snapshotInterval: 10),
      diagnostics: { diagnostics.add($0) })
    let snapshots = try #require(store.fileJournal).periodicSnapshots
    snapshots.queue.suspend()
    for index in 0..<10 { store.send(.add("note \(index)")) }
    // The close waits for the snapshot queue, so it runs beside the test, which resumes the queue once the
    // close has stopped the snapshots.
    let closing = Task.detached { try store.close() }
    while !snapshots.isStopped { await Task.yield() }
    snapshots.queue.resume()
    try await closing.value
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(!files.contains { $0.hasPrefix("snapshot-") }, "\(files)")
    #expect(diagnostics.all.isEmpty, "\(diagnostics.all)")
    let reopened = try Store.open(directory: directory.path, initialState: Notes.State(), reducer: Notes())
    #expect(reopened.sequence == 10)
    try reopened.close()
  }
}

private func noteEvent(_ sequence: UInt64) -> Event<Note> {
  Event(
    sequence: sequence, timestamp: Date(timeIntervalSince1970: 0),
    metadata: EventMetadata(actor: nil, source: .user, correlationID: CorrelationID(rawValue: sequence)),
    action: .add("late"))
}
