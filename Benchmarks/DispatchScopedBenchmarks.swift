import Foundation
import Rewind

/// An app that composes two children, as apps do: a counter under `Scope`, and rows (a title and a flag
/// each) under `forEach`. Its action paths are hand-written or made from the case alone
/// (`.case(Action.counter)`), built in `body` on every send as an app writes them.
struct BenchScopedApp: Reducer {
  struct Row: Identifiable, Equatable, Sendable {
    var id: Int
    var title: String
    var isDone = false
  }

  struct State: Equatable, Sendable {
    var counter = BenchCounter.State()
    var rows: IdentifiedArray<Row>
  }

  enum RowAction: Sendable { case toggle }

  enum Action: Sendable {
    case counter(BenchCounter.Action)
    case rows(IdentifiedAction<Int, RowAction>)
    case rename(String)

    static let counterPath = ActionPath<Action, BenchCounter.Action>(
      embed: Action.counter, extract: { if case .counter(let action) = $0 { action } else { nil } })
    static let rowsPath = ActionPath<Action, IdentifiedAction<Int, RowAction>>(
      embed: Action.rows, extract: { if case .rows(let action) = $0 { action } else { nil } })
  }

  let reflected: Bool

  var body: some Reducer<State, Action> {
    Scope(state: \.counter, action: reflected ? .case(Action.counter) : Action.counterPath) { BenchCounter() }
    Reduce<State, Action> { state, action in
      if case .rename(let title) = action, !state.rows.isEmpty { state.rows[0].title = title }
      return .none
    }
    .forEach(\.rows, action: reflected ? .case(Action.rows) : Action.rowsPath) {
      Reduce<Row, RowAction> { row, _ in
        row.isDone.toggle()
        return .none
      }
    }
  }

  static func rows(_ count: Int) -> IdentifiedArray<Row> {
    IdentifiedArray(uniqueElements: (0..<count).map { Row(id: $0, title: "Row \($0)") })
  }
}

/// `dispatch/scoped-*`: sends through the composed app, the hand-written paths as the baseline of the
/// paths made from cases, measured alternately in one process. The small case sends counter actions to an
/// app without rows; the app-shaped one toggles rows of 5,000 by id.
func reportScopedDispatch(sends: Int, reporter: Reporter) {
  for rowCount in [0, 5_000] {
    var handWritten: [Double] = []
    var reflected: [Double] = []
    for run in 0..<5 {
      let manual = scopedSendRate(reflected: false, rows: rowCount, sends: sends)
      let fromCases = scopedSendRate(reflected: true, rows: rowCount, sends: sends)
      if run > 0 {  // the first run warms up
        handWritten.append(manual)
        reflected.append(fromCases)
      }
    }
    let suffix = rowCount == 0 ? "" : "-rows=\(rowCount)"
    reporter.report(
      Measurement(name: "dispatch/scoped-handwritten\(suffix)", unit: "sends/s", median: median(handWritten)))
    reporter.report(
      Measurement(
        name: "dispatch/scoped-reflected\(suffix)", unit: "sends/s", median: median(reflected),
        baseline: median(handWritten)))
  }
}

private func scopedSendRate(reflected: Bool, rows: Int, sends: Int) -> Double {
  let store = Store(
    initialState: BenchScopedApp.State(rows: BenchScopedApp.rows(rows)),
    reducer: BenchScopedApp(reflected: reflected))
  let seconds = time {
    if rows == 0 {
      for _ in 0..<sends { store.send(.counter(.increment)) }
    } else {
      for index in 0..<sends { store.send(.rows(IdentifiedAction(id: index % rows, action: .toggle))) }
    }
  }
  blackHole(store.state.counter.count)
  return Double(sends) / seconds
}
