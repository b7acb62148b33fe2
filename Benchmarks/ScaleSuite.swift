import Foundation
import Rewind
import RewindDiff
import RewindLog

/// Suite `scale`: what a one-row edit costs as the state grows, from 1,000 to 1,000,000 rows (an id, a
/// title string and a flag each).
///
/// - `scale/<config>-rows=<N>`: µs per send, each send toggling one random row; `baseline` is the same edit
///   on a plain Swift array of N rows in a loop. Configurations: `undo-off`; `undo-on` (every action an undo
///   step, limit 100); `subscriber` (one `changesets(of:)` subscriber); `file` (file journal, grouped
///   durability; the time of the sends, the syncs run beside them); `all` (the last three together).
///   Median of five runs of 20,000 sends, on a state built before the clock starts.
/// - `scale/growth-<config>-rows=<N>`: the store's own cost at N rows (the median minus the same edit of a
///   kept version of the list alone, `scale/edit-by-id-kept-rows=N`) over the same at the first size, from
///   this run: the growth goals.
/// - `scale/undo-memory-rows=100000`: heap bytes retained by 100 undo steps (a store with undo after 100
///   sends, minus the same store without undo after the same sends).
/// - `scale/state-memory-rows=100000`: heap bytes of the state itself, its title strings included;
///   `baseline`: a plain array of the same rows plus a dictionary from id to index.
/// - `scale/iterate-rows=100000`: µs to read every row; `baseline`: the same loop over a plain array.
/// - `scale/diff-one-row-rows=1000000`: µs to diff two versions of the list one row apart (what a changeset
///   subscriber computes); `baseline`: the general diff of the same two lists as plain arrays.
/// - `scale/edit-by-id-rows=N`, `scale/edit-by-id-kept-rows=N`, `scale/array-latency-rows=N`: the same edits
///   without a store, the floors under the growth goals (see `editFloors(rows:ids:)`).
///
/// Heap bytes are glibc's own count of bytes in use (`malloc_info`: arena memory not free, plus mapped
/// chunks), read before and after; see `mallocBytesInUse()`.
///
/// Environment: `REWIND_BENCH_SCALE_ROWS=1000,100000` and `REWIND_BENCH_SCALE_CONFIGS=undo-on,file` pick
/// sizes and configurations; `REWIND_BENCH_SENDS` sets the sends per run; `REWIND_BENCH_SCALE_ONLY=sends`
/// or `=other` runs one half, and `=undo-memory`, `=state-memory`, `=iterate`, `=diff` or `=floors` one measurement.
let scaleSuite = Suite(name: "scale", summary: "one-row edits of 1,000 to 1,000,000 rows: time, memory, diff")
{
  reporter in
  let environment = ProcessInfo.processInfo.environment
  let sizes =
    environment["REWIND_BENCH_SCALE_ROWS"].map { $0.split(separator: ",").compactMap { Int($0) } }
    ?? [1_000, 10_000, 100_000, 1_000_000]
  let configs =
    environment["REWIND_BENCH_SCALE_CONFIGS"].map { $0.split(separator: ",").map(String.init) }
    ?? ScaleConfig.allCases.map(\.rawValue)
  let sends = environment["REWIND_BENCH_SENDS"].flatMap { Int($0) } ?? 20_000
  let only = environment["REWIND_BENCH_SCALE_ONLY"]

  if only == nil || only == "sends" {
    // The store's own cost (median minus the kept-version edit) by configuration, then by size: the growth
    // goals.
    var ownCost: [String: [Int: Double]] = [:]
    for rows in sizes {
      let state = ScaleList.State(rows: rows)
      var random = SplitMix64(seed: UInt64(rows))
      let ids = (0..<sends).map { _ in Int.random(in: 0..<rows, using: &random) }
      let baseline = plainArrayMicroseconds(rows: rows, ids: ids)
      let keptEdit = keptEditMicroseconds(rows: rows, ids: ids)
      for name in configs {
        guard let config = ScaleConfig(rawValue: name) else { throw ScaleFailure.unknownConfig(name) }
        var samples: [Double] = []
        for _ in 0..<5 { samples.append(try sendMicroseconds(config, state: state, ids: ids)) }
        reporter.report(
          Measurement(
            name: "scale/\(name)-rows=\(rows)", unit: "us", median: median(samples), baseline: baseline))
        ownCost[name, default: [:]][rows] = median(samples) - keptEdit
      }
    }
    reportGrowth(ownCost, sizes: sizes, configs: configs, reporter: reporter)
  }
  guard only != "sends" else { return }
  let runs = { (name: String) in only == nil || only == "other" || only == name }
  if runs("undo-memory") { reporter.report(try undoMemory(rows: 100_000)) }
  if runs("state-memory") { reporter.report(stateMemory(rows: 100_000)) }
  if runs("iterate") { reporter.report(iteration(rows: 100_000)) }
  if runs("diff") { reporter.report(diffOneRow(rows: 1_000_000)) }
  if runs("floors") {
    for rows in sizes {
      var random = SplitMix64(seed: UInt64(rows))
      let ids = (0..<sends).map { _ in Int.random(in: 0..<rows, using: &random) }
      for measurement in editFloors(rows: rows, ids: ids) { reporter.report(measurement) }
    }
  }
}

