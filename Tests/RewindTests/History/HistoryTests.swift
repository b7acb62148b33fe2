import Foundation
import Observation
import Rewind
import RewindTesting
import Testing

/// A small document: typing coalesces, adding is a step, scrolling is not undoable, clearing is a barrier.
struct Document: Reducer {
  struct State: Equatable, Sendable {
    var text = ""
    var items: [String] = []
    var scroll = 0
  }

  enum Action: Equatable, Sendable {
    case type(String)
    case add(String)
    case scroll(Int)
    case clear
    case addTwice(String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .type(let text): state.text += text
    case .add(let item): state.items.append(item)
    case .scroll(let offset): state.scroll = offset
    case .clear:
      state.text = ""
      state.items = []
    case .addTwice(let item):
      state.items.append(item)
      return .send(.add(item + "'"))
    }
    return .none
  }

  static let history = HistoryConfiguration<Action>(undoLimit: 50, checkpointInterval: 8) { action in
    switch action {
    case .type: .coalesce(key: "typing", window: .seconds(1), name: "Typing")
    case .add, .addTwice: .step(name: "Add")
    case .scroll: .ignore
    case .clear: .barrier
    }
  }
}

private func makeStore(
  clock: ManualClock = ManualClock(), journal: InMemoryJournal<Document.Action> = InMemoryJournal(),
  history: HistoryConfiguration<Document.Action> = Document.history
) throws -> Store<Document.State, Document.Action> {
  try Store(
    initialState: Document.State(), reducer: Document(), journal: journal, clock: clock, history: history)
}

