import Foundation
import Observation
import Rewind
import Synchronization

/// Suite `views`: a list screen of 1,000 rows (an id, a title, a subtitle, a flag and a swipe offset),
/// one view per row observing its row store, and one list view observing the ids; each send edits one row.
/// Views are told on the main actor, which this suite runs as the main run loop while a worker sends.
let viewsSuite = Suite(
  name: "views", summary: "view observation: invalidations per send, sends/s with row views"
) {
  reporter in
  // REWIND_BENCH_SENDS shortens the throughput runs, e.g. for counting instructions under valgrind.
  let sends = ProcessInfo.processInfo.environment["REWIND_BENCH_SENDS"].flatMap { Int($0) } ?? 100_000
  // REWIND_BENCH_VIEWS=send runs only the sends-per-second figures, e.g. to profile them.
  let only = ProcessInfo.processInfo.environment["REWIND_BENCH_VIEWS"]
  let results = onWorkerWhileMainRunLoopTurns {
    var results: [Measurement] = []
    if only == "send" {
      let (observed, plain) = sendRates(rows: 1_000, sends: sends)
      return [
        Measurement(name: "views/send-1000-observers", unit: "sends/s", median: observed, baseline: plain)
      ]
    }
    for rows in [1_000, 10] {
      let suffix = rows == 1_000 ? "" : "-rows=\(rows)"
      let perSend = invalidationsPerSend(rows: rows, sends: 1_000)
      results.append(
        Measurement(name: "views/invalidations-per-send\(suffix)", unit: "views", median: perSend))
      let perTick = invalidationsPerTick(rows: rows, ticks: 1_000)
      results.append(Measurement(name: "views/tick-invalidations\(suffix)", unit: "views", median: perTick))
      let (observed, plain) = sendRates(rows: rows, sends: sends)
      let name = rows == 1_000 ? "views/send-1000-observers" : "views/send-\(rows)-observers-rows=\(rows)"
      results.append(Measurement(name: name, unit: "sends/s", median: observed, baseline: plain))
    }
    for rows in [1_000, 10_000] {
      if let bytes = observationBytesPerRow(rows: rows) {
        results.append(
          Measurement(name: "views/observer-memory-rows=\(rows)", unit: "bytes/row", median: bytes))
      }
    }
    return results
  }
  results.forEach(reporter.report)
}

/// The list screen's feature.
struct ViewsBenchList: Reducer {
  struct Row: Identifiable, Equatable, Sendable {
    var id: Int
    var title: String
    var subtitle: String
    var isFlagged = false
    /// Where the row's swipe animation is, in points: what an animation tick changes.
    var offset = 0.0
  }

  enum RowAction: Sendable {
    case toggleFlag
    case rename(String)
    case tick(offset: Double)
  }

  struct State: Equatable, Sendable {
    var rows: IdentifiedArray<Row>
    var query = ""

    init(rows count: Int) {
      rows = IdentifiedArray(
        uniqueElements: (0..<count).map {
          Row(id: $0, title: "Quarterly report, draft \($0)", subtitle: "From someone with a long name \($0)")
        })
    }
  }

  enum Action: Sendable { case row(IdentifiedAction<Int, RowAction>) }

  static let rowPath = ActionPath<Action, IdentifiedAction<Int, RowAction>>(
    embed: Action.row, extract: { if case .row(let action) = $0 { action } else { nil } })

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard case .row(let addressed) = action, let index = state.rows.index(id: addressed.id) else {
      return .none
    }
    state.rows.updateElement(at: index) { row in
      switch addressed.action {
      case .toggleFlag: row.isFlagged.toggle()
      case .rename(let title): row.title = title
      case .tick(let offset): row.offset = offset
      }
    }
    return .none
  }
}

typealias ViewsBenchStore = Store<ViewsBenchList.State, ViewsBenchList.Action>

/// A view of one row: draws its title, flag and offset; re-renders when told (inside the notification,
/// on the main actor).
final class BenchRowView: Sendable {
  let store: ScopedStore<ViewsBenchList.Row, ViewsBenchList.RowAction>
  let renders: Atomic<Int>

  init(store: ScopedStore<ViewsBenchList.Row, ViewsBenchList.RowAction>) {
    self.store = store
    renders = Atomic(0)
    render()
  }

  func render() {
    withObservationTracking {
      blackHole((store.title, store.isFlagged, store.offset))
    } onChange: { [self] in
      renders.add(1, ordering: .relaxed)
      render()
    }
  }
}

/// The list's view: lays out its rows by id; re-renders when the ids change.
final class BenchListView: Sendable {
  let store: ViewsBenchStore
  let renders: Atomic<Int>

  init(store: ViewsBenchStore) {
    self.store = store
    renders = Atomic(0)
    render()
  }

  func render() {
    withObservationTracking {
      blackHole(store.scope(state: \.rows, action: ViewsBenchList.rowPath).count)
    } onChange: { [self] in
      renders.add(1, ordering: .relaxed)
      render()
    }
  }
}

/// The screen: a store, the list view and one view per row.
struct BenchScreen {
  let store: ViewsBenchStore
  let list: BenchListView
  let rows: [BenchRowView]

