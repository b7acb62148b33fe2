import Foundation
import Rewind
import RewindComponents

/// Swipe benchmarks of suite `components`:
/// - `components/swipe-gesture` (gestures/s): a pan of 120 changed events, its release and the one event
///   that ends its animation, all sent through a store (the release's timer effect is started and then
///   cancelled by the end). Baseline: the same actions into the reducer directly.
/// - `components/swipe-pan-rows=N` (µs per pan event): pan events on a table of N swipe rows with one row
///   open. The cost must not grow with N.
/// - `components/swipe-frame` and `components/swipe-frame-rows=N` (ns per display frame): what a view
///   does at each frame while a row animates: sample the animating rows' presentations at the frame's
///   time and lay out their buttons. No action is sent. The table has N rows with mail-like strings.
let swipeBenchmarks: @Sendable (Reporter) throws -> Void = { reporter in
  // REWIND_BENCH_SWIPE_GESTURES=n: only n gestures through a store, once (for callgrind: the difference
  // between two values of n over the difference of the n is the instructions per gesture).
  if let count = ProcessInfo.processInfo.environment["REWIND_BENCH_SWIPE_GESTURES"].flatMap(Int.init) {
    let store = Store(initialState: benchCell, reducer: SwipeCell())
    for actions in (0..<count).map(gestureActions) { for action in actions { store.send(action) } }
    blackHole(store.state.offset)
    return
  }
  let gestures = 200
  let direct = swipeGestureRate(gestures: gestures, throughStore: false)
  let rate = swipeGestureRate(gestures: gestures, throughStore: true)
  reporter.report(
    Measurement(name: "components/swipe-gesture", unit: "gestures/s", median: rate, baseline: direct))
  for rows in [100, 10_000] {
    reporter.report(
      Measurement(name: "components/swipe-pan-rows=\(rows)", unit: "us", median: panMicroseconds(rows: rows)))
  }
  reporter.report(
    Measurement(name: "components/swipe-frame", unit: "ns", median: frameNanoseconds(rows: nil)))
  reporter.report(
    Measurement(name: "components/swipe-frame-rows=10000", unit: "ns", median: frameNanoseconds(rows: 10_000))
  )
}

private let benchCell = SwipeCellState(
  right: [SwipeButton(title: "Delete", width: 90), SwipeButton(title: "More", width: 90)],
  cellWidth: 320)

/// The actions of gesture `k` (animation id `k + 1`): began, 120 changes to 150 pt further left, release,
/// and the end of the release's animation.
private func gestureActions(_ k: Int) -> [SwipeCellAction] {
  let start = Double(k)
  var actions: [SwipeCellAction] = [.panBegan(translation: SwipeVector(x: -1), at: start)]
  for step in 1...120 {
    actions.append(
      .panChanged(translation: SwipeVector(x: -1 - 1.25 * Double(step)), at: start + 0.004 * Double(step)))
  }
  actions.append(.panEnded(translation: SwipeVector(x: -151), velocity: SwipeVector(x: -40), at: start + 0.5))
  actions.append(.animationFinished(id: k + 1))
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
      for actions in plan {
        for action in actions { blackHole(reducer.reduce(into: &state, action: action)) }
      }
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
  let table = SwipeTableState(
    rows: IdentifiedArray(uniqueElements: (0..<rows).map { Row(id: $0, swipe: benchCell) }))
  // REWIND_BENCH_SWIPE_CHECKPOINTS=default measures with the store's default checkpoint interval.
  let defaultCheckpoints = ProcessInfo.processInfo.environment["REWIND_BENCH_SWIPE_CHECKPOINTS"] == "default"
  let history = HistoryConfiguration<SwipeTableAction<Int>>(
    checkpointInterval: defaultCheckpoints ? 1_024 : 1 << 40)
  let seconds = medianSeconds(repetitions: 5) {
    let store = Store(initialState: table, reducer: SwipeTable<Row>(), history: history)
    store.send(.row(IdentifiedAction(id: 0, action: .show(.rightToLeft, animated: false, at: 0))))
    store.send(.row(IdentifiedAction(id: 0, action: .panBegan(translation: SwipeVector(x: -1), at: 0))))
    for event in 0..<events {
      let x = -1 - Double(event % 200)
      store.send(.row(IdentifiedAction(id: 0, action: .panChanged(translation: SwipeVector(x: x), at: 0))))
    }
    blackHole(store.state.openRowIDs)
  }
  return seconds / Double(events) * 1e6
}

/// A row of a mail list: a sender and a subject beside the swipe state.
private struct MailRow: SwipeTableRow {
  var id: Int
  var sender: String
  var subject: String
  var swipe: SwipeCellState
}

/// Nanoseconds per display frame while one row's release animation runs: the view samples every animating
/// row at the frame's time and lays out its content, containers and buttons. `rows == nil`: a lone cell.
private func frameNanoseconds(rows: Int?) -> Double {
  let frames = 200_000
  var cell = benchCell
  cell.rightSettings.transition = .clipCenter
  let reducer = SwipeCell()
  var table = SwipeTableState(
    rows: IdentifiedArray(
      uniqueElements: (0..<(rows ?? 1)).map {
        MailRow(
          id: $0, sender: "sender\($0)@example.com", subject: "Subject line of mail number \($0)", swipe: cell
        )
      }))
  let animating = (rows ?? 1) / 2
  for action: SwipeCellAction in [
    .panBegan(translation: SwipeVector(x: -1), at: 0), .panChanged(translation: SwipeVector(x: -120), at: 0),
    .panEnded(translation: SwipeVector(x: -120), velocity: .zero, at: 0),
  ] {
    _ = SwipeTable<MailRow>(cell: reducer).reduce(
      into: &table, action: .row(IdentifiedAction(id: animating, action: action)))
  }
  let state = table
  let seconds = medianSeconds(repetitions: 7) {
    var sum = 0.0
    for frame in 0..<frames {
      let now = 0.3 * Double(frame % 100) / 100
      for id in state.animatingRowIDs {
        guard let row = state.rows[id: id] else { continue }
        let shown = row.swipe.presentation(at: now)
        sum += SwipeGeometry.contentTranslation(shown)
        sum += SwipeGeometry.containerTranslation(shown, side: .rightToLeft)
        for button in SwipeGeometry.buttonFrames(shown, side: .rightToLeft) { sum += button.x }
      }
    }
    blackHole(sum)
  }
  return seconds / Double(frames) * 1e9
}
