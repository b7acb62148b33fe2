import Foundation
import Rewind
import RewindTesting
import Testing

/// A row with a timer on the clock dependency, and rows of such rows nested in it.
struct TimerRow: Reducer {
  struct State: Identifiable, Equatable, Sendable {
    var id: Int
    var ticks = 0
    var children: IdentifiedArray<State> = []
  }

  indirect enum Action: Equatable, Sendable {
    case start, tick, child(IdentifiedAction<Int, Action>), removeChild(Int)
    static let childPath = ActionPath<Action, IdentifiedAction<Int, Action>>(
      embed: Action.child, extract: { if case .child(let a) = $0 { a } else { nil } })
  }

  var body: some Reducer<State, Action> {
    Reduce<State, Action> { state, action in
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
        state.ticks += 1
      case .removeChild(let id):
        state.children.remove(id: id)
      case .child:
        break
      }
      return .none
    }
    .forEach(\.children, action: Action.childPath) { NestedRow() }
  }
}

/// The same row one level down (a reducer cannot contain itself).
struct NestedRow: Reducer {
  func reduce(into state: inout TimerRow.State, action: TimerRow.Action) -> Effect<TimerRow.Action> {
    switch action {
    case .start:
      return .run { send in
        @Dependency(\.clock) var clock
        while true {
          try await clock.sleep(for: .seconds(1))
          send(.tick)
        }
      }
    case .tick: state.ticks += 1
    default: break
    }
    return .none
  }
}

struct TimerList: Reducer {
  struct State: Equatable, Sendable { var rows: IdentifiedArray<TimerRow.State> = [] }

  enum Action: Equatable, Sendable {
    case row(IdentifiedAction<Int, TimerRow.Action>), remove(Int), replaceAll([Int]), nothing
    static let rowPath = ActionPath<Action, IdentifiedAction<Int, TimerRow.Action>>(
      embed: Action.row, extract: { if case .row(let a) = $0 { a } else { nil } })
  }

  var body: some Reducer<State, Action> {
    Reduce<State, Action> { state, action in
      switch action {
      case .remove(let id): state.rows.remove(id: id)
      case .replaceAll(let ids):
        state.rows = IdentifiedArray(uniqueElements: ids.map { TimerRow.State(id: $0) })
      case .row, .nothing: break
      }
      return .none
    }
    .forEach(\.rows, action: Action.rowPath) { TimerRow() }
  }
}

/// Two lists of the same type side by side: their rows' ids overlap.
struct TwoLists: Reducer {
  struct State: Equatable, Sendable {
    var left = TimerList.State()
    var right = TimerList.State()
  }

  enum Action: Equatable, Sendable {
    case left(TimerList.Action), right(TimerList.Action)
    static let leftPath = ActionPath<Action, TimerList.Action>(
      embed: Action.left, extract: { if case .left(let a) = $0 { a } else { nil } })
    static let rightPath = ActionPath<Action, TimerList.Action>(
      embed: Action.right, extract: { if case .right(let a) = $0 { a } else { nil } })
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.left, action: Action.leftPath) { TimerList() }
    Scope(state: \.right, action: Action.rightPath) { TimerList() }
  }
}

/// A store on `reducer` whose effects sleep on `clock`.
private func store<R: Reducer & Sendable>(
  _ state: R.State, _ reducer: R, clock: ManualClock
) -> Store<R.State, R.Action> where R.State: Sendable {
  Store(initialState: state, reducer: reducer, clock: clock, dependencies: { $0.clock = clock })
}

private func rows(_ ids: Int...) -> IdentifiedArray<TimerRow.State> {
  IdentifiedArray(uniqueElements: ids.map { TimerRow.State(id: $0) })
}

