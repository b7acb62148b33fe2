import Foundation
import Rewind
import RewindTestSupport
import Testing

@testable import RewindLog

/// A store that records fingerprints: which events carry one, that they survive the file journal, that
/// the hash chain covers them, and that marks change nothing.
@Suite(.timeLimit(.minutes(2))) struct FingerprintJournalTests {
  let build = BuildIdentity("notes 1.0 (1)")

  private func open(_ directory: TemporaryDirectory, every interval: UInt64?, snapshots: UInt64? = nil) throws
    -> Store<Notes.State, Note>
  {
    try Store.open(
      directory: directory.path, initialState: Notes.State(), reducer: Notes(),
      options: FileJournalOptions(durability: .none, snapshotInterval: snapshots),
      fingerprints: Fingerprinting(every: interval, build: build))
  }

  private func events(_ directory: TemporaryDirectory) throws -> [Event<Note>] {
    var events: [Event<Note>] = []
    try LogReader(directory: directory.path).forEachEvent(as: Note.self) { events.append($0) }
    return events
  }

  @Test func everyIntervalAMarkAndCloseCarryTheStatesFingerprint() throws {
    let directory = TemporaryDirectory()
    let store = try open(directory, every: 5)
    var states: [Notes.State] = [Notes.State()]
    for index in 1...12 {
      store.send(index % 4 == 0 ? .remove(index: 0) : .add("note \(index)"))
      states.append(store.state)
    }
    #expect(store.recordsFingerprints)
    store.mark("reported")
    states.append(store.state)
    store.send(.add("after the report"))
    states.append(store.state)
    try store.close()
    states.append(states[states.count - 1])

    let recorded = try events(directory)
    #expect(recorded.count == 15)
    #expect(recorded.filter { $0.fingerprint != nil }.map(\.sequence) == [5, 10, 13, 15])
    #expect(recorded[12].command == .mark(name: "reported"))
    #expect(recorded[14].command == .mark(name: "close"))
    #expect(recorded[14].metadata.source == .system)
    for event in recorded {
      guard let fingerprint = event.fingerprint else { continue }
      #expect(fingerprint.build == build)
      #expect(
        fingerprint.state == (try StateFingerprint.of(states[Int(event.sequence)])), "event \(event.sequence)"
      )
    }
    // Marks change nothing: reopening replays them to the same state.
    let reopened = try open(directory, every: 5)
    #expect(reopened.state == states.last)
    #expect(reopened.sequence == 15)
    // Nothing was sent since the last fingerprint: closing adds no mark.
    try reopened.close()
    #expect(try events(directory).count == 15)
  }

  @Test func theEventsDueASnapshotAreFingerprintedAndAnIdleCloseMarksNothing() throws {
    let directory = TemporaryDirectory()
    let store = try open(directory, every: nil, snapshots: 4)
    for index in 1...9 { store.send(.add("note \(index)")) }
    try store.close()
    let recorded = try events(directory)
    #expect(recorded.filter { $0.fingerprint != nil }.map(\.sequence) == [4, 8, 10])
    #expect(recorded.last?.command == .mark(name: "close"))
  }

  @Test func aStoreWithoutFingerprintsRecordsNone() throws {
    let directory = TemporaryDirectory()
    let store = try Store.open(
      directory: directory.path, initialState: Notes.State(), reducer: Notes(),
      options: FileJournalOptions(durability: .none, snapshotInterval: nil))
    #expect(!store.recordsFingerprints)
    for index in 1...6 { store.send(.add("note \(index)")) }
    store.mark("reported")
    try store.close()
    let recorded = try events(directory)
    #expect(recorded.count == 7)
    #expect(recorded.allSatisfy { $0.fingerprint == nil })
  }

  /// A fingerprint is part of its record, which the frame's checksum and the hash chain cover: a changed
  /// one is found. (Each event is its own frame here, so the changed one is not a torn tail.)
  @Test func aChangedFingerprintIsFoundByVerification() throws {
    let directory = TemporaryDirectory()
    let store = try Store.open(
      directory: directory.path, initialState: Notes.State(), reducer: Notes(),
      options: FileJournalOptions(durability: .immediate, snapshotInterval: nil),
      fingerprints: Fingerprinting(every: 3, build: build))
    for index in 1...6 { store.send(.add("note \(index)")) }
    try store.close()
    #expect(throws: Never.self) { try LogAudit.verify(directory: directory.path).requireIntact() }
    let fingerprint = try #require(try events(directory)[2].fingerprint)
    // Flip one bit of the recorded digest where it lies in the segment file.
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    var flipped = false
    for name in files {
      let path = directory.path + "/" + name
      guard var bytes = FileManager.default.contents(atPath: path).map(Array.init) else { continue }
      let needle = fingerprint.state.bytes
      guard
        let at = (0...(max(0, bytes.count - needle.count))).first(where: {
          bytes.count >= $0 + needle.count && Array(bytes[$0..<($0 + needle.count)]) == needle
        })
      else { continue }
      bytes[at + 7] ^= 0x01
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      flipped = true
    }
    #expect(flipped)
    #expect(throws: FileJournalError.self) { try LogAudit.verify(directory: directory.path).requireIntact() }
  }
}
