import Foundation
import Rewind
import RewindTesting
import Synchronization
import Testing

/// A journal in memory that counts its closes, and can be told to fail them.
final class ClosingJournal: Journal {
  typealias Action = Counter.Action
  let base = InMemoryJournal<Counter.Action>()
  let closes = Atomic<Int>(0)
  let failsToClose: Bool

  init(failsToClose: Bool = false) { self.failsToClose = failsToClose }

  var lastSequence: UInt64 { base.lastSequence }
  func append(_ event: Event<Counter.Action>) throws { try base.append(event) }
  func forEachEvent(from sequence: UInt64, _ body: (Event<Counter.Action>) throws -> Void) throws {
    try base.forEachEvent(from: sequence, body)
  }
  func events(in range: ClosedRange<UInt64>) throws -> [Event<Counter.Action>] { try base.events(in: range) }

  struct CloseFailed: Error, Equatable {}

  func close() throws {
    closes.add(1, ordering: .relaxed)
    if failsToClose { throw CloseFailed() }
  }
}

/// A reducer whose `.wait` starts an effect that sleeps on the clock dependency until cancelled.
struct Sleeper: Reducer {
  struct State: Equatable, Sendable { var started = 0 }
  enum Action: Equatable, Sendable { case wait, woke }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .wait:
      state.started += 1
      return .run { send in
        @Dependency(\.clock) var clock
        try await clock.sleep(for: .seconds(3_600))
        send(.woke)
      }
    case .woke: return .none
    }
  }
}

@Suite struct StoreClosingTests {
  @Test func aSendAfterCloseIsDroppedAndReported() throws {
    let diagnostics = DiagnosticLog()
    let journal = ClosingJournal()
    let store = try Store(
      initialState: Counter.State(), reducer: Counter(), journal: journal, history: .undoEveryAction,
      diagnostics: diagnostics.record)
    store.send(.increment)
    #expect(!store.isClosed)
    try store.close()
    #expect(store.isClosed)
    store.send(.increment)
    store.undo()
    #expect(store.state.count == 1)
    #expect(store.sequence == 1)
    #expect(journal.lastSequence == 1, "nothing after the close reaches the journal")
    #expect(diagnostics.all.map(\.kind) == [.storeClosed, .storeClosed])
    #expect(diagnostics.all.first?.message.contains("action increment") == true)
    // Reading still works.
    #expect(try store.state(at: 1).count == 1)
  }

  @Test func closeIsIdempotentAndClosesTheJournalOnce() throws {
    let journal = ClosingJournal()
    let store = try Store(initialState: Counter.State(), reducer: Counter(), journal: journal)
    try store.close()
    try store.close()
    #expect(journal.closes.load(ordering: .relaxed) == 1)
  }

  @Test func aJournalThatFailsToCloseFailsTheFirstCloseOnly() throws {
    let journal = ClosingJournal(failsToClose: true)
    let store = try Store(initialState: Counter.State(), reducer: Counter(), journal: journal)
    #expect(throws: ClosingJournal.CloseFailed()) { try store.close() }
    #expect(store.isClosed, "closed all the same")
    try store.close()
    #expect(journal.closes.load(ordering: .relaxed) == 1)
  }

  @Test func closeCancelsRunningEffects() async throws {
    let clock = ManualClock()
    let store = Store(initialState: Sleeper.State(), reducer: Sleeper(), dependencies: { $0.clock = clock })
    store.send(.wait)
    store.send(.wait)
    #expect(await clock.waitForSleepers(2))
    #expect(store.runningEffectCount == 2)
    try store.close()
    #expect(store.runningEffectCount == 0)
    await store.waitForEffects()
    await clock.advance(by: .seconds(3_600))
    #expect(store.sequence == 2, "a cancelled effect's action is not recorded")
  }

  @Test func closeEndsEverySubscriptionAfterTheNewestState() async throws {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let states = Task {
      var seen: [Int] = []
      for await state in store.states { seen.append(state.count) }
      return seen
    }
    var values = store.values(of: \.count).makeAsyncIterator()
    #expect(await values.next() == 0)
    store.send(.increment)
    try store.close()
    #expect(await values.next() == 1)
    #expect(await values.next() == nil)
    #expect(await states.value.last == 1)
  }

  /// Holds the store for its own diagnostics handler.
  final class StoreBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Store<Mailbox.State, Mailbox.Action>?
    var store: Store<Mailbox.State, Mailbox.Action>? {
      get { lock.withLock { stored } }
      set { lock.withLock { stored = newValue } }
    }
  }

  @Test func closingFromADiagnosticsHandlerDuringASendDoesNotDeadlock() throws {
    let box = StoreBox()
    let diagnostics = DiagnosticLog()
    let store = Store(
      initialState: Mailbox.State(), reducer: Mailbox(),
      diagnostics: { diagnostic in
        diagnostics.record(diagnostic)
        // Called inside the send, on its thread, while the store holds its dispatch gate.
        if diagnostic.kind == .elementMissing { try? box.store?.close() }
      })
    box.store = store
    store.send(.mail(IdentifiedAction(id: 9, action: .toggleFlag)))
    #expect(store.isClosed)
    store.send(.startDraft)
    #expect(store.state.draft == nil)
    #expect(diagnostics.all.map(\.kind) == [.elementMissing, .storeClosed])
    box.store = nil
  }

  /// Sends race a close from another thread: each is either recorded (and journaled) or dropped and
  /// reported, never half of both.
  @Test(arguments: [UInt64(1), 2, 3, 4])
  func sendsRacingACloseAreEachRecordedOrDropped(seed: UInt64) async throws {
    let diagnostics = DiagnosticLog()
    let journal = ClosingJournal()
    let store = try Store(
      initialState: Counter.State(), reducer: Counter(), journal: journal, diagnostics: diagnostics.record)
    var random = SplitMix64(seed: seed)
    let closeAfter = Int(random.next() % 2_000)
    let sends = 4_000
    async let sender: Void = Task.detached {
      for _ in 0..<sends { store.send(.increment) }
    }.value
    while store.sequence < UInt64(closeAfter) { await Task.yield() }
    try store.close()
    await sender
    let dropped = diagnostics.all.filter { $0.kind == .storeClosed }.count
    #expect(store.sequence == journal.lastSequence, "seed \(seed)")
    #expect(Int(store.sequence) + dropped == sends, "seed \(seed)")
    #expect(store.state.count == Int(store.sequence), "seed \(seed)")
  }
}
