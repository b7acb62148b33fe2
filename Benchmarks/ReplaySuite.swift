import Foundation
import Rewind
import RewindLog
import RewindTesting
import RewindTool

/// Suite `replay`: replay with fingerprint checks, a corpus, and what recording fingerprints costs a send.
///
/// - `replay/fingerprinted`: events per second that `RewindDebugger.replay(directory:)` replays and checks,
///   on the journal suite's events (`rename` of 1,000 notes) recorded by a store that fingerprints every
///   1,000 events; 100,000 events, median of 3. `baseline`: the same replay of the same events recorded
///   without fingerprints.
/// - `replay/corpus-1000x1000`: seconds for `replay --corpus` over 1,000 logs of 1,000 such events each
///   (every 100th fingerprinted), on every core (`activeProcessorCount` workers). One run; writing the
///   corpus is not timed.
/// - `scale/fingerprints-rows=100000`: µs per send toggling one random row of 100,000 app-shaped rows (an
///   id, a title string, a flag), the store recording a fingerprint every 1,000 events; `baseline`: the
///   same sends without fingerprints, in the same run; the ratio is the goal (≤ 1.10). Median of 5 runs of
///   20,000 sends. Also `-rows=1000`, the small case. `scale/fingerprints-listed-…`: the same with a row
///   type that lists its fields (`FieldFingerprinting`) instead of digesting through `Encoder`.
/// - `scale/fingerprint-first-rows=100000`: ms for the first fingerprint of a new state of 100,000 rows
///   that list their fields (every row digested); `baseline`: the same with rows digested through
///   `Encoder`. Median of 3.
/// - `scale/fingerprint-cache-rows=100000`: bytes per row that the digest caches hold after a state's
///   first fingerprint (resident memory before and after it); `baseline`: bytes per row of the state
///   itself. The leaves changed since the last fingerprint may hold up to twice their share.
///
/// Environment: `REWIND_BENCH_REPLAY_ONLY=fingerprinted`, `=corpus` or `=scale` runs one;
/// `REWIND_BENCH_FINGERPRINT_ROWS=N` runs the fingerprint costs at N rows only, and
/// `REWIND_BENCH_FINGERPRINT_ROW=encoded` or `=listed` one kind of row only (for callgrind);
/// `REWIND_BENCH_CORPUS=LOGSxEVENTS` (e.g. `100x1000`) sizes the corpus.
let replaySuite = Suite(name: "replay", summary: "replay with fingerprint checks, a corpus, fingerprint cost")
{ reporter in
  let environment = ProcessInfo.processInfo.environment
  let only = environment["REWIND_BENCH_REPLAY_ONLY"]
  if only == nil || only == "fingerprinted" { reporter.report(try fingerprintedReplay(count: 100_000)) }
  if only == nil || only == "corpus" {
    let size =
      environment["REWIND_BENCH_CORPUS"]?.split(separator: "x").compactMap { Int($0) } ?? [1_000, 1_000]
    reporter.report(
      try corpusReplay(logs: size.first ?? 1_000, events: size.last ?? 1_000, reporter: reporter))
  }
  if only == nil || only == "scale" {
    let sizes =
      environment["REWIND_BENCH_FINGERPRINT_ROWS"].flatMap { Int($0) }.map { [$0] } ?? [1_000, 100_000]
    let kind = environment["REWIND_BENCH_FINGERPRINT_ROW"]
    for rows in sizes {
      if kind == nil || kind == "encoded" {
        reporter.report(try fingerprintCost(rows: rows, FingerprintedList.self, name: "fingerprints"))
      }
      if kind == nil || kind == "listed" {
        reporter.report(try fingerprintCost(rows: rows, ListedList.self, name: "fingerprints-listed"))
      }
    }
    if let memory = try fingerprintCacheMemory(rows: 100_000) { reporter.report(memory) }
    reporter.report(try firstFingerprint(rows: 100_000))
  }
}

private func replayDirectory(_ name: String) -> String {
  NSTemporaryDirectory() + "/rewind-bench-replay-\(name)-\(UInt64.random(in: 0...UInt64.max))"
}

