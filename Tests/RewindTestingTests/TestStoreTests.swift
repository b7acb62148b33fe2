import Rewind
import RewindTesting
import Synchronization
import Testing

/// A timer feature: ticks on the manual clock until stopped.
struct Timer: Reducer {
  struct State: Equatable, Sendable {
    var ticks = 0
    var isRunning = false
  }

  enum Action: Equatable, Sendable { case start, stop, tick, bump }

  let clock: ManualClock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      state.isRunning = true
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          send(.tick)
        }
      }
      .cancellable(id: "timer", cancelInFlight: true)
    case .stop:
      state.isRunning = false
      return .cancel(id: "timer")
    case .tick:
      state.ticks += 1
      return .none
    case .bump:
      state.ticks += 10
      return .send(.tick)
    }
  }
}

struct Rows: Reducer {
  struct Row: Identifiable, Equatable, Sendable { var id: Int; var value = 0 }
  struct State: Equatable, Sendable { var rows: IdentifiedArray<Row> = [] }
  enum Action: Equatable, Sendable { case row(IdentifiedAction<Int, Int>) }

  var body: some Reducer<State, Action> {
    EmptyReducer<State, Action>()
      .forEach(
        \.rows,
        action: ActionPath(embed: Action.row, extract: { if case .row(let a) = $0 { a } else { nil } })
      ) {
        Reduce<Row, Int> { row, amount in
          row.value += amount
          return .none
        }
      }
  }
}

@Suite(.timeLimit(.minutes(2))) struct TestStorePassingTests {
  @Test func exhaustiveFlowWithTheManualClock() async {
    let clock = ManualClock()
    let store = TestStore(initialState: Timer.State(), reducer: Timer(clock: clock), clock: clock)
    store.send(.start) { $0.isRunning = true }
    #expect(await clock.waitForSleepers())
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.ticks = 1 }
    #expect(await clock.waitForSleepers())
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.ticks = 2 }
    #expect(await clock.waitForSleepers())
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.ticks = 3 }
    store.send(.stop) { $0.isRunning = false }
    await store.finish()
  }

  @Test func synchronousEffectActionsAreReceived() async {
    let store = TestStore(initialState: Timer.State(), reducer: Timer(clock: ManualClock()))
    store.send(.bump) { $0.ticks = 10 }
    await store.receive(.tick) { $0.ticks = 11 }
    await store.finish()
  }

  @Test func eventTimestampsComeFromTheManualClock() async throws {
    let clock = ManualClock()
    let store = TestStore(initialState: Timer.State(), reducer: Timer(clock: clock), clock: clock)
    await clock.advance(by: .seconds(90))
    store.send(.tick) { $0.ticks = 1 }
    let event = try #require(try store.store.journal.events(in: 1...1).first)
    #expect(event.timestamp == clock.epoch.addingTimeInterval(90))
    await store.finish()
  }

  @Test func anExpectedDiagnosticCanBeClaimed() async {
    let store = TestStore(initialState: Rows.State(rows: [Rows.Row(id: 1)]), reducer: Rows())
    store.send(.row(IdentifiedAction(id: 1, action: 5))) { $0.rows[id: 1]?.value = 5 }
    store.send(.row(IdentifiedAction(id: 2, action: 5)))
    store.expectDiagnostic(.elementMissing)
    await store.finish()
  }
}

/// A list of wide rows, for failure diffs that must name the row and the field.
struct Notebook: Reducer {
  struct Page: Identifiable, Equatable, Sendable {
    var id: Int
    var title = ""
    var body = ""
    var tags: [String] = []
    var words = 0
    var isPinned = false
    var isArchived = false
  }
  struct State: Equatable, Sendable { var pages: IdentifiedArray<Page> = [] }
  enum Action: Equatable, Sendable { case archive(id: Int) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .archive(let id): state.pages[id: id]?.isArchived = true
    }
    return .none
  }
}