@Suite(.timeLimit(.minutes(2))) struct UndoRuleTests {
  @Test func eachStepUndoesAndRedoesWithItsName() throws {
    let store = try makeStore()
    #expect(!store.canUndo)
    store.send(.add("a"))
    store.send(.add("b"))
    #expect(store.undoStepName == "Add")
    #expect(store.undoStepCount == 2)
    store.undo()
    #expect(store.state.items == ["a"])
    #expect(store.canRedo)
    #expect(store.redoStepName == "Add")
    store.redo()
    #expect(store.state.items == ["a", "b"])
    store.undo()
    store.undo()
    #expect(store.state.items.isEmpty)
    #expect(!store.canUndo)
    store.undo()  // nothing to undo: no event
    #expect(store.sequence == 6)
    // Each jump names the state it brought back: the redo, the state the first undo replaced (#2).
    let commands = try store.events(in: 3...6).compactMap(\.command)
    #expect(commands == [.undo(to: 1), .redo(to: 2), .undo(to: 1), .undo(to: 0)])
  }

  @Test func typingCoalescesWithinTheWindowOnly() async throws {
    let clock = ManualClock()
    let store = try makeStore(clock: clock)
    store.send(.type("H"))
    await clock.advance(by: .milliseconds(500))
    store.send(.type("i"))
    await clock.advance(by: .milliseconds(900))
    store.send(.type("!"))
    #expect(store.undoStepCount == 1, "each keystroke came within a second of the previous one")
    await clock.advance(by: .seconds(2))
    store.send(.type(" there"))
    #expect(store.undoStepCount == 2)
    store.undo()
    #expect(store.state.text == "Hi!")
    store.undo()
    #expect(store.state.text == "")
  }

  @Test func aDifferentStepBreaksCoalescing() throws {
    let store = try makeStore()
    store.send(.type("a"))
    store.send(.add("x"))
    store.send(.type("b"))
    #expect(store.undoStepCount == 3)
  }

  @Test func ignoredActionsAreNotStepsAndBarriersClearHistory() throws {
    let store = try makeStore()
    store.send(.add("a"))
    store.send(.scroll(40))
    #expect(store.undoStepCount == 1)
    store.undo()
    #expect(store.state == Document.State(), "undo brings back the state before the step, scroll included")
    store.redo()
    store.send(.clear)
    #expect(!store.canUndo)
    #expect(!store.canRedo)
  }

  @Test func theLimitForgetsTheOldestSteps() throws {
    let store = try makeStore(history: HistoryConfiguration(undoLimit: 3) { _ in .step })
    for item in ["a", "b", "c", "d", "e"] { store.send(.add(item)) }
    #expect(store.undoStepCount == 3)
    store.undo()
    store.undo()
    store.undo()
    #expect(store.state.items == ["a", "b"])
    #expect(!store.canUndo)
  }

  @Test func undoIsOffByDefault() {
    let store = Store(initialState: Document.State(), reducer: Document())
    store.send(.add("a"))
    #expect(!store.canUndo)
    store.undo()
    #expect(store.state.items == ["a"])
    #expect(store.sequence == 1)
  }

  @Test func aTransactionIsOneNamedStepAndNests() throws {
    let store = try makeStore()
    store.send(.add("before"))
    store.transaction("Import") {
      store.send(.add("x"))
      store.transaction("Inner") { store.send(.add("y")) }
      store.send(.type("z"))
      #expect(!store.canUndo, "undo waits for the transaction to end")
    }
    #expect(store.undoStepName == "Import")
    #expect(store.undoStepCount == 2)
    store.undo()
    #expect(store.state.items == ["before"])
    #expect(store.state.text == "")
  }

  @Test func aTransactionOfIgnoredActionsIsNoStep() throws {
    let store = try makeStore()
    store.beginTransaction("Drag")
    store.send(.scroll(1))
    store.send(.scroll(2))
    store.endTransaction()
    #expect(!store.canUndo)
  }

  @Test func endingAnUnopenedTransactionIsADiagnosticAndNoEvent() throws {
    let log = DiagnosticLog()
    let store = try Store(
      initialState: Document.State(), reducer: Document(), journal: InMemoryJournal(),
      history: Document.history,
      diagnostics: log.record)
    store.endTransaction()
    #expect(store.sequence == 0)
    #expect(log.all.map(\.kind) == [.historyCommandIgnored])
  }

  @Test func aNewStepAfterUndoClearsRedoAndStartsABranch() throws {
    let store = try makeStore()
    store.send(.add("a"))  // 1
    store.send(.add("b"))  // 2
    store.undo()  // 3: back to #1
    store.send(.add("c"))  // 4: new branch
    #expect(!store.canRedo)
    #expect(
      store.branches == [
        HistoryBranch(base: 0, first: 1, last: 2),
        HistoryBranch(base: 1, first: 3, last: 4),
      ])
    // The abandoned branch is still reachable.
    #expect(try store.state(at: 2).items == ["a", "b"])
    try store.restore(to: 2)
    #expect(store.state.items == ["a", "b"])
    store.undo()
    #expect(store.state.items == ["a", "c"], "a restore is itself undoable")
  }

  @Test func undoTakesBackActionsSentByEffects() throws {
    let store = try makeStore()
    store.send(.addTwice("a"))  // 1, and the effect's .add("a'") as 2
    #expect(store.state.items == ["a", "a'"])
    let second = try #require(try store.events(in: 2...2).first)
    #expect(second.metadata.source == .effect(cause: 1))
    store.undo()
    #expect(store.state.items == ["a"], "the effect's action was its own step")
    store.undo()
    #expect(store.state.items.isEmpty)
  }

  @Test func undoAndRedoAreObservedLikeActions() async throws {
    let store = try makeStore()
    store.send(.add("a"))
    let changed = ObservedOnce()
    withObservationTracking {
      _ = store.state
    } onChange: {
      changed.mark()
    }
    store.undo()
    await settleViews(store)  // observers are told on the main actor
    #expect(changed.count == 1)
  }

  @Test func testStoreAssertsUndoAndRedo() async {
    let store = TestStore(initialState: Document.State(), reducer: Document(), history: Document.history)
    store.send(.add("a")) { $0.items = ["a"] }
    store.undo { $0.items = [] }
    store.redo { $0.items = ["a"] }
    await store.finish()
  }
}