/// `scale/growth-<config>-rows=<N>`: the store's own cost (above the same edit of a kept version of its
/// list) at N rows over the same at the first size (1,000 by default), from the same run, which is what the
/// growth goals compare (≤ 2 at 100,000 rows, ≤ 3 at 1,000,000); unit `x`.
private func reportGrowth(
  _ ownCost: [String: [Int: Double]], sizes: [Int], configs: [String], reporter: Reporter
) {
  guard let first = sizes.first else { return }
  for name in configs {
    guard let costs = ownCost[name], let reference = costs[first], reference > 0 else { continue }
    for rows in sizes.dropFirst() {
      guard let cost = costs[rows] else { continue }
      reporter.report(
        Measurement(name: "scale/growth-\(name)-rows=\(rows)", unit: "x", median: cost / reference))
    }
  }
}

enum ScaleConfig: String, CaseIterable {
  case undoOff = "undo-off"
  case undoOn = "undo-on"
  case subscriber
  case file
  case all
}

enum ScaleFailure: Error {
  case unknownConfig(String)
  case noFileJournal
}

struct ScaleList: Reducer {
  struct Row: Identifiable, Equatable, Sendable, Differentiable {
    var id: Int
    var title: String
    var flag = false
    var differenceIdentifier: Int { id }
  }

  struct State: Equatable, Sendable {
    var rows: IdentifiedArray<Row>

    init(rows count: Int) { rows = IdentifiedArray(uniqueElements: (0..<count).map(ScaleList.row)) }
  }

  /// An app-shaped row: its title is longer than 15 bytes, so each is a string on the heap.
  static func row(_ id: Int) -> Row { Row(id: id, title: "Row \(id): a title of a row") }

  func reduce(into state: inout State, action: BenchNote) -> Effect<BenchNote> {
    switch action {
    case .toggle(let id): state.rows[id: id]?.flag.toggle()
    case .rename(let id, let title): state.rows[id: id]?.title = title
    }
    return .none
  }
}

/// µs per toggle of a random row of a plain array of `rows` rows: the floor of any list state.
private func plainArrayMicroseconds(rows: Int, ids: [Int]) -> Double {
  var array = (0..<rows).map(ScaleList.row)
  let ids = opaque(ids)
  let seconds = medianSeconds(repetitions: 5) {
    for id in ids { array[id].flag.toggle() }
  }
  blackHole(array)
  return seconds / Double(ids.count) * 1e6
}

private func scaleDirectory() -> String {
  NSTemporaryDirectory() + "/rewind-bench-scale-\(UInt64.random(in: 0...UInt64.max))"
}