/// Each test here must record an issue: `withKnownIssue` fails the test if none is recorded.
@Suite(.timeLimit(.minutes(2))) struct TestStoreFailingTests {
  @Test func aWrongFieldOfOneRowIsNamedWithItsRow() async {
    let pages = IdentifiedArray(
      uniqueElements: (1...2_000).map { Notebook.Page(id: $0, title: "page \($0)") })
    let store = TestStore(initialState: Notebook.State(pages: pages), reducer: Notebook())
    withKnownIssue("TestStore's own failure, on purpose: a wrong field of one row, named with its row") {
      store.send(.archive(id: 1_234)) { $0.pages[id: 1_234]?.isPinned = true }
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      let lines = text.split(separator: "\n")
      let storage = ["PersistentTree", "TreeNode", "IDIndex", "root:"]
      return text.contains("▿ [id: 1234]: RewindTestingTests.Notebook.Page")
        && lines.contains { $0.hasPrefix("−") && $0.hasSuffix("- isPinned: true") }
        && lines.contains { $0.hasPrefix("+") && $0.hasSuffix("- isArchived: true") }
        && !storage.contains { text.contains($0) }
    }
    await store.finish()
  }

  @Test func aWrongExpectedStateFails() async {
    let store = TestStore(initialState: Timer.State(), reducer: Timer(clock: ManualClock()))
    withKnownIssue("TestStore's own failure, on purpose: the expected state is wrong") {
      store.send(.tick) { $0.ticks = 2 }
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("− ") && text.contains("+ ") && text.contains("ticks")
    }
    await store.finish()
  }

  @Test func anUnassertedChangeFails() async {
    let store = TestStore(initialState: Timer.State(), reducer: Timer(clock: ManualClock()))
    withKnownIssue("TestStore's own failure, on purpose: a state change the test did not assert") {
      store.send(.tick)
    }
    await store.finish()
  }

  @Test func anUnreceivedEffectActionFailsAtFinish() async {
    let store = TestStore(initialState: Timer.State(), reducer: Timer(clock: ManualClock()))
    store.send(.bump) { $0.ticks = 10 }
    await withKnownIssue("TestStore's own failure, on purpose: finish() with an effect's action not received")
    {
      await store.finish()
    }
  }

  @Test func sendingBeforeReceivingFails() async {
    let store = TestStore(initialState: Timer.State(), reducer: Timer(clock: ManualClock()))
    store.send(.bump) { $0.ticks = 10 }
    withKnownIssue("TestStore's own failure, on purpose: a send before a received action was asserted") {
      store.send(.tick) { $0.ticks = 12 }
    }
    await store.finish()
  }

  @Test func receivingTheWrongActionFails() async {
    let store = TestStore(initialState: Timer.State(), reducer: Timer(clock: ManualClock()))
    store.send(.bump) { $0.ticks = 10 }
    await withKnownIssue("TestStore's own failure, on purpose: receive() of another action than the one sent")
    {
      await store.receive(.stop) { $0.ticks = 11 }
    }
    await store.finish()
  }

  @Test func waitingForAnActionThatNeverComesFails() async {
    let store = TestStore(initialState: Timer.State(), reducer: Timer(clock: ManualClock()))
    await withKnownIssue("TestStore's own failure, on purpose: receive() of an action that never comes") {
      await store.receive(.tick, timeout: .milliseconds(20))
    }
    await store.finish()
  }

  @Test func aLeftoverEffectFailsAtFinish() async {
    let store = TestStore(initialState: Timer.State(), reducer: Timer(clock: ManualClock()))
    store.send(.start) { $0.isRunning = true }
    await withKnownIssue("TestStore's own failure, on purpose: finish() with an effect still running") {
      await store.finish(timeout: .milliseconds(20))
    }
  }

  @Test func anUnexpectedDiagnosticFails() async {
    let store = TestStore(initialState: Rows.State(), reducer: Rows())
    store.send(.row(IdentifiedAction(id: 7, action: 1)))
    await withKnownIssue("TestStore's own failure, on purpose: a diagnostic the test did not claim") {
      await store.finish()
    }
  }

  @Test func releasingWithoutFinishReportsLeftovers() {
    withKnownIssue("TestStore's own failure, on purpose: a store released without finish()") {
      let store = TestStore(initialState: Timer.State(), reducer: Timer(clock: ManualClock()))
      store.send(.bump) { $0.ticks = 10 }
    }
  }
}

@Suite(.timeLimit(.minutes(2))) struct ManualClockTests {
  @Test func sleepersWakeInDeadlineOrderOnlyWhenTimePasses() async {
    let clock = ManualClock()
    let order = OrderLog()
    let first = Task {
      try await clock.sleep(for: .seconds(2)); order.append("2s")
    }
    let second = Task {
      try await clock.sleep(for: .seconds(1)); order.append("1s")
    }
    while clock.sleeperCount < 2 { await Task.yield() }
    await clock.advance(by: .milliseconds(500))
    #expect(order.all.isEmpty)
    await clock.advance(by: .seconds(2))
    _ = await (first.result, second.result)
    #expect(order.all == ["1s", "2s"])
    #expect(clock.now.offset == .milliseconds(2_500))
  }

  @Test func cancellingASleeperThrows() async {
    let clock = ManualClock()
    let task = Task { try await clock.sleep(for: .seconds(5)) }
    while clock.sleeperCount < 1 { await Task.yield() }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(clock.sleeperCount == 0)
  }
}

final class OrderLog: Sendable {
  private let items = Mutex<[String]>([])
  var all: [String] { items.withLock { $0 } }
  func append(_ item: String) { items.withLock { $0.append(item) } }
}
