import Rewind
import RewindComponents
import RewindTestSupport
import RewindTesting
import Testing

/// The end of an animation as an event: sent once by the timer the reducer schedules on a clock, caused by
/// the action that started the animation, with its actor and correlation id.
@Suite("Swipe animation timers", .timeLimit(.minutes(1)))
struct SwipeTimerTests {
  typealias Row = SwipeRow<Int>

  @Test("a release's animation ends with one event caused by the release, with its actor and correlation")
  func releaseEndsWithOneCausedEvent() async throws {
    let clock = ManualClock()
    let store = Store(
      initialState: SwipeCellState.fixture, reducer: SwipeCell().dependency(\.clock, clock), clock: clock,
      actor: "alice")
    store.send(.panBegan(translation: SwipeVector(x: -1), at: 10))
    store.send(.panChanged(translation: SwipeVector(x: -120), at: 10.1))
    store.send(
      .panEnded(translation: SwipeVector(x: -120), velocity: .zero, at: 10.2), from: .user(actor: "bob"))
    #expect(store.state.animation?.to == -180)
    #expect(await clock.waitForSleepers())
    await clock.advance(by: .milliseconds(300))
    #expect(store.sequence == 3, "not before the end: the show animation lasts 0.31 s")
    await clock.advance(by: .milliseconds(10))
    #expect(await eventually { store.sequence == 4 })
    #expect(store.state.offset == -180)
    #expect(store.state.animation == nil)
    let events = try store.journal.events(in: 1...4)
    #expect(events[3].action == .animationFinished(id: 1))
    #expect(events[3].metadata.source == .effect(cause: 3))
    #expect(events[3].metadata.actor == "bob")
    #expect(events[3].metadata.correlationID == events[2].metadata.correlationID)
    await store.waitForEffects()
    #expect(store.sequence == 4, "one event for the animation's end, and nothing else")
  }

  @Test("an interrupted animation's timer is cancelled: no late event")
  func interruptedTimerIsCancelled() async throws {
    let clock = ManualClock()
    let store = Store(
      initialState: SwipeCellState.fixture, reducer: SwipeCell().dependency(\.clock, clock), clock: clock)
    store.send(.show(.rightToLeft, animated: false, at: 0))
    store.send(.hide(animated: true, at: 1))
    #expect(await clock.waitForSleepers())
    store.send(.panBegan(translation: SwipeVector(x: 1), at: 1.1))
    #expect(await eventually { clock.sleeperCount == 0 })
    await clock.advance(by: .seconds(5))
    await store.waitForEffects()
    #expect(store.sequence == 3)
    #expect(store.state.isGestureActive)
  }

  @Test(
    "a finish sent before the timer (by a view sampling past the end) ends it once; the timer is cancelled")
  func viewSentFinish() async throws {
    let clock = ManualClock()
    let store = Store(
      initialState: SwipeCellState.fixture, reducer: SwipeCell().dependency(\.clock, clock), clock: clock)
    store.send(.show(.rightToLeft, animated: true, at: 0))
    #expect(await clock.waitForSleepers())
    #expect(store.state.isAnimationFinished(at: 0.5))
    store.send(.animationFinished(id: 1))
    store.send(.animationFinished(id: 1))
    #expect(await eventually { clock.sleeperCount == 0 })
    await clock.advance(by: .seconds(1))
    await store.waitForEffects()
    #expect(store.sequence == 3, "the second finish is recorded but changes nothing; the timer sent nothing")
    #expect(store.state.offset == -180)
  }

