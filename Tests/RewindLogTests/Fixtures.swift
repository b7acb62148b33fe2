import Foundation
import Rewind
import RewindLog

/// The actions the tests journal: an enum with and without payloads.
enum Note: Codable, Sendable, Equatable {
  case add(String)
  case remove(index: Int)
  case clear
}

/// A reducer over ``Note``.
struct Notes: Reducer {
  struct State: Codable, Sendable, Equatable {
    var items: [String] = []
    var removals = 0
  }

  func reduce(into state: inout State, action: Note) -> Effect<Note> {
    switch action {
    case .add(let text): state.items.append(text)
    case .remove(let index):
      if state.items.indices.contains(index) { state.items.remove(at: index) }
      state.removals += 1
    case .clear: state.items = []
    }
    return .none
  }
}

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
      actor: sequence % 2 == 0 ? "alice" : nil, source: sequence % 3 == 0 ? .effect(cause: sequence - 1) : .user,
      correlationID: CorrelationID(rawValue: sequence)),
    action: note(sequence))
}

/// A fresh directory under the system's temporary directory, removed by `cleanup`.
struct TemporaryDirectory: ~Copyable {
  let path: String

  init(_ label: String = #function) {
    let name = "rewindlog-\(label.filter { $0.isLetter || $0.isNumber })-\(UInt64.random(in: 0...UInt64.max))"
    path = NSTemporaryDirectory() + (NSTemporaryDirectory().hasSuffix("/") ? "" : "/") + name
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

let testOptions = FileJournalOptions(durability: .grouped(), segmentSize: 4096)

/// Appends `count` more events of ``event(_:)`` to the journal in `/log` on `fileSystem` (created if
/// missing), `perFrame` at a time with a flush after each group, so each group is one frame; then closes it.
func appendNotes(
  _ count: UInt64, to fileSystem: FaultyFileSystem, perFrame: UInt64 = 1, segmentSize: Int = 4096,
  key: ChainKey? = nil
) throws {
  let journal = try FileJournal<Note>(
    directory: "/log", options: FileJournalOptions(durability: .grouped(), segmentSize: segmentSize, chainKey: key),
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
