import Foundation
import Rewind
import RewindLog
import RewindTestSupport

/// The same action every time for a given sequence number, so recovered events can be checked.
func note(_ sequence: UInt64) -> Note {
  switch sequence % 7 {
  case 0: .remove(index: Int(sequence % 3))
  case 5: .clear
  default: .add("note \(sequence)")
  }
}

func event(_ sequence: UInt64) -> Event<Note> {
  Event(
    sequence: sequence, timestamp: Date(timeIntervalSince1970: 1_700_000_000 + Double(sequence)),
    metadata: EventMetadata(
      actor: sequence % 2 == 0 ? "alice" : nil,
      source: sequence % 3 == 0 ? .effect(cause: sequence - 1) : .user,
      correlationID: CorrelationID(rawValue: sequence)),
    action: note(sequence))
}

let testOptions = FileJournalOptions(durability: .grouped(), segmentSize: 4096)

/// Appends `count` more events of ``event(_:)`` to the journal in `/log` on `fileSystem` (created if
/// missing), `perFrame` at a time with a flush after each group, so each group is one frame; then closes it.
func appendNotes(
  _ count: UInt64, to fileSystem: FaultyFileSystem, perFrame: UInt64 = 1, segmentSize: Int = 4096,
  key: ChainKey? = nil
) throws {
  // Groups of several events wait out a commit window (100 ms, far longer than a group's appends), so each
  // frame holds the whole group: with no window the committer could commit a group's first event alone, as
  // it did every time under ThreadSanitizer, where appends are slow. `flush()` waits for the window.
  let window: Duration = perFrame > 1 ? .milliseconds(100) : .zero
  let journal = try FileJournal<Note>(
    directory: "/log",
    options: FileJournalOptions(
      durability: .grouped(window: window), segmentSize: segmentSize, chainKey: key),
    fileSystem: fileSystem)
  var sequence = journal.lastSequence
  let end = sequence + count
  while sequence < end {
    for _ in 0..<min(perFrame, end - sequence) {
      sequence += 1
      try journal.append(event(sequence))
    }
    try journal.flush()
  }
  try journal.close()
}
