import Foundation
import Rewind
import RewindTesting

/// Suite `effects`: what effect lifetimes cost a send. A row action through `forEach` on a list of rows
/// with a title string, with no effect running, then with one row's timer running (sleeping on a clock
/// nobody advances), when the `forEach` checks on every action which element effects to end.
/// Baseline: the same sends with no effect running.
let effectsSuite = Suite(name: "effects", summary: "sends through forEach with and without child effects") {
  reporter in
  // REWIND_BENCH_SENDS shortens the run, e.g. for counting instructions under valgrind.
  let sends = ProcessInfo.processInfo.environment["REWIND_BENCH_SENDS"].flatMap { Int($0) } ?? 200_000
  // REWIND_BENCH_EFFECTS=idle or =running measures one configuration only (for callgrind).
  let only = ProcessInfo.processInfo.environment["REWIND_BENCH_EFFECTS"]
  for rows in [10, 5_000] {
    let idle =
      only == nil || only == "idle" ? rowSendRate(rows: rows, sends: sends, timerRunning: false) : nil
    if let idle {
      reporter.report(Measurement(name: "effects/foreach-send-rows=\(rows)", unit: "sends/s", median: idle))
    }
    if only == nil || only == "running" {
      let running = rowSendRate(rows: rows, sends: sends, timerRunning: true)
      reporter.report(
        Measurement(
          name: "effects/foreach-send-effect-running-rows=\(rows)", unit: "sends/s", median: running,
          baseline: idle))
    }
  }
}

/// A list of rows with titles; a row can be renamed or start a timer.
struct BenchList: Reducer {
  struct Row: Identifiable, Equatable, Sendable {
    var id: Int
    var title: String
    var isRead = false
  }

  struct State: Equatable, Sendable { var rows: IdentifiedArray<Row> }

  enum RowAction: Sendable { case rename(String), startTimer }

  enum Action: Sendable {
    case row(IdentifiedAction<Int, RowAction>)
    static let rowPath = ActionPath<Action, IdentifiedAction<Int, RowAction>>(
      embed: Action.row, extract: { if case .row(let action) = $0 { action } else { nil } })
  }

  let clock: ManualClock

  var body: some Reducer<State, Action> {
    EmptyReducer<State, Action>()
      .forEach(\.rows, action: Action.rowPath) {
        Reduce<Row, RowAction> { [clock] row, action in
          switch action {
          case .rename(let title):
            row.title = title
            return .none
          case .startTimer:
            return .run { _ in
              while true { try await clock.sleep(for: .seconds(1)) }
            }
          }
        }
      }
  }
}

/// Renames per second of rows of a `rows`-row list, optionally while row 0's timer runs.
private func rowSendRate(rows: Int, sends: Int, timerRunning: Bool) -> Double {
  let titles = ["Quarterly report draft", "Re: lunch on Friday?"]
  var samples: [Double] = []
  for run in 0..<4 {
    let clock = ManualClock()
    let state = BenchList.State(
      rows: IdentifiedArray(uniqueElements: (0..<rows).map { BenchList.Row(id: $0, title: "Mail \($0)") }))
    let store = Store(initialState: state, reducer: BenchList(clock: clock))
    if timerRunning { store.send(.row(IdentifiedAction(id: 0, action: .startTimer))) }
    let seconds = time {
      for index in 0..<sends {
        store.send(.row(IdentifiedAction(id: index % rows, action: .rename(titles[index & 1]))))
      }
    }
    store.cancelAllEffects()
    if run > 0 { samples.append(Double(sends) / seconds) }  // the first run warms up
  }
  return median(samples)
}
