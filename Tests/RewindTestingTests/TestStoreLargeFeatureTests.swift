import Foundation
import Rewind
import RewindTesting
import Testing

/// A feature with more going on than a test wants to assert: loading sets several fields, and the
/// effect sends progress before the result.
struct Inbox: Reducer {
  struct State: Equatable, Sendable {
    var isLoading = false
    var progress: [Int] = []
    var mail: [String] = []
    var lastLoadedFolder: String?
    var rows: IdentifiedArray<Row> = []
  }

  struct Row: Identifiable, Equatable, Sendable {
    var id: Int
    var ticks = 0
  }

  enum RowAction: Equatable, Sendable { case start, tick }

  enum Action: Equatable, Sendable {
    case load(String), progress(Int), loaded([String]), row(IdentifiedAction<Int, RowAction>), remove(Int)
    static let rowPath = ActionPath<Action, IdentifiedAction<Int, RowAction>>(
      embed: Action.row, extract: { if case .row(let a) = $0 { a } else { nil } })
  }

  var body: some Reducer<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .load(let folder):
        state.isLoading = true
        state.lastLoadedFolder = folder
        return .run { send in
          @Dependency(\.clock) var clock
          @Dependency(\.fakeServer) var server
          send(.progress(50))
          try await clock.sleep(for: .milliseconds(50))
          send(.progress(100))
          send(.loaded(try await server.fetch(folder)))
        }
      case .progress(let percent):
        state.progress.append(percent)
      case .loaded(let mail):
        state.isLoading = false
        state.mail = mail
      case .remove(let id):
        state.rows.remove(id: id)
      case .row:
        break
      }
      return .none
    }
    .forEach(\.rows, action: Action.rowPath) {
      Reduce<Row, RowAction> { row, action in
        switch action {
        case .start:
          return .run { send in
            @Dependency(\.clock) var clock
            while true {
              try await clock.sleep(for: .seconds(1))
              send(.tick)
            }
          }
        case .tick:
          row.ticks += 1
          return .none
        }
      }
    }
  }
}

private func inboxStore(_ state: Inbox.State = Inbox.State()) -> TestStore<Inbox.State, Inbox.Action> {
  TestStore(initialState: state, reducer: Inbox()) { $0.fakeServer.fetch = { ["mail in \($0)"] } }
}

