import Foundation
import Rewind
import RewindTestSupport
import RewindTesting
import Synchronization
import Testing

/// UUIDs counting up from `start` in their last 8 bytes: a "live" source whose values differ between runs.
private func counting(from start: UInt64) -> UUIDGenerator {
  let next = Atomic<UInt64>(start)
  return UUIDGenerator {
    let value = next.add(1, ordering: .relaxed).oldValue
    let b = withUnsafeBytes(of: value.bigEndian) { Array($0) }
    return UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]))
  }
}

/// A clock that moves a second per reading, so that every event has its own timestamp.
private final class SteppingClock: EventClock {
  private let seconds = Atomic<Int>(0)
  func timestamp() -> Date {
    Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(seconds.add(1, ordering: .relaxed).oldValue))
  }
}

/// Sends a mixed script of `count` actions: adds, and toggles, touches and removes of earlier to-dos.
private func runScript(_ store: Store<Todos.State, Todos.Action>, count: Int, seed: UInt64) -> [Todos.State] {
  var generator = SplitMix64(seed: seed)
  var states = [store.state]
  for step in 0..<count {
    let index = Int(generator.next() % UInt64(max(1, store.state.todos.count)))
    let id = store.state.id(at: index)
    switch generator.next() % 5 {
    case 0, 1: store.send(.add("todo \(step)"))
    case 2: store.send(.toggle(id))
    case 3: store.send(.touch(id))
    default: store.send(.remove(id))
    }
    states.append(store.state)
  }
  return states
}

