import Rewind
import RewindComponents
import Synchronization
import Testing

@Suite("Swipe table coordination")
struct SwipeTableTests {
  typealias Row = SwipeRow<Int>

  func table(_ count: Int = 3, configure: (inout SwipeCellState) -> Void = { _ in }) -> SwipeTableState<Row> {
    var cell = SwipeCellState.fixture
    configure(&cell)
    return SwipeTableState(
      rows: IdentifiedArray(uniqueElements: (1...count).map { Row(id: $0, swipe: cell) }))
  }

  func run(
    _ state: inout SwipeTableState<Row>, _ actions: SwipeTableAction<Int>...,
    reducer: SwipeTable<Row> = SwipeTable()
  ) {
    for action in actions { _ = reducer.reduce(into: &state, action: action) }
  }

  /// Ends every running row animation, in display order, as the rows' timers do.
  func finishAll(_ state: inout SwipeTableState<Row>, reducer: SwipeTable<Row> = SwipeTable()) {
    for row in state.rows {
      guard let animation = row.swipe.animation else { continue }
      run(
        &state, .row(IdentifiedAction(id: row.id, action: .animationFinished(id: animation.id))),
        reducer: reducer)
    }
  }

  func pan(_ id: Int, to x: Double, at now: Double = 0) -> [SwipeTableAction<Int>] {
    [
      .row(IdentifiedAction(id: id, action: .panBegan(translation: SwipeVector(x: x > 0 ? 1 : -1), at: now))),
      .row(
        IdentifiedAction(
          id: id, action: .panChanged(translation: SwipeVector(x: x + (x > 0 ? 1 : -1)), at: now))),
    ]
  }

  @Test(
    "MG-31 touch on B while A is open hides A; consumed unless touchOnDismissSwipe", arguments: [false, true])
  func touchOnDismiss(passThrough: Bool) {
    var state = table(2) { $0.touchOnDismissSwipe = passThrough }
    run(&state, .row(IdentifiedAction(id: 1, action: .show(.rightToLeft, animated: false, at: 0))))
    #expect(state.openRowIDs == [1])
    run(&state, .touchDown(rowID: 2, location: SwipeVector(x: 10, y: 70), at: 1))
    #expect(state.lastTouch == SwipeTouchOutcome(consumed: !passThrough, hiddenRowIDs: [1]))
    #expect(state.rows[id: 1]?.swipe.animation?.to == 0)
    for action in pan(2, to: -120) { run(&state, action) }
    #expect(state.rows[id: 2]?.swipe.offset == (passThrough ? -120 : 0))
    #expect(state.rows[id: 1]?.swipe.offset(at: 1.32) == 0)
    finishAll(&state)
    #expect(state.rows[id: 1]?.swipe.offset == 0)
    #expect(state.openRowIDs == (passThrough ? [2] : []))
    #expect(state.animatingRowIDs.isEmpty)
  }

