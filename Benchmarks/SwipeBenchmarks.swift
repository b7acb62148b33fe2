import Foundation
import Rewind
import RewindComponents

/// Swipe benchmarks of suite `components`:
/// - `components/swipe-gesture` (gestures/s): a pan of 120 changed events, its release and 20 animation
///   ticks, all sent through a store. Baseline: the same actions into the reducer directly.
/// - `components/swipe-pan-rows=N` (µs per pan event): pan events on a table of N swipe rows with one row
///   open. The cost must not grow with N.
let swipeBenchmarks: @Sendable (Reporter) throws -> Void = { reporter in
  let gestures = 200
  let direct = swipeGestureRate(gestures: gestures, throughStore: false)
  let rate = swipeGestureRate(gestures: gestures, throughStore: true)
  reporter.report(Measurement(name: "components/swipe-gesture", unit: "gestures/s", median: rate, baseline: direct))
  for rows in [100, 10_000] {
    reporter.report(
      Measurement(name: "components/swipe-pan-rows=\(rows)", unit: "us", median: panMicroseconds(rows: rows)))
  }
}

private let benchCell = SwipeCellState(
  right: [SwipeButton(title: "Delete", width: 90), SwipeButton(title: "More", width: 90)],
  cellWidth: 320)

/// The actions of gesture `k`: began, 120 changes to 150 pt further left, release, 20 ticks of 16 ms.
private func gestureActions(_ k: Int) -> [SwipeCellAction] {
  var actions: [SwipeCellAction] = [.panBegan(translation: SwipeVector(x: -1))]
  for step in 1...120 { actions.append(.panChanged(translation: SwipeVector(x: -1 - 1.25 * Double(step)))) }
  actions.append(.panEnded(translation: SwipeVector(x: -151), velocity: SwipeVector(x: -40)))
  let start = Double(k)
  for frame in 0..<20 { actions.append(.tick(now: start + 0.016 * Double(frame))) }
  return actions
}

private func swipeGestureRate(gestures: Int, throughStore: Bool) -> Double {
  let plan = (0..<gestures).map(gestureActions)
  let seconds = medianSeconds(repetitions: 7) {
    if throughStore {
      let store = Store(initialState: benchCell, reducer: SwipeCell())
      for actions in plan { for action in actions { store.send(action) } }
      blackHole(store.state.offset)
    } else {
      let reducer = SwipeCell()
      var state = benchCell
      for actions in plan { for action in actions { blackHole(reducer.reduce(into: &state, action: action)) } }
      blackHole(state)
    }
  }
  return Double(gestures) / seconds
}

/// Microseconds per pan event on row 0 of a table of `rows` rows, row 0 open.
///
/// Checkpoints are spaced beyond the run: a checkpoint keeps a copy of the whole state, so the next
/// mutation copies the row array once, an O(rows) cost per checkpoint interval that belongs to time
/// travel, not to the pan.
private func panMicroseconds(rows: Int) -> Double {
  typealias Row = SwipeRow<Int>
  let events = 20_000
  let table = SwipeTableState(rows: IdentifiedArray(uniqueElements: (0..<rows).map { Row(id: $0, swipe: benchCell) }))
  // REWIND_BENCH_SWIPE_CHECKPOINTS=default measures with the store's default checkpoint interval.
  let defaultCheckpoints = ProcessInfo.processInfo.environment["REWIND_BENCH_SWIPE_CHECKPOINTS"] == "default"
  let history = HistoryConfiguration<SwipeTableAction<Int>>(checkpointInterval: defaultCheckpoints ? 1_024 : 1 << 40)
  let seconds = medianSeconds(repetitions: 5) {
    let store = Store(initialState: table, reducer: SwipeTable<Row>(), history: history)
    store.send(.row(IdentifiedAction(id: 0, action: .show(.rightToLeft, animated: false))))
    store.send(.row(IdentifiedAction(id: 0, action: .panBegan(translation: SwipeVector(x: -1)))))
    for event in 0..<events {
      let x = -1 - Double(event % 200)
      store.send(.row(IdentifiedAction(id: 0, action: .panChanged(translation: SwipeVector(x: x)))))
    }
    blackHole(store.state.openRowIDs)
  }
  return seconds / Double(events) * 1e6
}