/// Records `count` of the journal suite's events through a store, fingerprinting every `interval` events
/// (none when `nil`).
private func recordLog(_ directory: String, count: Int, fingerprintEvery interval: UInt64?) throws {
  let store = try Store.open(
    directory: directory, initialState: BenchNotes.State(), reducer: BenchNotes(),
    options: FileJournalOptions(durability: .none, snapshotInterval: nil),
    fingerprints: interval.map { Fingerprinting(every: $0, build: BuildIdentity("bench 1")) } ?? .off)
  for sequence in 1...UInt64(count) {
    guard let action = benchEvent(sequence).action else { continue }
    store.send(action)
  }
  try store.close()
}

private func fingerprintedReplay(count: Int) throws -> Measurement {
  let debugger = RewindDebugger(reducer: BenchNotes(), initialState: BenchNotes.State())
  func rate(fingerprintEvery interval: UInt64?) throws -> Double {
    let directory = replayDirectory("rate")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try recordLog(directory, count: count, fingerprintEvery: interval)
    let seconds = try medianSeconds(repetitions: 3) {
      let report = try debugger.replay(directory: directory)
      guard report.isClean, report.lastSequence >= UInt64(count) else {
        throw BenchFailure.replayedWrongCount(report.lastSequence)
      }
      blackHole(report)
    }
    return Double(count) / seconds
  }
  let baseline = try rate(fingerprintEvery: nil)
  return Measurement(
    name: "replay/fingerprinted", unit: "events/s", median: try rate(fingerprintEvery: 1_000),
    baseline: baseline)
}

private func corpusReplay(logs: Int, events: Int, reporter: Reporter) throws -> Measurement {
  let corpus = replayDirectory("corpus")
  defer { try? FileManager.default.removeItem(atPath: corpus) }
  reporter.progress("replay: writing a corpus of \(logs) logs of \(events) events")
  for index in 0..<logs {
    try recordLog(corpus + "/log-\(index)", count: events, fingerprintEvery: 100)
  }
  let debugger = RewindDebugger(reducer: BenchNotes(), initialState: BenchNotes.State())
  let output = CapturedOutput()
  let seconds = time {
    let status = debugger.run(arguments: ["replay", "--corpus", corpus], output: output, errors: output)
    if status != 0 { reporter.progress("replay: the corpus replay exited \(status): \(output.text)") }
  }
  return Measurement(name: "replay/corpus-\(logs)x\(events)", unit: "s", median: seconds)
}

/// µs per send at `rows` rows with fingerprints every 1,000 events, beside the same without; rows digested
/// through `Encoder` (`FingerprintedList`) or by their listed fields (`ListedList`).
private func fingerprintCost<List: FingerprintedReducer>(rows: Int, _: List.Type, name: String) throws
  -> Measurement
{
  let state = List.State(rows: rows)
  var random = SplitMix64(seed: UInt64(rows))
  let ids = (0..<20_000).map { _ in Int.random(in: 0..<rows, using: &random) }
  func microseconds(_ fingerprints: Fingerprinting<List.State>) -> Double {
    let store = Store(initialState: state, reducer: List(), fingerprints: fingerprints)
    let seconds = time {
      for id in ids { store.send(.toggle(id: id)) }
    }
    blackHole(store.state)
    return seconds / Double(ids.count) * 1e6
  }
  var with: [Double] = []
  var without: [Double] = []
  for _ in 0..<5 {
    without.append(microseconds(.off))
    with.append(microseconds(Fingerprinting(every: 1_000, build: BuildIdentity("bench 1"))))
  }
  return Measurement(
    name: "scale/\(name)-rows=\(rows)", unit: "us", median: median(with), baseline: median(without))
}

/// Milliseconds for the first fingerprint of a state of `rows` rows that list their fields (every row
/// digested, every cache filled: what the first event due a fingerprint pays, on the sending thread),
/// beside the same rows digested through `Encoder`; median of 3, each of a new state.
private func firstFingerprint(rows: Int) throws -> Measurement {
  func milliseconds<State: FingerprintedState>(_: State.Type) throws -> Double {
    var samples: [Double] = []
    for _ in 0..<3 {
      let state = State(rows: rows)
      var fingerprint: StateFingerprint?
      samples.append(try time { fingerprint = try StateFingerprint.of(state) } * 1e3)
      blackHole(fingerprint)
    }
    return median(samples)
  }
  return Measurement(
    name: "scale/fingerprint-first-rows=\(rows)", unit: "ms", median: try milliseconds(ListedList.State.self),
    baseline: try milliseconds(FingerprintedList.State.self))
}

