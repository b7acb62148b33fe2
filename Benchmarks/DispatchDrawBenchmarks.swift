import Foundation
import Rewind

/// Rows (a title, a flag, a revision id and a modification date each) that an action stamps: with a UUID
/// and a date drawn from recorded dependencies, or with a UUID and a date the caller passes in, the way an
/// app without recorded dependencies writes it.
struct BenchStamps: Reducer {
  struct Row: Identifiable, Equatable, Sendable {
    var id: Int
    var title: String
    var isDone = false
    var revision = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    var modified = Date(timeIntervalSinceReferenceDate: 0)
  }

  struct State: Equatable, Sendable {
    var rows: IdentifiedArray<Row>
    var stamps = 0
  }

  enum Action: Sendable {
    /// Stamps row `id` with a drawn UUID and date.
    case stamp(Int)
    /// Stamps row `id` with the caller's UUID and date.
    case stampGiven(Int, UUID, Date)
  }

  @Dependency(\.uuid) var uuid
  @Dependency(\.date) var date

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .stamp(let id):
      let (revision, modified) = (uuid(), date.now)
      state.rows[id: id]?.revision = revision
      state.rows[id: id]?.modified = modified
    case .stampGiven(let id, let revision, let modified):
      state.rows[id: id]?.revision = revision
      state.rows[id: id]?.modified = modified
    }
    state.stamps &+= 1
    return .none
  }

  static func rows(_ count: Int) -> IdentifiedArray<Row> {
    IdentifiedArray(uniqueElements: (0..<count).map { Row(id: $0, title: "Row \($0)") })
  }
}

/// A UUID generator as cheap as one can be (a counter, no lock): what remains is the cost of recording.
private func countingUUIDs() -> UUIDGenerator {
  let next = Locked<UInt64>(0)
  return UUIDGenerator {
    let value = next.withLock { value in
      defer { value &+= 1 }
      return value
    }
    return UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, UInt8(truncatingIfNeeded: value)))
  }
}

/// `dispatch/recorded-draws*`: a send that draws a UUID and a date (recorded with its event), the send that
/// is handed the same values as the baseline, measured alternately in one process; on one row and on rows
/// of 5,000. Then the memory the in-memory journal holds per event, with and without the two draws.
func reportRecordedDraws(sends: Int, reporter: Reporter) {
  let environment = ProcessInfo.processInfo.environment
  // For callgrind: REWIND_BENCH_DRAWS=drawn or =given runs one kind of send, REWIND_BENCH_ROWS one size.
  let only = environment["REWIND_BENCH_DRAWS"]
  let onlyRows = environment["REWIND_BENCH_ROWS"].flatMap { Int($0) }
  for rowCount in [1, 5_000] where onlyRows == nil || onlyRows == rowCount {
    var given: [Double] = []
    var drawn: [Double] = []
    for run in 0..<5 {
      let handed = only == "drawn" ? 0 : stampRate(drawing: false, rows: rowCount, sends: sends)
      let recorded = only == "given" ? 0 : stampRate(drawing: true, rows: rowCount, sends: sends)
      if run > 0 {
        given.append(handed)
        drawn.append(recorded)
      }
    }
    let suffix = rowCount == 1 ? "" : "-rows=\(rowCount)"
    reporter.report(
      Measurement(
        name: "dispatch/recorded-draws\(suffix)", unit: "sends/s", median: median(drawn),
        baseline: median(given)))
  }
  if only != nil || onlyRows != nil { return }
  let events = 200_000
  let without = journalBytesPerEvent(drawing: false, events: events)
  let with = journalBytesPerEvent(drawing: true, events: events)
  if let without, let with {
    reporter.report(
      Measurement(
        name: "dispatch/recorded-draws-memory", unit: "bytes/event", median: with, baseline: without))
  }
}

private func makeStampStore(rows: Int) -> Store<BenchStamps.State, BenchStamps.Action> {
  Store(
    initialState: BenchStamps.State(rows: BenchStamps.rows(rows)), reducer: BenchStamps(),
    dependencies: { $0.uuid = countingUUIDs() })
}

private func stampRate(drawing: Bool, rows: Int, sends: Int) -> Double {
  let store = makeStampStore(rows: rows)
  let revision = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
  let modified = Date(timeIntervalSinceReferenceDate: 1_000)
  let seconds = time {
    if drawing {
      for index in 0..<sends { store.send(.stamp(index % rows)) }
    } else {
      for index in 0..<sends { store.send(.stampGiven(index % rows, revision, modified)) }
    }
  }
  blackHole(store.state.stamps)
  return Double(sends) / seconds
}

/// The growth of the resident memory over `events` sends, per event: what the in-memory journal keeps.
private func journalBytesPerEvent(drawing: Bool, events: Int) -> Double? {
  let store = makeStampStore(rows: 1)
  let revision = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
  let modified = Date(timeIntervalSinceReferenceDate: 1_000)
  releaseFreeMemory()
  guard let before = residentBytes() else { return nil }
  for _ in 0..<events {
    if drawing { store.send(.stamp(0)) } else { store.send(.stampGiven(0, revision, modified)) }
  }
  guard let after = residentBytes() else { return nil }
  blackHole(store.state.stamps)
  return Double(after - before) / Double(events)
}

/// The process's resident memory in bytes, from /proc/self/statm; `nil` where that cannot be read.
private func residentBytes() -> Int? {
  guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
  let fields = statm.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Gives freed memory back to the system (glibc's `malloc_trim`), so the resident delta is this run's.
private func releaseFreeMemory() {
  guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
  let trim = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
  _ = trim(0)
}