  @Test("a table names each row's timer: two rows animate at once and both end")
  func tableRowTimers() async throws {
    let clock = ManualClock()
    var cell = SwipeCellState.fixture
    cell.allowsMultipleSwipe = true
    let rows = IdentifiedArray(uniqueElements: (1...3).map { Row(id: $0, swipe: cell) })
    let store = Store(
      initialState: SwipeTableState(rows: rows), reducer: SwipeTable<Row>().dependency(\.clock, clock),
      clock: clock)
    store.send(.row(IdentifiedAction(id: 1, action: .show(.rightToLeft, animated: true, at: 0))))
    store.send(.row(IdentifiedAction(id: 3, action: .show(.leftToRight, animated: true, at: 0))))
    #expect(store.state.animatingRowIDs == [1, 3])
    #expect(await clock.waitForSleepers(2))
    await clock.advance(by: .seconds(1))
    #expect(await eventually { store.state.animatingRowIDs.isEmpty })
    #expect(store.state.openRowIDs == [1, 3])
    let ends = try store.journal.events(in: 3...4)
    // Both end at the same time; the log records the order in which their timers fired.
    let actions = ends.compactMap(\.action)
    #expect(actions.contains(.row(IdentifiedAction(id: 1, action: .animationFinished(id: 1)))))
    #expect(actions.contains(.row(IdentifiedAction(id: 3, action: .animationFinished(id: 1)))))
    #expect(Set(ends.map(\.metadata.source)) == [.effect(cause: 1), .effect(cause: 2)])
  }

  @Test("a click at the end of an animation is caused by the end, which is caused by the release")
  func clickAtTheEnd() async throws {
    let clock = ManualClock()
    var cell = SwipeCellState.fixture
    cell.rightExpansion.buttonIndex = 0
    cell.rightExpansion.fillOnTrigger = true
    let rows = IdentifiedArray(uniqueElements: [Row(id: 7, swipe: cell)])
    let store = Store(
      initialState: SwipeTableState(rows: rows), reducer: SwipeTable<Row>().dependency(\.clock, clock),
      clock: clock)
    store.send(.row(IdentifiedAction(id: 7, action: .panBegan(translation: SwipeVector(x: -1), at: 0))))
    store.send(.row(IdentifiedAction(id: 7, action: .panChanged(translation: SwipeVector(x: -300), at: 0.1))))
    store.send(.row(IdentifiedAction(id: 7, action: .panEnded(translation: .zero, velocity: .zero, at: 0.2))))
    #expect(store.state.events.isEmpty)
    #expect(await clock.waitForSleepers())
    await clock.advance(by: .seconds(1))
    #expect(await eventually { store.sequence == 4 })
    let end = try #require(try store.journal.events(in: 4...4).first)
    #expect(end.metadata.source == .effect(cause: 3))
    #expect(
      store.state.events.map(\.event).contains(
        .buttonTapped(SwipeButtonTap(index: 0, direction: .rightToLeft, fromExpansion: true))))
  }

  @Test("resuming after a restore: a running animation gets a new timer; one already over ends at once")
  func resume() async throws {
    let journal = InMemoryJournal<SwipeTableAction<Int>>()
    let rows = IdentifiedArray(uniqueElements: (1...2).map { Row(id: $0, swipe: SwipeCellState.fixture) })
    let initial = SwipeTableState(rows: rows)
    do {
      let first = try Store(
        initialState: initial, reducer: SwipeTable<Row>().dependency(\.clock, ManualClock()), journal: journal
      )
      first.send(.row(IdentifiedAction(id: 2, action: .show(.rightToLeft, animated: true, at: 5))))
      first.cancelAllEffects()  // the process ends: its timer goes with it
    }
    let clock = ManualClock()
    let restored = try Store(
      initialState: initial, reducer: SwipeTable<Row>().dependency(\.clock, clock), journal: journal,
      clock: clock)
    #expect(restored.state.animatingRowIDs == [2])
    restored.send(.resumeAnimations(at: 5.1))
    #expect(restored.state.animatingRowIDs == [2], "still running at 5.1")
    #expect(await clock.waitForSleepers())
    await clock.advance(by: .milliseconds(200))
    #expect(restored.sequence == 2, "0.21 s were left, not the whole 0.31")
    await clock.advance(by: .milliseconds(10))
    #expect(await eventually { restored.sequence == 3 })
    #expect(restored.state.rows[id: 2]?.swipe.offset == -180)

    var over = initial
    _ = SwipeTable<Row>().reduce(
      into: &over, action: .row(IdentifiedAction(id: 1, action: .show(.leftToRight, animated: true, at: 0))))
    _ = SwipeTable<Row>().reduce(into: &over, action: .resumeAnimations(at: 9))
    #expect(over.animatingRowIDs.isEmpty)
    #expect(over.rows[id: 1]?.swipe.offset == 80)
  }
}
