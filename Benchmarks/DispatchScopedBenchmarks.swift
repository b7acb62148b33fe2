import Foundation
import Rewind

/// An app that composes two children, as apps do: a counter under `Scope`, and rows (a title and a flag
/// each) under `forEach`. Its action paths are hand-written (`static let`s), or made from the case alone
/// (`.case(Action.counter)`): in `body`, so built on every send, as an app writes them, or once, in
/// `static let`s.
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
    static let counterCase = ActionPath(Action.counter)
    static let rowsCase = ActionPath(Action.rows)
  }

  /// How the action paths are made.
  enum Paths: String, CaseIterable { case handwritten, reflected, reflectedStatic = "reflected-static" }

  let paths: Paths

  var counterPath: ActionPath<Action, BenchCounter.Action> {
    switch paths {
    case .handwritten: Action.counterPath
    case .reflected: .case(Action.counter)
    case .reflectedStatic: Action.counterCase
    }
  }

  var rowsPath: ActionPath<Action, IdentifiedAction<Int, RowAction>> {
    switch paths {
    case .handwritten: Action.rowsPath
    case .reflected: .case(Action.rows)
    case .reflectedStatic: Action.rowsCase
    }
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.counter, action: counterPath) { BenchCounter() }
    Reduce<State, Action> { state, action in
      if case .rename(let title) = action, !state.rows.isEmpty { state.rows[0].title = title }
      return .none
    }
    .forEach(\.rows, action: rowsPath) {
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
/// paths made from cases, measured in turn in one process. The small case sends counter actions to an
/// app without rows; the app-shaped one toggles rows of 5,000 by id. For callgrind, `REWIND_BENCH_PATHS`
/// picks one kind of path and `REWIND_BENCH_ROWS` one size (0 or 5000).
func reportScopedDispatch(sends: Int, reporter: Reporter) {
  let environment = ProcessInfo.processInfo.environment
  let only = environment["REWIND_BENCH_PATHS"].flatMap(BenchScopedApp.Paths.init)
  let kinds = only.map { [$0] } ?? BenchScopedApp.Paths.allCases
  let onlyRows = environment["REWIND_BENCH_ROWS"].flatMap { Int($0) }
  for rowCount in [0, 5_000] where onlyRows == nil || onlyRows == rowCount {
    var samples: [BenchScopedApp.Paths: [Double]] = [:]
    for run in 0..<5 {
      for paths in kinds {
        let rate = scopedSendRate(paths: paths, rows: rowCount, sends: sends)
        if run > 0 { samples[paths, default: []].append(rate) }  // the first run warms up
      }
    }
    let suffix = rowCount == 0 ? "" : "-rows=\(rowCount)"
    let baseline = samples[.handwritten].map(median)
    for paths in kinds {
      reporter.report(
        Measurement(
          name: "dispatch/scoped-\(paths.rawValue)\(suffix)", unit: "sends/s",
          median: median(samples[paths] ?? []),
          baseline: paths == .handwritten ? nil : baseline))
    }
  }
}

private func scopedSendRate(paths: BenchScopedApp.Paths, rows: Int, sends: Int) -> Double {
  let store = Store(
    initialState: BenchScopedApp.State(rows: BenchScopedApp.rows(rows)), reducer: BenchScopedApp(paths: paths)
  )
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