  @Test("table events name their rows, in order")
  func tableEvents() {
    var state = table()
    run(&state, .row(IdentifiedAction(id: 1, action: .show(.rightToLeft, animated: false, at: 0))))
    #expect(
      state.events == [
        SwipeRowEvent(id: 1, event: .willBeginSwiping),
        SwipeRowEvent(id: 1, event: .stateChanged(.swipingRightToLeft, gestureActive: false)),
      ])
    run(&state, .row(IdentifiedAction(id: 2, action: .show(.rightToLeft, animated: false, at: 0))))
    // Row 1 starts hiding (animated): its events come with the end of its animation.
    #expect(
      state.events == [
        SwipeRowEvent(id: 2, event: .willBeginSwiping),
        SwipeRowEvent(id: 2, event: .stateChanged(.swipingRightToLeft, gestureActive: false)),
      ])
    finishAll(&state)
    #expect(
      state.events == [
        SwipeRowEvent(id: 1, event: .willEndSwiping),
        SwipeRowEvent(id: 1, event: .stateChanged(.none, gestureActive: false)),
      ])
  }

  @Test("a touch inside the open row passes through")
  func touchInsideOpenRow() {
    var state = table()
    run(&state, .row(IdentifiedAction(id: 1, action: .show(.rightToLeft, animated: false, at: 0))))
    run(&state, .touchDown(rowID: 1, location: .zero, at: 0))
    #expect(state.lastTouch == SwipeTouchOutcome(consumed: false, hiddenRowIDs: []))
  }

  @Test("shouldHideOnTap false still swallows the touch (issue #282 behaviour)")
  func shouldHideFalse() {
    var state = table()
    let reducer = SwipeTable<Row>(cell: SwipeCell(shouldHideOnTap: { _ in false }))
    run(
      &state, .row(IdentifiedAction(id: 1, action: .show(.rightToLeft, animated: false, at: 0))),
      reducer: reducer)
    run(&state, .touchDown(rowID: 2, location: .zero, at: 0), reducer: reducer)
    #expect(state.lastTouch == SwipeTouchOutcome(consumed: true, hiddenRowIDs: []))
    #expect(state.openRowIDs == [1])
  }

  @Test("opening a row programmatically closes the other open row")
  func oneOpenAtATime() {
    var state = table()
    run(&state, .row(IdentifiedAction(id: 1, action: .show(.rightToLeft, animated: false, at: 0))))
    run(&state, .row(IdentifiedAction(id: 3, action: .show(.leftToRight, animated: false, at: 0))))
    #expect(state.rows[id: 1]?.swipe.animation?.to == 0)
    finishAll(&state)
    #expect(state.openRowIDs == [3])
  }

  @Test("allowsMultipleSwipe keeps several rows open and swallows nothing")
  func multipleSwipe() {
    var state = table { $0.allowsMultipleSwipe = true }
    run(
      &state, .row(IdentifiedAction(id: 1, action: .show(.rightToLeft, animated: false, at: 0))),
      .row(IdentifiedAction(id: 2, action: .show(.rightToLeft, animated: false, at: 0))),
      .touchDown(rowID: 3, location: .zero, at: 0))
    #expect(state.openRowIDs == [1, 2])
    #expect(state.lastTouch == SwipeTouchOutcome(consumed: false, hiddenRowIDs: []))
  }

  @Test("a pan beginning on one row cancels another row's drag and hides it")
  func panCancelsOtherDrag() {
    var state = table()
    for action in pan(1, to: -60) { run(&state, action) }
    #expect(state.draggingRowID == 1)
    for action in pan(2, to: -30) { run(&state, action) }
    #expect(state.draggingRowID == 2)
    #expect(state.rows[id: 1]?.swipe.isGestureActive == false)
    #expect(state.rows[id: 1]?.swipe.animation?.to == 0)
  }

  @Test("closeAll hides every open row")
  func closeAll() {
    var state = table { $0.allowsMultipleSwipe = true }
    run(
      &state, .row(IdentifiedAction(id: 1, action: .show(.rightToLeft, animated: false, at: 0))),
      .row(IdentifiedAction(id: 2, action: .show(.leftToRight, animated: false, at: 0))),
      .closeAll(animated: false, at: 0))
    #expect(state.openRowIDs.isEmpty)
    #expect(state.rows.allSatisfy { $0.swipe.offset == 0 })
  }

  @Test("an action for a missing row and an out-of-range button are diagnostics, not crashes")
  func diagnostics() {
    let seen = Mutex<[Diagnostic.Kind]>([])
    let store = Store(
      initialState: table(2), reducer: SwipeTable<Row>(),
      diagnostics: { diagnostic in seen.withLock { $0.append(diagnostic.kind) } })
    store.send(.row(IdentifiedAction(id: 99, action: .hide(animated: true, at: 0))))
    store.send(.row(IdentifiedAction(id: 1, action: .tapButton(index: 7, side: .rightToLeft, at: 0))))
    store.send(.row(IdentifiedAction(id: 1, action: .tapButton(index: -1, side: .leftToRight, at: 0))))
    #expect(seen.withLock { $0 } == [.elementMissing, .invalidInput, .invalidInput])
    #expect(store.state.rows.allSatisfy { $0.swipe == table(1).rows[0].swipe })
  }
}