/// µs per send for one run of `config`: a fresh store on `state` (shared, not copied), `ids.count` sends.
private func sendMicroseconds(_ config: ScaleConfig, state: ScaleList.State, ids: [Int]) throws -> Double {
  let undo = config == .undoOn || config == .all
  let history: HistoryConfiguration<BenchNote> =
    undo ? HistoryConfiguration(undoLimit: 100) { _ in .step } : .standard
  let directory = scaleDirectory()
  defer { try? FileManager.default.removeItem(atPath: directory) }
  let store: Store<ScaleList.State, BenchNote>
  if config == .file || config == .all {
    store = try Store.open(
      directory: directory, initialState: state, reducer: ScaleList(),
      options: FileJournalOptions(durability: .grouped()), history: history)
  } else {
    store = Store(initialState: state, reducer: ScaleList(), history: history)
  }
  let subscribed = config == .subscriber || config == .all
  let started = DispatchSemaphore(value: 0)
  let done = DispatchSemaphore(value: 0)
  let last = UInt64(ids.count)
  if subscribed {
    Task.detached {
      for await update in store.changesets(of: \.rows) {
        if update.isInitial { started.signal() }
        if update.sequence == last { break }
      }
      done.signal()
    }
    started.wait()
  }
  let seconds = time {
    for id in ids { store.send(.toggle(id: id)) }
  }
  if subscribed { done.wait() }
  if config == .file || config == .all {
    guard let journal = store.journal as? FileJournal<BenchNote> else { throw ScaleFailure.noFileJournal }
    try journal.close()
  }
  return seconds / Double(ids.count) * 1e6
}

/// Heap bytes retained by 100 undo steps of one-row edits of a list of `rows` rows.
///
/// Measured in a steady state: first every leaf of the list is changed once, so that the live state shares
/// nothing with the store's first checkpoint (which keeps the initial state), and a barrier empties the undo
/// stack; then 100 one-row edits. The same is done without undo, and the difference is what the 100 steps
/// keep (the 100 journal events cancel out).
private func undoMemory(rows: Int) throws -> Measurement {
  var random = SplitMix64(seed: 100)
  let ids = (0..<100).map { _ in Int.random(in: 0..<rows, using: &random) }
  func growth(undo: Bool) -> Int {
    let history: HistoryConfiguration<BenchNote> =
      // Checkpoints spaced beyond the run: only the first (the initial state) is kept.
      undo
      ? HistoryConfiguration(undoLimit: 100, checkpointInterval: 1 << 40) { action in
        if case .rename = action { return .barrier }
        return .step
      } : HistoryConfiguration(checkpointInterval: 1 << 40)
    let store = Store(initialState: ScaleList.State(rows: rows), reducer: ScaleList(), history: history)
    for id in stride(from: 0, to: rows, by: 8) { store.send(.toggle(id: id)) }
    store.send(.rename(id: -1, title: "barrier"))  // no such row: only empties the undo stack
    let before = mallocBytesInUse()
    for id in ids { store.send(.toggle(id: id)) }
    let after = mallocBytesInUse()
    blackHole(store)
    return after - before
  }
  _ = growth(undo: false)  // warms up the allocator's caches
  let withUndo = growth(undo: true)
  let withoutUndo = growth(undo: false)
  return Measurement(
    name: "scale/undo-memory-rows=\(rows)", unit: "bytes", median: Double(withUndo - withoutUndo))
}

/// Heap bytes of a state of `rows` rows, beside a plain array and dictionary of the same rows.
private func stateMemory(rows: Int) -> Measurement {
  var before = mallocBytesInUse()
  let state = ScaleList.State(rows: rows)
  let stateBytes = mallocBytesInUse() - before
  blackHole(state)
  before = mallocBytesInUse()
  let array = (0..<rows).map(ScaleList.row)
  var positions: [Int: Int] = [:]
  for (position, row) in array.enumerated() { positions[row.id] = position }
  let plainBytes = mallocBytesInUse() - before
  blackHole((array, positions))
  return Measurement(
    name: "scale/state-memory-rows=\(rows)", unit: "bytes", median: Double(stateBytes),
    baseline: Double(plainBytes))
}