  init(rows count: Int) {
    let store = Store(initialState: ViewsBenchList.State(rows: count), reducer: ViewsBenchList())
    self.store = store
    // Views are made on the main actor, as SwiftUI makes them.
    (list, rows) = DispatchQueue.main.sync {
      (
        BenchListView(store: store),
        store.scope(state: \.rows, action: ViewsBenchList.rowPath).map { BenchRowView(store: $0) }
      )
    }
  }

  /// Renders of every view so far.
  var renders: Int {
    rows.reduce(list.renders.load(ordering: .relaxed)) { $0 + $1.renders.load(ordering: .relaxed) }
  }
}

/// Waits until the main actor has run what was queued on it so far.
private func drainMainQueue() {
  DispatchQueue.main.sync {}
}

/// Waits until `store`'s views were told of every send so far (a flush may be paced: see
/// `waitForViewUpdates`). Called from the worker thread.
private func waitForViews(_ store: ViewsBenchStore) {
  let told = DispatchSemaphore(value: 0)
  Task {
    await store.waitForViewUpdates()
    told.signal()
  }
  told.wait()
}

/// Views re-rendered per send when each send edits one row and the views are told before the next.
private func invalidationsPerSend(rows: Int, sends: Int) -> Double {
  let screen = BenchScreen(rows: rows)
  var random = SplitMix64(seed: 19)
  let titles = (0..<64).map { "Renamed quarterly report \($0)" }
  for step in 0..<sends {
    let id = Int(random.next() % UInt64(rows))
    let edit: ViewsBenchList.RowAction = step.isMultiple(of: 2) ? .toggleFlag : .rename(titles[step % 64])
    screen.store.send(.row(IdentifiedAction(id: id, action: edit)))
    waitForViews(screen.store)
  }
  return Double(screen.renders) / Double(sends)
}

/// Views re-rendered per animation tick of one row (a send that moves one row's swipe offset).
private func invalidationsPerTick(rows: Int, ticks: Int) -> Double {
  let screen = BenchScreen(rows: rows)
  let id = rows / 2
  for tick in 0..<ticks {
    screen.store.send(.row(IdentifiedAction(id: id, action: .tick(offset: Double(tick) * 0.5))))
    waitForViews(screen.store)
  }
  return Double(screen.renders) / Double(ticks)
}

/// Sends per second with a view on every row and the list's view, and the same sends with no view; each
/// time runs from the first send until every view was told of the last one.
private func sendRates(rows: Int, sends: Int) -> (observed: Double, plain: Double) {
  func rate(observed: Bool) -> Double {
    var samples: [Double] = []
    for run in 0..<4 {
      let screen: BenchScreen? = observed ? BenchScreen(rows: rows) : nil
      let store =
        screen?.store ?? Store(initialState: ViewsBenchList.State(rows: rows), reducer: ViewsBenchList())
      var random = SplitMix64(seed: UInt64(run))
      let ids = (0..<1_024).map { _ in Int(random.next() % UInt64(rows)) }
      drainMainQueue()
      let seconds = time {
        for step in 0..<sends {
          store.send(.row(IdentifiedAction(id: ids[step & 1_023], action: .toggleFlag)))
        }
        waitForViews(store)
      }
      if run > 0 { samples.append(Double(sends) / seconds) }  // the first run warms up
      withExtendedLifetime(screen) {}
    }
    return median(samples)
  }
  let plain = rate(observed: false)
  let observed = rate(observed: true)
  return (observed, plain)
}

/// Resident bytes per row that observing every row of a list adds (row stores, their nodes, the views'
/// registrations, and the copy of the rows' buffer a send makes while views hold the previous state), as
/// the process's resident memory grows (/proc/self/statm, after giving freed memory back); `nil` where
/// that cannot be read.
private func observationBytesPerRow(rows: Int) -> Double? {
  let store = Store(initialState: ViewsBenchList.State(rows: rows), reducer: ViewsBenchList())
  drainMainQueue()
  viewsTrimHeap()
  guard let before = viewsResidentBytes() else { return nil }
  let views = DispatchQueue.main.sync {
    store.scope(state: \.rows, action: ViewsBenchList.rowPath).map { BenchRowView(store: $0) }
  }
  store.send(.row(IdentifiedAction(id: 0, action: .toggleFlag)))
  drainMainQueue()
  guard let after = viewsResidentBytes() else { return nil }
  withExtendedLifetime(views) {}
  return Double(after - before) / Double(rows)
}

/// The process's resident memory in bytes, from /proc/self/statm.
private func viewsResidentBytes() -> Int? {
  guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
  let fields = statm.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Gives freed memory back to the system (glibc's `malloc_trim`, looked up at run time), where it exists.
private func viewsTrimHeap() {
  guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
  let trim = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
  _ = trim(0)
}

/// Runs `body` on a worker thread while the main thread turns the main run loop (which drains the main
/// queue, where views are told of changes), and returns its result.
private func onWorkerWhileMainRunLoopTurns<Result: Sendable>(_ body: @escaping @Sendable () -> Result)
  -> Result
{
  let result = Mutex<Result?>(nil)
  Thread.detachNewThread {
    let value = body()
    result.withLock { $0 = value }
    DispatchQueue.main.async {}  // wakes the run loop
  }
  while true {
    if let value = result.withLock({ $0 }) { return value }
    _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
  }
}