@Suite(.timeLimit(.minutes(1))) struct TestStoreLargeFeatureTests {
  /// The flow both tests below go through, asserting only what a test about the result cares about.
  private func loadAndAssertOnlyTheResult(_ store: TestStore<Inbox.State, Inbox.Action>) async {
    store.send(.load("inbox")) { $0.isLoading = true }
    #expect(await store.clock.waitForSleepers(1))
    await store.clock.advance(by: .milliseconds(50))
    await store.receive(.loaded(["mail in inbox"])) {
      $0.isLoading = false
      $0.mail = ["mail in inbox"]
    }
    await store.finish()
  }

  @Test func theExhaustiveStoreFailsOnWhatTheTestLeftOut() async {
    let store = inboxStore()
    await withKnownIssue("TestStore's own failure, on purpose: an exhaustive test leaves changes out") {
      await loadAndAssertOnlyTheResult(store)
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("lastLoadedFolder") || text.contains("progress")
    }
  }

  @Test func theNonExhaustiveStorePassesWhereTheExhaustiveOneFails() async {
    let store = inboxStore()
    store.exhaustivity = .off
    await loadAndAssertOnlyTheResult(store)
    #expect(store.state.progress == [50, 100], "the skipped actions still moved the state on")
    #expect(store.skipped.isEmpty, "nothing is listed unless asked")
  }

  @Test func aNonExhaustiveStoreCanListWhatItSkipped() async {
    let store = inboxStore()
    store.exhaustivity = .off(showSkippedAssertions: true)
    await loadAndAssertOnlyTheResult(store)
    #expect(store.skipped.count == 2, "\(store.skipped)")
    #expect(store.skipped.first?.contains("lastLoadedFolder") == true)
    #expect(store.skipped.last?.contains("#2 progress(50), #3 progress(100)") == true)
  }

  @Test func aNonExhaustiveAssertionThatIsWrongStillFails() async {
    let store = inboxStore()
    store.exhaustivity = .off
    withKnownIssue("TestStore's own failure, on purpose: a wrong assertion when not exhaustive") {
      store.send(.load("inbox")) { $0.lastLoadedFolder = "archive" }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("archive")
    }
    await store.finish()
  }

  @Test func receiveOfAnActionThatArrivesAfter50msOnTheManualClockNeedsNoWallClockWait() async {
    let store = inboxStore()
    store.exhaustivity = .off
    // An hour of real time: were `receive` waiting on the wall clock rather than on the store, the suite's
    // one-minute limit would stop the test.
    store.timeout = .seconds(3_600)
    store.send(.load("inbox"))
    await store.receive(.progress(50)) { $0.progress = [50] }
    #expect(await store.clock.waitForSleepers(1))
    await store.clock.advance(by: .milliseconds(50))
    await store.receive(.progress(100)) { $0.progress = [50, 100] }
    await store.receive(.loaded(["mail in inbox"])) { $0.mail = ["mail in inbox"] }
    await store.finish()
  }

  @Test func receiveFailsAtOnceWhenNoEffectCouldSend() async {
    let store = inboxStore()
    store.timeout = .seconds(3_600)
    await withKnownIssue("TestStore's own failure, on purpose: receive() when no effect could send") {
      await store.receive(.progress(1))
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("no effect is running")
    }
    await store.finish()
  }

  @Test func receiveOfAChildActionThroughItsPath() async {
    let store = inboxStore(Inbox.State(rows: [Inbox.Row(id: 1), Inbox.Row(id: 2)]))
    let rowOne = Inbox.Action.rowPath.appending(.element(id: 1))
    store.send(.row(IdentifiedAction(id: 1, action: .start)))
    #expect(await store.clock.waitForSleepers(1))
    await store.clock.advance(by: .seconds(1))
    await store.receive(rowOne, .tick) { $0.rows[id: 1]?.ticks = 1 }
    #expect(await store.clock.waitForSleepers(1))
    await store.clock.advance(by: .seconds(1))
    await store.receive(Inbox.Action.rowPath) { $0.rows[id: 1]?.ticks = 2 }
    store.send(.remove(1)) { $0.rows.remove(id: 1) }
    await store.finish()
  }

  @Test func aRemovedRowsTimerStopsSendingAndTheTestFinishes() async {
    let store = inboxStore(Inbox.State(rows: [Inbox.Row(id: 1), Inbox.Row(id: 2)]))
    store.send(.row(IdentifiedAction(id: 1, action: .start)))
    store.send(.row(IdentifiedAction(id: 2, action: .start)))
    #expect(await store.clock.waitForSleepers(2))
    store.send(.remove(1)) { $0.rows.remove(id: 1) }
    await store.clock.advance(by: .seconds(1))
    await store.receive(Inbox.Action.rowPath.appending(.element(id: 2)), .tick) { $0.rows[id: 2]?.ticks = 1 }
    store.send(.remove(2)) { $0.rows.remove(id: 2) }
    await store.clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test func skipInFlightEffectsLetsAnExhaustiveTestEndWithATimerRunning() async {
    let store = inboxStore(Inbox.State(rows: [Inbox.Row(id: 1)]))
    store.send(.row(IdentifiedAction(id: 1, action: .start)))
    #expect(await store.clock.waitForSleepers(1))
    store.skipInFlightEffects()
    await store.finish()
    #expect(store.store.runningEffectCount == 0)
  }

  @Test func aLeftoverTimerFailsAnExhaustiveTestWithAHintAboutTheClock() async {
    let store = inboxStore(Inbox.State(rows: [Inbox.Row(id: 1)]))
    store.send(.row(IdentifiedAction(id: 1, action: .start)))
    #expect(await store.clock.waitForSleepers(1))
    await withKnownIssue("TestStore's own failure, on purpose: a timer still sleeping on the ManualClock") {
      await store.receive(.progress(1), timeout: .milliseconds(1))
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("advance it first")
    }
    store.skipInFlightEffects()
    await store.finish()
  }
}