/// µs to read every row of a list of `rows` rows (counting flags), beside the same loop over an array.
private func iteration(rows: Int) -> Measurement {
  var state = ScaleList.State(rows: rows)
  for id in stride(from: 0, to: rows, by: 3) { state.rows[id: id]?.flag = true }
  let array = Array(state.rows)
  // Read through `opaque` inside the timed closure, so that the loop cannot be moved out of the timing.
  let rowsOpaque = state.rows
  let arrayOpaque = array
  let repetitions = ProcessInfo.processInfo.environment["REWIND_BENCH_SCALE_ONLY"] == "iterate" ? 501 : 21
  let ours = medianSeconds(repetitions: repetitions) {
    var count = 0
    for row in opaque(rowsOpaque) where row.flag { count &+= 1 }
    _ = opaque(count)
  }
  let plain = medianSeconds(repetitions: 21) {
    var count = 0
    for row in opaque(arrayOpaque) where row.flag { count &+= 1 }
    _ = opaque(count)
  }
  return Measurement(
    name: "scale/iterate-rows=\(rows)", unit: "us", median: ours * 1e6, baseline: plain * 1e6)
}

/// µs to diff a list of `rows` rows against itself with one random row edited.
private func diffOneRow(rows: Int) -> Measurement {
  let source = ScaleList.State(rows: rows).rows
  var random = SplitMix64(seed: 7)
  var samples: [Double] = []
  var targets: [IdentifiedArray<ScaleList.Row>] = []
  for _ in 0..<200 {
    var target = source
    target[id: Int.random(in: 0..<rows, using: &random)]?.title = "edited"
    targets.append(target)
  }
  for target in targets {
    samples.append(time { blackHole(IdentifiedArray.stagedChangeset(from: source, to: target)) })
  }
  let sourceArray = Array(source)
  let targetArray = Array(targets[0])
  let general = medianSeconds(repetitions: 5) {
    blackHole(StagedChangeset(source: sourceArray, target: targetArray))
  }
  return Measurement(
    name: "scale/diff-one-row-rows=\(rows)", unit: "us", median: median(samples) * 1e6,
    baseline: general * 1e6)
}

/// Bytes the C allocator has handed out and not had back: glibc's `malloc_info` report (its arenas'
/// memory minus their free chunks, plus chunks mapped on their own). The process's resident size would
/// count pages, and pages the allocator keeps after a free.
func mallocBytesInUse() -> Int {
  guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_info") else { return 0 }
  let mallocInfo = unsafeBitCast(
    symbol, to: (@convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32).self)
  var buffer: UnsafeMutablePointer<CChar>?
  var size = 0
  guard let stream = open_memstream(&buffer, &size) else { return 0 }
  _ = mallocInfo(0, stream)
  fclose(stream)
  guard let buffer else { return 0 }
  defer { free(buffer) }
  let report = String(cString: buffer)
  // The totals over every arena follow the last </heap>.
  guard let totals = report.range(of: "</heap>", options: .backwards).map({ report[$0.upperBound...] }) else {
    return 0
  }
  func value(_ tag: String, _ type: String) -> Int {
    guard let start = totals.range(of: "<\(tag) type=\"\(type)\"") else { return 0 }
    let rest = totals[start.upperBound...]
    guard let sizeStart = rest.range(of: "size=\"") else { return 0 }
    let digits = rest[sizeStart.upperBound...].prefix { $0.isNumber }
    return Int(digits) ?? 0
  }
  return value("system", "current") - value("total", "fast") - value("total", "rest") + value("total", "mmap")
}
