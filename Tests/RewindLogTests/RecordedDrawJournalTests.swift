import Foundation
import Rewind
import RewindTestSupport
import RewindTesting
import Synchronization
import Testing

@testable import RewindLog

/// A clock that moves a second per reading.
private final class SteppingClock: EventClock {
  private let seconds = Atomic<Int>(0)
  func timestamp() -> Date {
    Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(seconds.add(1, ordering: .relaxed).oldValue))
  }
}

/// UUIDs counting up from `start`: a live source that is different at every reopen.
private func counting(from start: UInt64) -> UUIDGenerator {
  let next = Atomic<UInt64>(start)
  return UUIDGenerator {
    let b = withUnsafeBytes(of: next.add(1, ordering: .relaxed).oldValue.bigEndian) { Array($0) }
    return UUID(uuid: (7, 7, 7, 7, 7, 7, 7, 7, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]))
  }
}

private let history = HistoryConfiguration<Todos.Action>(checkpointInterval: 8, undoPolicy: { _ in .step })

@Suite(.timeLimit(.minutes(2))) struct RecordedDrawJournalTests {
  /// Sends `count` random actions (adds, toggles, touches, removes, undos, redos), returning the state after
  /// each event by sequence number.
  private func run(
    _ store: Store<Todos.State, Todos.Action>, count: Int, random: inout SplitMix64,
    into states: inout [Todos.State]
  ) {
    for step in 0..<count {
      let id = store.state.id(at: Int(random.next() % UInt64(max(1, store.state.todos.count))))
      switch random.next() % 8 {
      case 0, 1, 2: store.send(.add("todo \(step)"))
      case 3: store.send(.toggle(id))
      case 4: store.send(.touch(id))
      case 5: store.send(.remove(id))
      case 6: store.undo()
      default: store.redo()
      }
      while states.count <= store.sequence { states.append(store.state) }
    }
  }

  private func open(
    _ directory: TemporaryDirectory, reducer: Todos = Todos(),
    diagnostics: DiagnosticRecorder = DiagnosticRecorder(),
    dependencies: @escaping (inout DependencyValues) -> Void = { _ in }
  ) throws -> Store<Todos.State, Todos.Action> {
    try Store.open(
      directory: directory.path, initialState: Todos.State(), reducer: reducer,
      options: FileJournalOptions(durability: .none, snapshotInterval: nil), clock: SteppingClock(),
      history: history, diagnostics: diagnostics.record, dependencies: dependencies)
  }

  private func close(_ store: Store<Todos.State, Todos.Action>) throws {
    try store.close()
  }

  @Test(arguments: [(1, false), (2, true), (3, true)] as [(UInt64, Bool)])
  func aReopenedLogReplaysTheDrawnValues(seed: UInt64, withSnapshot: Bool) throws {
    let directory = TemporaryDirectory()
    var random = SplitMix64(seed: seed)
    var states = [Todos.State()]
    // Recorded with live sources: random UUIDs, the system's random numbers, a clock that moves.
    let store = try open(directory)
    run(store, count: 30, random: &random, into: &states)
    if withSnapshot, let journal = store.journal as? FileJournal<Todos.Action> {
      try store.writeSnapshot(to: journal)
    }
    run(store, count: 30, random: &random, into: &states)
    let final = store.state
    let undoable = store.canUndo
    try close(store)

    // Reopened with other live sources, twice: they cannot change what was recorded.
    for start in [1_000, 2_000] as [UInt64] {
      let diagnostics = DiagnosticRecorder()
      let reopened = try open(directory, diagnostics: diagnostics) {
        $0.uuid = counting(from: start)
        $0.random = .seeded(start)
        $0.date = .constant(Date(timeIntervalSince1970: 0))
      }
      let journal = try #require(reopened.journal as? FileJournal<Todos.Action>)
      #expect((journal.snapshotRecovery?.usedSequence != nil) == withSnapshot, "seed \(seed)")
      #expect(reopened.state == final, "seed \(seed)")
      for sequence in 0..<states.count {
        #expect(try reopened.state(at: UInt64(sequence)) == states[sequence], "seed \(seed), at \(sequence)")
      }
      if undoable {
        let before = try reopened.state(at: reopened.sequence - 0)
        reopened.undo()
        reopened.redo()
        #expect(reopened.state == before, "seed \(seed): undo and redo after a reopen")
      }
      #expect(diagnostics.all.isEmpty, "seed \(seed): \(diagnostics.all)")
      try close(reopened)
    }
  }

  @Test func aBuildThatDrawsMoreIsToldAtOpenNamingTheEvent() throws {
    let directory = TemporaryDirectory()
    let store = try open(directory)
    store.send(.add("a"))
    store.send(.add("b"))
    try close(store)
    let diagnostics = DiagnosticRecorder()
    let reopened = try open(directory, reducer: Todos(uuidsPerAdd: 2), diagnostics: diagnostics)
    let lacking = diagnostics.all.compactMap(\.unrecordedDraw)
    #expect(lacking.map(\.sequence) == [1, 2])
    #expect(diagnostics.all.first?.message.contains("replaying event 1") == true)
    try close(reopened)
  }

  @Test func drawsSurviveAnUpcastOfTheirEvent() throws {
    let directory = TemporaryDirectory()
    let uuid = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
    let draws: [RecordedDraw] = [.uuid(uuid), .date(Date(timeIntervalSinceReferenceDate: 9)), .random(5)]
    let old = try FileJournal<OldItem>(
      directory: directory.path, options: FileJournalOptions(durability: .none))
    let metadata = EventMetadata(actor: nil, source: .user, correlationID: CorrelationID(rawValue: 1))
    try old.append(
      Event(
        sequence: 1, timestamp: Date(timeIntervalSinceReferenceDate: 3), metadata: metadata,
        action: .add(title: "a"), draws: draws))
    try old.close()

    var upcasters = EventUpcasters()
    upcasters.register("add", from: 1) { value in
      guard case .keyed(let fields) = value, let title = fields.first?.value["title"] else { return value }
      return .keyed([.init(key: "add", value: .keyed([.init(key: "name", value: title)]))])
    }
    let journal = try FileJournal<NewItem>(
      directory: directory.path, options: FileJournalOptions(durability: .none), upcasters: upcasters)
    let event = try #require(try journal.events(in: 1...1).first)
    #expect(event.action == .add(name: "a"))
    #expect(event.draws == draws)
    try journal.close()
  }

  @Test(arguments: [ExportFormat.jsonLines, .cloudEventsLines])
  func exportsAndTheToolShowTheDraws(format: ExportFormat) throws {
    let directory = TemporaryDirectory()
    let store = try open(directory, dependencies: { $0.uuid = .incrementing })
    store.send(.add("a"))
    store.send(.toggle(store.state.id(at: 0)))
    try close(store)
    var bytes: [UInt8] = []
    _ = try LogAudit.export(
      directory: directory.path, options: ExportOptions(format: format), progress: nil,
      fileSystem: POSIXFileSystem()
    ) { bytes += $0 }
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    #expect(lines.count == 2)
    switch format {
    case .jsonLines:
      #expect(lines[0].contains(#""draws":[{"uuid":"00000000-0000-0000-0000-000000000000"}"#))
    default:
      // A CloudEvents extension attribute is a string: the draws as JSON text.
      #expect(lines[0].contains(#""draws":"[{\"uuid\":\"00000000-0000-0000-0000-000000000000\"}"#))
    }
    #expect(!lines[1].contains("draws"), "the toggle drew nothing")
  }
}

/// An item action at schema version 1, and the same at version 2 with a renamed field.
private enum OldItem: Codable, Sendable, Equatable {
  case add(title: String)
}

private enum NewItem: Codable, Sendable, Equatable, VersionedAction {
  case add(name: String)
  static let schemaVersion: UInt64 = 2
}

/// Collects diagnostics from any thread.
private final class DiagnosticRecorder: Sendable {
  private let items = Locked<[Diagnostic]>([])
  var all: [Diagnostic] { items.withLock { $0 } }
  @Sendable func record(_ diagnostic: Diagnostic) { items.withLock { $0.append(diagnostic) } }
}
