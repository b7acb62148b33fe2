import Foundation
import Rewind
import RewindLog
import RewindTestSupport

/// Stamps events one second apart from a fixed date: the same log on every run.
final class SteppingClock: EventClock, @unchecked Sendable {
  private let lock = NSLock()
  private var next = Date(timeIntervalSince1970: 1_700_000_000)

  func timestamp() -> Date {
    lock.withLock {
      defer { next += 1 }
      return next
    }
  }
}

/// The session the committed generated test (`Generated/ReplayedNotesSession.swift`) was made from: a
/// notes store with every action an undo step, on a file journal: adds, a rename, undo and redo, a
/// transaction of two removals, and more.
func writeNotesSession(_ directory: String) throws {
  let journal = try FileJournal<Note>(
    directory: directory, options: FileJournalOptions(durability: .grouped()))
  let store = try Store(
    initialState: Notes.State(), reducer: Notes(), journal: journal, clock: SteppingClock(), actor: "alice",
    history: .undoEveryAction)
  for index in 1...6 { store.send(.add("note \(index)")) }
  store.send(.rename(index: 1, title: "renamed \"twice\""), from: .user(actor: "bob"))
  store.undo()
  store.undo()
  store.redo()
  store.beginTransaction("tidy")
  store.send(.remove(index: 0))
  store.send(.remove(index: 0))
  store.endTransaction()
  store.send(.add("after the tidy"), from: .system)
  store.undo()
  store.send(.clear)
  store.send(.add("fresh"))
  try journal.flush()
  try journal.close()
}

/// The range of the session the committed test replays, and how it was generated.
enum NotesSessionTest {
  static let range: ClosedRange<UInt64> = 3...18
  static let name = "ReplayedNotesSession"
  static let label = "the notes session of ReplayFixtures.swift"
  /// Where the committed test lives.
  static var committedPath: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Generated")
      .appendingPathComponent("\(name).swift").path
  }
}