@Suite struct RecordedDrawTests {
  @Test func aSendRecordsWhatTheReducerDrewAndAnEventThatDrawsNothingRecordsNothing() throws {
    let clock = FixedClock()
    let store = Store(
      initialState: Todos.State(), reducer: Todos(), clock: clock,
      dependencies: {
        $0.uuid = .incrementing
        $0.random = .constant(7)
      })
    store.send(.add("Milk"))
    let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    let added = try #require(try store.events(in: 1...1).first)
    #expect(added.draws == [.uuid(zero), .random(7), .date(clock.date)])
    #expect(store.state.todos.first?.id == zero)
    #expect(store.state.todos.first?.created == clock.date, "a reducer's date is the event's timestamp")
    #expect(store.state.todos.first?.priority == 1)

    store.send(.toggle(zero))
    let toggled = try #require(try store.events(in: 2...2).first)
    #expect(toggled.draws.isEmpty)
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func timeTravelAndAReopenDrawTheRecordedValues(seed: UInt64) throws {
    // Live sources: random UUIDs, the system's random numbers, a clock that moves.
    let history = HistoryConfiguration<Todos.Action>(checkpointInterval: 4)
    let store = Store(initialState: Todos.State(), reducer: Todos(), clock: SteppingClock(), history: history)
    let states = runScript(store, count: 40, seed: seed)
    for sequence in 0...40 {
      #expect(try store.state(at: UInt64(sequence)) == states[sequence], "seed \(seed), state at \(sequence)")
    }
    // Reopened with other live sources, which must not change anything recorded.
    let events = try store.events(in: 1...40)
    let reopened = try Store(
      initialState: Todos.State(), reducer: Todos(), journal: try InMemoryJournal(events: events),
      clock: SteppingClock(), history: history,
      dependencies: {
        $0.uuid = counting(from: 1_000)
        $0.random = .seeded(seed &+ 77)
        $0.date = DateGenerator { Date(timeIntervalSince1970: 0) }
      })
    #expect(reopened.state == states[40], "seed \(seed)")
    for sequence in stride(from: 0, through: 40, by: 7) {
      #expect(try reopened.state(at: UInt64(sequence)) == states[sequence], "seed \(seed), at \(sequence)")
    }
  }

  @Test func undoRedoAndRestoreKeepTheDrawnValues() throws {
    let history = HistoryConfiguration<Todos.Action>(checkpointInterval: 2, undoPolicy: { _ in .step })
    let diagnostics = DiagnosticLog()
    let store = Store(
      initialState: Todos.State(), reducer: Todos(), clock: SteppingClock(), history: history,
      diagnostics: diagnostics.record)
    store.send(.add("a"))
    store.send(.add("b"))
    let afterTwo = store.state
    store.send(.add("c"))
    let afterThree = store.state
    store.undo()
    #expect(store.state == afterTwo)
    store.redo()
    #expect(store.state == afterThree)
    try store.restore(to: 1)
    let restored = store.state
    #expect(restored.todos.map(\.title) == ["a"])
    store.undo()
    #expect(store.state == afterThree)
    store.send(.touch(store.state.id(at: 0)))
    let final = store.state

    let events = try store.events(in: 1...store.sequence)
    let reopened = try Store(
      initialState: Todos.State(), reducer: Todos(), journal: try InMemoryJournal(events: events),
      clock: SteppingClock(), history: history, diagnostics: diagnostics.record,
      dependencies: {
        $0.uuid = counting(from: 50)
        $0.random = .seeded(5)
      })
    #expect(reopened.state == final)
    #expect(try reopened.state(at: 2) == afterTwo)
    #expect(try reopened.state(at: 3) == afterThree)
    reopened.undo()
    #expect(reopened.state == afterThree, "the reopened store keeps the undo history of the drawn values")
    #expect(diagnostics.all.isEmpty)
  }

  @Test func aBuildThatDrawsMoreIsReportedAndGetsTheSameSubstituteEveryTime() throws {
    let store = Store(initialState: Todos.State(), reducer: Todos(), clock: SteppingClock())
    store.send(.add("a"))
    store.send(.toggle(store.state.id(at: 0)))
    store.send(.add("b"))
    let events = try store.events(in: 1...3)

    func reopen(_ diagnostics: DiagnosticLog) throws -> Store<Todos.State, Todos.Action> {
      try Store(
        initialState: Todos.State(), reducer: Todos(uuidsPerAdd: 2),
        journal: try InMemoryJournal(events: events),
        diagnostics: diagnostics.record)
    }
    let first = DiagnosticLog()
    let reopened = try reopen(first)
    let reports = first.all.compactMap(\.unrecordedDraw)
    #expect(first.all.allSatisfy { $0.kind == .unrecordedDraw })
    #expect(reports.map(\.sequence) == [1, 3])
    #expect(reports.allSatisfy { $0.kind == .uuid && $0.index == 1 && $0.recorded == 1 })
    // The second UUID, which the recording did not hold, is the one kept: a substitute, version 8.
    let substitute = try #require(reopened.state.todos.first?.id)
    #expect(reports.first?.substitute == .uuid(substitute))
    #expect(substitute.uuid.6 >> 4 == 8)
    #expect(reopened.state.todos.map(\.created) == store.state.todos.map(\.created))

    let second = DiagnosticLog()
    #expect(try reopen(second).state == reopened.state, "the substitutes are deterministic")
    // Time travel replays the same events again; each lack is reported once per store.
    _ = try reopened.state(at: 3)
    #expect(first.all.count == 2)
  }

  @Test func drawingFewerThanWasRecordedIsFine() throws {
    let store = Store(initialState: Todos.State(), reducer: Todos(), clock: SteppingClock())
    store.send(.add("a"))
    let diagnostics = DiagnosticLog()
    let reopened = try Store(
      initialState: Todos.State(), reducer: Todos(drawsPriority: false),
      journal: try InMemoryJournal(events: try store.events(in: 1...1)), diagnostics: diagnostics.record)
    #expect(reopened.state.todos.first?.id == store.state.todos.first?.id)
    #expect(reopened.state.todos.first?.created == store.state.todos.first?.created)
    #expect(diagnostics.all.isEmpty)
  }

  @Test func aDependencyOverrideInTheReducerTreeAppliesToWhatItDraws() throws {
    let fixed = UUID(uuid: (9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9))
    let store = Store(
      initialState: Todos.State(),
      reducer: Todos().dependency(\.uuid, .constant(fixed)).dependency(\.random, .constant(0)),
      dependencies: { $0.uuid = .incrementing })
    store.send(.add("a"))
    #expect(store.state.todos.first?.id == fixed)
    #expect(try store.events(in: 1...1).first?.draws.first == .uuid(fixed))
  }

  @Test func aReducersDateIsTheEventTimestampUnlessOverridden() throws {
    let clock = FixedClock()
    let other = Date(timeIntervalSince1970: 42)
    let live = Store(initialState: Todos.State(), reducer: Todos(), clock: clock)
    live.send(.add("a"))
    #expect(live.state.todos.first?.created == clock.date)
    let overridden = Store(
      initialState: Todos.State(), reducer: Todos(), clock: clock,
      dependencies: { $0.date = .constant(other) })
    overridden.send(.add("a"))
    #expect(overridden.state.todos.first?.created == other)
    #expect(try overridden.events(in: 1...1).first?.draws.last == .date(other))
  }

  @Test func applyReplaysAnEventOutsideAStore() throws {
    let store = Store(initialState: Todos.State(), reducer: Todos(), clock: SteppingClock())
    _ = runScript(store, count: 12, seed: 9)
    var state = Todos.State()
    var lacking: [UnrecordedDraw] = []
    try store.journal.forEachEvent(from: 1) { Todos().apply($0, to: &state) { lacking.append($0) } }
    #expect(state == store.state)
    #expect(lacking.isEmpty)

    // A build that draws three UUIDs per add, where one was recorded, lacks two per add.
    var more = Todos.State()
    try store.journal.forEachEvent(from: 1) {
      Todos(uuidsPerAdd: 3).apply($0, to: &more) { lacking.append($0) }
    }
    let adds = try store.events(in: 1...12).count { if case .add? = $0.action { true } else { false } }
    #expect(adds > 0)
    #expect(lacking.count == 2 * adds)
    #expect(lacking.allSatisfy { $0.kind == .uuid && $0.recorded == 1 })
  }

  @Test func effectsDrawLiveWithoutRecording() async throws {
    struct Maker: Reducer {
      @Dependency(\.uuid) var uuid
      func reduce(into state: inout [UUID], action: UUID?) -> Effect<UUID?> {
        guard let id = action else { return .run { [self] send in send(uuid()) } }
        state.append(id)
        return .none
      }
    }
    let store = Store(initialState: [UUID](), reducer: Maker(), dependencies: { $0.uuid = .incrementing })
    await store.send(nil).finish()
    let events = try store.events(in: 1...2)
    #expect(events.allSatisfy { $0.draws.isEmpty }, "the effect's UUID travels in the action it sends")
    #expect(events.last?.action == store.state.first)
  }

  @Test func eventsEncodeTheirDrawsOnlyWhenThereAreSome() throws {
    let metadata = EventMetadata(actor: nil, source: .user, correlationID: CorrelationID(rawValue: 1))
    let plain = Event(
      sequence: 1, timestamp: Date(timeIntervalSinceReferenceDate: 5), metadata: metadata, action: 1)
    let text = String(decoding: try JSONEncoder().encode(plain), as: UTF8.self)
    #expect(!text.contains("draws"))
    #expect(try JSONDecoder().decode(Event<Int>.self, from: Data(text.utf8)) == plain)

    let uuid = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
    var drawing = plain
    drawing.draws = [.uuid(uuid), .date(Date(timeIntervalSinceReferenceDate: 1.5)), .random(.max)]
    let encoded = try JSONEncoder().encode(drawing)
    #expect(String(decoding: encoded, as: UTF8.self).contains(#""draws":[{"uuid":"#))
    #expect(try JSONDecoder().decode(Event<Int>.self, from: encoded) == drawing)

    let twoKeys = Data(#"{"uuid":"01020304-0506-0708-090A-0B0C0D0E0F10","random":1}"#.utf8)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(RecordedDraw.self, from: twoKeys) }
  }
}
