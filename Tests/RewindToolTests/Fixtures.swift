import Foundation
import Rewind
import RewindLog
import RewindTestSupport
import RewindTool

/// Text no page may execute or be broken by.
let hostileText = "</script><img src=x onerror=\"document.title='pwned'\">&amp; \u{2028}"

/// What the fixture log holds, so tests can check the tool's answers against it.
struct LogFixture {
  var events: [Event<Note>] = []
  /// The state after each event (index 0: the initial state).
  var states: [Notes.State] = [Notes.State()]
  var snapshotSequences: [UInt64] = []
}

/// The event at `sequence`: adds, renames, removals, a clear, undo and redo commands, varied actors and
/// sources, one hostile string; timestamps one second apart.
func fixtureEvent(_ sequence: UInt64) -> Event<Note> {
  let metadata = EventMetadata(
    actor: sequence % 2 == 0 ? "alice" : (sequence % 5 == 0 ? nil : "bob"),
    source: sequence % 3 == 0 ? .effect(cause: sequence - 1) : (sequence % 7 == 0 ? .system : .user),
    correlationID: CorrelationID(rawValue: sequence))
  let time = Date(timeIntervalSince1970: 1_700_000_000 + Double(sequence))
  if sequence % 11 == 0 {
    return Event(
      sequence: sequence, timestamp: time, metadata: metadata, payload: .command(.undo(to: sequence - 2)))
  }
  let action: Note =
    switch sequence % 9 {
    case 4: .remove(index: 0)
    case 6: .rename(index: 0, title: "renamed \(sequence)")
    case 8 where sequence == 8: .add(hostileText)
    case 8: .clear
    default: .add("note \(sequence)")
    }
  return Event(sequence: sequence, timestamp: time, metadata: metadata, action: action)
}

/// Writes `count` fixture events into `directory` (small segments, so there are several), with snapshots
/// at `snapshotEvery`.
@discardableResult
func writeFixtureLog(
  _ directory: String, count: UInt64 = 40, snapshotEvery: UInt64? = 15, key: ChainKey? = nil,
  codec: EventCodec = .binary
) throws -> LogFixture {
  var fixture = LogFixture()
  let journal = try FileJournal<Note>(
    directory: directory,
    options: FileJournalOptions(durability: .grouped(), segmentSize: 2048, codec: codec, chainKey: key))
  var state = Notes.State()
  for sequence in 1...max(count, 1) where count > 0 {
    let event = fixtureEvent(sequence)
    try journal.append(event)
    switch event.payload {
    case .action(let action): _ = Notes().reduce(into: &state, action: action)
    case .command(let command): state = fixture.states[Int(command.target ?? 0)]
    }
    fixture.events.append(event)
    fixture.states.append(state)
    // Several frames: a flush now and then ends the group commit.
    if sequence % 4 == 0 { try journal.flush() }
    if let every = snapshotEvery, sequence % every == 0 {
      try journal.writeSnapshot(state, at: sequence)
      fixture.snapshotSequences.append(sequence)
    }
  }
  try journal.close()
  return fixture
}

/// Runs a command of the standard tool in-process.
func runTool(_ arguments: [String], tool: RewindCommandLine = .standard) -> (
  status: Int32, output: String, errors: String
) {
  let output = CapturedOutput()
  let errors = CapturedOutput()
  let status = tool.run(arguments: arguments, output: output, errors: errors)
  return (status, output.text, errors.text)
}

/// Parses JSON text with Foundation.
func parseJSON(_ text: String) throws -> Any {
  try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}

/// The segment files of a log, in order.
func segmentFiles(_ directory: String) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
    .filter { $0.hasPrefix("segment-") && $0.hasSuffix(".log") }.sorted()
}