@Suite(.timeLimit(.minutes(2))) struct TimeTravelTests {
  @Test func stateAtEverySequenceAndTheEventsBetween() throws {
    let store = try makeStore()
    var live: [Document.State] = [store.state]
    for index in 0..<30 {
      store.send(.add("\(index)"))
      live.append(store.state)
    }
    for sequence in 0...30 { #expect(try store.state(at: UInt64(sequence)) == live[sequence]) }
    #expect(throws: HistoryError.afterNewest(requested: 31, newest: 30)) { _ = try store.state(at: 31) }

    let difference = try store.difference(from: 10, to: 12)
    #expect(difference.old == live[10])
    #expect(difference.new == live[12])
    #expect(difference.events.map(\.sequence) == [11, 12])
  }

  @Test func whatIfSkipsEventsWithoutTouchingTheStore() throws {
    let store = try makeStore()
    store.send(.add("a"))
    store.send(.add("b"))
    store.send(.type("t"))
    store.send(.add("c"))
    let before = store.state
    #expect(try store.whatIf(skipping: [2]).items == ["a", "c"])
    #expect(try store.whatIf(skipping: [2, 3]) == Document.State(text: "", items: ["a", "c"]))
    #expect(try store.whatIf(skipping: [4], through: 3).items == ["a", "b"])
    #expect(store.state == before)
  }

  @Test func whatIfThroughAnUndoUsesTheSkippedWorld() throws {
    let store = try makeStore()
    store.send(.add("a"))  // 1
    store.send(.add("b"))  // 2
    store.undo()  // 3: to #1
    store.send(.add("c"))  // 4
    // Without event 1, the undo at 3 brings back the state as of #1 in that world: empty.
    #expect(try store.whatIf(skipping: [1]).items == ["c"])
  }
}

@Suite(.timeLimit(.minutes(2))) struct HistoryReplayPropertyTests {
  @Test(arguments: [1, 7, 99, 2026, 31_337] as [UInt64])
  func replayEqualsTheLiveStateAtEveryStep(seed: UInt64) async throws {
    var random = SeededGenerator(seed: seed)
    let clock = ManualClock()
    let journal = InMemoryJournal<Document.Action>()
    let store = try makeStore(clock: clock, journal: journal)
    var live: [UInt64: Document.State] = [0: store.state]
    var openTransactions = 0

    for _ in 0..<400 {
      if Bool.random(using: &random) {
        await clock.advance(by: .milliseconds(Int64.random(in: 0...1_500, using: &random)))
      }
      switch Int.random(in: 0..<12, using: &random) {
      case 0, 1: store.send(.type(String(UnicodeScalar(UInt8.random(in: 97...122, using: &random)))))
      case 2, 3: store.send(.add("i\(Int.random(in: 0..<50, using: &random))"))
      case 4: store.send(.scroll(Int.random(in: 0..<100, using: &random)))
      case 5:
        if Int.random(in: 0..<4, using: &random) == 0 {
          store.send(.clear)
        } else {
          store.send(.addTwice("t"))
        }
      case 6, 7: store.undo()
      case 8: store.redo()
      case 9:
        if store.sequence > 0 { try store.restore(to: UInt64.random(in: 0...store.sequence, using: &random)) }
      case 10:
        store.beginTransaction("T")
        openTransactions += 1
      default:
        if openTransactions > 0 {
          store.endTransaction()
          openTransactions -= 1
        }
      }
      // Sync effects may add a second event; both states are the one after the send.
      live[store.sequence] = store.state
    }
    while openTransactions > 0 {
      store.endTransaction()
      openTransactions -= 1
      live[store.sequence] = store.state
    }

    for (sequence, state) in live {
      #expect(try store.state(at: sequence) == state, "seed \(seed), sequence \(sequence)")
    }

    // A store opened on the same journal rebuilds the state and the undo history exactly.
    let reopened = try makeStore(clock: clock, journal: journal)
    #expect(reopened.state == store.state, "seed \(seed)")
    #expect(reopened.undoStepCount == store.undoStepCount, "seed \(seed)")
    #expect(reopened.canRedo == store.canRedo, "seed \(seed)")
    #expect(reopened.branches == store.branches, "seed \(seed)")
    for _ in 0..<3 {
      store.undo()
      reopened.undo()
      #expect(reopened.state == store.state, "seed \(seed): undo after reopening")
    }
  }
}