@Suite(.timeLimit(.minutes(1))) struct EffectLifetimeTests {
  @Test func aRemovedRowsTimerStopsAndTheOthersGoOn() async {
    let clock = ManualClock()
    let store = store(TimerList.State(rows: rows(1, 2)), TimerList(), clock: clock)
    store.send(.row(IdentifiedAction(id: 1, action: .start)))
    store.send(.row(IdentifiedAction(id: 2, action: .start)))
    #expect(await clock.waitForSleepers(2))
    await clock.advance(by: .seconds(1))
    #expect(await clock.waitForSleepers(2))
    #expect(store.state.rows.map(\.ticks) == [1, 1])

    store.send(.remove(1))
    #expect(store.runningEffectCount == 1, "row 1's timer was cancelled by the send that removed it")
    for _ in 0..<3 {
      await clock.advance(by: .seconds(1))
      #expect(await clock.waitForSleepers(1))
    }
    #expect(store.state.rows.map(\.ticks) == [4])
    #expect(store.runningEffectCount == 1)
    store.cancelAllEffects()
  }

  @Test func noActionOfACancelledEffectArrivesAfterTheSendThatEndedIt() async {
    // The effect hands its `send` to an unstructured task, which cancellation does not reach: the store
    // itself must refuse what it sends once the row is gone.
    let clock = ManualClock()
    let log = DiagnosticLog()
    let attempts = Locked(0)
    let rowReducer = Reduce<TimerRow.State, TimerRow.Action> { row, action in
      switch action {
      case .start:
        return .run { send in
          Task {
            try await clock.sleep(for: .seconds(1))
            send(.tick)
            attempts.withLock { $0 += 1 }
          }
          try await Task.sleep(for: .seconds(3_600))  // waits to be cancelled
        }
      case .tick:
        row.ticks += 1
        return .none
      default:
        return .none
      }
    }
    let list = Reduce<TimerList.State, TimerList.Action> { state, action in
      if case .remove(let id) = action { state.rows.remove(id: id) }
      return .none
    }
    .forEach(\.rows, action: TimerList.Action.rowPath) { rowReducer }
    let store = Store(
      initialState: TimerList.State(rows: rows(1, 2)), reducer: list, diagnostics: log.record)
    store.send(.row(IdentifiedAction(id: 1, action: .start)))
    store.send(.row(IdentifiedAction(id: 2, action: .start)))
    #expect(await clock.waitForSleepers(2))
    store.send(.remove(1))
    await clock.advance(by: .seconds(1))
    while attempts.withLock({ $0 }) < 2 { await Task.yield() }
    #expect(store.state.rows[id: 2]?.ticks == 1)
    #expect(store.sequence == 4, "row 2's tick arrived; row 1's did not: \(store.sequence)")
    #expect(log.all.isEmpty, "no action for the removed row: \(log.all)")
    store.cancelAllEffects()
  }

  @Test func replacingEveryRowWithOthersOfTheSameCountEndsTheOldTimers() async {
    let clock = ManualClock()
    let store = store(TimerList.State(rows: rows(1, 2)), TimerList(), clock: clock)
    store.send(.row(IdentifiedAction(id: 1, action: .start)))
    store.send(.row(IdentifiedAction(id: 2, action: .start)))
    #expect(await clock.waitForSleepers(2))
    store.send(.replaceAll([2, 3]))
    #expect(store.runningEffectCount == 1, "row 1 is gone; row 2 is still there")
    store.send(.replaceAll([4, 5]))
    #expect(store.runningEffectCount == 0)
  }

  @Test func removingARowEndsTheTimersOfTheRowsNestedInIt() async {
    let clock = ManualClock()
    var outer = TimerRow.State(id: 1)
    outer.children = rows(10, 11)
    let store = store(TimerList.State(rows: [outer, TimerRow.State(id: 2)]), TimerList(), clock: clock)
    store.send(.row(IdentifiedAction(id: 1, action: .child(IdentifiedAction(id: 10, action: .start)))))
    store.send(.row(IdentifiedAction(id: 1, action: .child(IdentifiedAction(id: 11, action: .start)))))
    store.send(.row(IdentifiedAction(id: 2, action: .start)))
    #expect(store.runningEffectCount == 3)
    store.send(.row(IdentifiedAction(id: 1, action: .removeChild(10))))
    #expect(store.runningEffectCount == 2, "the inner list ends its removed row's work")
    store.send(.remove(1))
    #expect(store.runningEffectCount == 1, "removing the outer row ends the work nested in it")
    store.cancelAllEffects()
  }

  @Test func rowsOfTwoScopesWithTheSameIdsStayApart() async {
    let clock = ManualClock()
    let store = store(
      TwoLists.State(left: TimerList.State(rows: rows(1)), right: TimerList.State(rows: rows(7, 1))),
      TwoLists(), clock: clock)
    store.send(.right(.row(IdentifiedAction(id: 7, action: .start))))
    store.send(.right(.row(IdentifiedAction(id: 1, action: .start))))
    store.send(.left(.row(IdentifiedAction(id: 1, action: .start))))
    store.send(.left(.nothing))
    #expect(store.runningEffectCount == 3, "the left list knows nothing of the right's row 7")
    store.send(.left(.remove(1)))
    #expect(store.runningEffectCount == 2, "only the left row 1's timer ends, not the right's")
    store.send(.right(.remove(7)))
    #expect(store.runningEffectCount == 1)
    store.cancelAllEffects()
  }
}