/// Bytes per row of the digest caches a first fingerprint fills, against the state's own bytes per row,
/// from the process's resident memory; `nil` where that cannot be read.
private func fingerprintCacheMemory(rows: Int) throws -> Measurement? {
  returnFreeMemoryToTheSystem()
  guard let empty = heapBytesInUse() else { return nil }
  let state = FingerprintedList.State(rows: rows)
  returnFreeMemoryToTheSystem()
  guard let built = heapBytesInUse() else { return nil }
  let fingerprint = try StateFingerprint.of(state)
  returnFreeMemoryToTheSystem()
  guard let fingerprinted = heapBytesInUse() else { return nil }
  blackHole(fingerprint)
  blackHole(state)
  return Measurement(
    name: "scale/fingerprint-cache-rows=\(rows)", unit: "B/row",
    median: Double(fingerprinted - built) / Double(rows), baseline: Double(built - empty) / Double(rows))
}

/// A row of `FingerprintedList`: an id, a title string, a flag.
protocol FingerprintedRow: Identifiable<Int>, Equatable, Sendable, Codable {
  init(id: Int, title: String)
  var title: String { get set }
  var flag: Bool { get set }
}

/// A row digested through `Encoder`, as any `Encodable` row is.
struct EncodedRow: FingerprintedRow {
  var id: Int
  var title: String
  var flag = false

  init(id: Int, title: String) { (self.id, self.title) = (id, title) }
}

/// The same row, digested by its listed fields (`FieldFingerprinting`): the same fingerprints.
struct ListedRow: FingerprintedRow, FieldFingerprinting {
  var id: Int
  var title: String
  var flag = false

  init(id: Int, title: String) { (self.id, self.title) = (id, title) }

  private static let keys = (
    id: FingerprintKey("id"), title: FingerprintKey("title"), flag: FingerprintKey("flag")
  )

  func addFingerprintFields(to fields: inout FingerprintFields) {
    fields.add(Self.keys.id, id)
    fields.add(Self.keys.title, title)
    fields.add(Self.keys.flag, flag)
  }
}

/// `ScaleList` with an `Encodable` state, so that a store can fingerprint it.
struct FingerprintedList: FingerprintedReducer {
  typealias Row = EncodedRow
  struct State: FingerprintedState { var rows: IdentifiedArray<Row> }
}

/// The same with rows that list their fields. A reducer of its own, not a generic one: a generic reducer's
/// `reduce` runs unspecialized, and its row accesses then look up type metadata on every send.
struct ListedList: FingerprintedReducer {
  typealias Row = ListedRow
  struct State: FingerprintedState { var rows: IdentifiedArray<Row> }
}

/// A state of `FingerprintedList` or `ListedList`.
protocol FingerprintedState: Equatable, Sendable, Codable {
  associatedtype Row: FingerprintedRow
  var rows: IdentifiedArray<Row> { get set }
  init(rows: IdentifiedArray<Row>)
}

extension FingerprintedState {
  init(rows count: Int) {
    self.init(
      rows: IdentifiedArray(
        uniqueElements: (0..<count).map { Row(id: $0, title: "Row \($0): a title of a row") }))
  }
}

/// The reducer of `FingerprintedList` and `ListedList`: toggles or renames a row.
protocol FingerprintedReducer: Reducer where State: FingerprintedState, Action == BenchNote {
  init()
}

extension FingerprintedReducer {
  @inline(__always)
  func reduce(into state: inout State, action: BenchNote) -> Effect<BenchNote> {
    switch action {
    case .toggle(let id): state.rows[id: id]?.flag.toggle()
    case .rename(let id, let title): state.rows[id: id]?.title = title
    }
    return .none
  }
}
