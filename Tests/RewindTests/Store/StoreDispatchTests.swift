import Foundation
import Observation
import Rewind
import Testing

@Suite(.timeLimit(.minutes(2))) struct StoreDispatchTests {
  @Test func sendIsSynchronousAndRecordsAGaplessEvent() throws {
    let clock = FixedClock()
    let store = Store(initialState: Counter.State(), reducer: Counter(), clock: clock, actor: "tester")
    store.send(.increment)
    #expect(store.state.count == 1)
    store.send(.add(4), from: .system)
    #expect(store.state.count == 5)
    #expect(store.sequence == 2)

    let events = try store.journal.events(in: 1...2)
    #expect(events.map(\.sequence) == [1, 2])
    #expect(events.map(\.action) == [.increment, .add(4)])
    #expect(events.allSatisfy { $0.timestamp == clock.date })
    #expect(
      events[0].metadata == EventMetadata(actor: "tester", source: .user, correlationID: .init(rawValue: 1)))
    #expect(events[1].metadata.source == .system)
    #expect(events[1].metadata.correlationID == CorrelationID(rawValue: 2))
  }

  @Test func originNamesTheActorAndContinuesACorrelation() throws {
    let store = Store(initialState: Counter.State(), reducer: Counter(), actor: "default")
    store.send(.increment, from: .user(actor: "alice", correlationID: CorrelationID(rawValue: 77)))
    let event = try #require(try store.journal.events(in: 1...1).first)
    #expect(event.metadata.actor == "alice")
    #expect(event.metadata.correlationID.rawValue == 77)
  }

  @Test func synchronousEffectsAreProcessedInOrderBeforeSendReturns() throws {
    let store = Store(initialState: Trace.State(), reducer: Trace())
    store.send(.chain("a", remaining: 3))
    #expect(store.state.log == ["a3", "a2", "a1", "a0"])
    let events = try store.journal.events(in: 1...4)
    #expect(
      events.map(\.metadata.source) == [.user, .effect(cause: 1), .effect(cause: 2), .effect(cause: 3)])
    #expect(events.allSatisfy { $0.metadata.correlationID.rawValue == 1 })
  }

  @Test func aSendFromTheDiagnosticsHandlerIsQueuedBehindTheSendThatReported() {
    let box = StoreBox<Mailbox.State, Mailbox.Action>()
    let store = Store(
      initialState: Mailbox.State(), reducer: Mailbox(),
      diagnostics: { _ in
        // Inside the send that reported: queued, processed before that send returns.
        box.store?.send(.startDraft)
        #expect(box.store?.state.draft == nil, "not yet: the reporting send is still in progress")
      })
    box.store = store
    store.send(.draft(.toggleFlag))
    #expect(store.state.draft != nil, "processed before the outer send returned")
    #expect(store.sequence == 2)
  }

  @Test func concurrentSendsLoseNothingAndNumberEventsWithoutGaps() async throws {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let tasks = 8
    let perTask = 10_000
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<tasks {
        group.addTask {
          for _ in 0..<perTask { store.send(.increment) }
        }
      }
    }
    #expect(store.state.count == tasks * perTask)
    #expect(store.sequence == UInt64(tasks * perTask))
    var expected: UInt64 = 1
    var gapless = true
    try store.journal.forEachEvent(from: 1) { event in
      if event.sequence != expected { gapless = false }
      expected += 1
    }
    #expect(gapless)
    #expect(expected - 1 == UInt64(tasks * perTask))
  }

  @Test func concurrentSendsFromThreadsAreSerialized() {
    let store = Store(initialState: Trace.State(), reducer: Trace())
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      for step in 0..<500 { store.send(.tap("\(worker)-\(step)")) }
    }
    let log = store.state.log
    #expect(log.count == 2_000)
    for worker in 0..<4 {
      let own = log.filter { $0.hasPrefix("\(worker)-") }
      #expect(own == (0..<500).map { "\(worker)-\($0)" }, "each thread's sends keep their order")
    }
  }

  @Test func stateIsObservableOnTheMainActor() async {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let changed = ObservedOnce()
    withObservationTracking {
      _ = store.state.count
    } onChange: {
      changed.mark()
    }
    #expect(changed.count == 0)
    store.send(.increment)
    await settleViews(store)
    #expect(changed.count == 1)
    store.send(.increment)
    await settleViews(store)
    #expect(changed.count == 1, "withObservationTracking fires once per registration")
  }

  @Test func aJournalFailureIsReportedAndTheStoreGoesOnInMemory() throws {
    let journal = InMemoryJournal<Counter.Action>()
    try journal.append(
      Event(
        sequence: 1, timestamp: Date(),
        metadata: .init(actor: nil, source: .system, correlationID: .init(rawValue: 1)), action: .increment))
    let log = DiagnosticLog()
    let store = try Store(
      initialState: Counter.State(), reducer: Counter(), journal: journal, diagnostics: log.record)
    #expect(store.state.count == 1, "replayed")
    #expect(!store.journalStatus.isFailed)

    // Another writer takes sequence 2 behind the store's back: the store's event 2 is refused.
    try journal.append(
      Event(
        sequence: 2, timestamp: Date(),
        metadata: .init(actor: nil, source: .system, correlationID: .init(rawValue: 2)), action: .increment))
    store.send(.add(10))
    #expect(store.state.count == 11)
    #expect(store.journalStatus.isFailed)
    #expect(log.all.map(\.kind) == [.journalFailed])
    store.send(.add(10))
    #expect(store.state.count == 21, "keeps working in memory")
    #expect(log.all.count == 1, "reported once")
  }
}

/// Counts calls from any thread.
final class ObservedOnce: Sendable {
  private let lock = NSLock()
  private nonisolated(unsafe) var calls = 0
  var count: Int { lock.withLock { calls } }
  func mark() { lock.withLock { calls += 1 } }
}

/// Lets a closure made before a store reach it.
final class StoreBox<State: Sendable, Action: Sendable>: Sendable {
  private let lock = NSLock()
  private nonisolated(unsafe) var stored: Store<State, Action>?
  var store: Store<State, Action>? {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}
