import Foundation
import Rewind

/// Suite `history`: undo, redo and time travel with 1,000,000 events of history.
let historySuite = Suite(name: "history", summary: "undo, redo and state(at:) over 1,000,000 events") {
  reporter in
  let eventCount = 1_000_000
  // Earlier suites leave freed memory in the allocator; give it back so the resident-size delta below
  // measures this history alone.
  returnFreeMemoryToTheSystem()
  let heapBefore = heapBytesInUse()
  let store = makeHistoryStore(events: eventCount, reporter: reporter)
  let heapAfter = heapBytesInUse()

  // Undo and redo of the last step, alternating so that each undo has a step and each redo an entry.
  var undoSeconds: [Double] = []
  var redoSeconds: [Double] = []
  for _ in 0..<20_000 {
    undoSeconds.append(time { store.undo() })
    redoSeconds.append(time { store.redo() })
  }
  reporter.report(Measurement(name: "history/undo", unit: "us", median: median(undoSeconds) * 1e6))
  reporter.report(Measurement(name: "history/redo", unit: "us", median: median(redoSeconds) * 1e6))

  // The state at random sequence numbers anywhere in the history.
  var random = SplitMix64(seed: 2026)
  var stateAtSeconds: [Double] = []
  let newest = store.sequence
  for _ in 0..<500 {
    let sequence = UInt64.random(in: 1...newest, using: &random)
    stateAtSeconds.append(try time { blackHole(try store.state(at: sequence)) })
  }
  reporter.report(Measurement(name: "history/state-at", unit: "ms", median: median(stateAtSeconds) * 1e3))

  if let heapBefore, let heapAfter {
    reporter.report(
      Measurement(
        name: "history/bytes-per-event", unit: "bytes",
        median: Double(heapAfter - heapBefore) / Double(eventCount)))
  }
  blackHole(store)
}

struct HistoryBenchEditor: Reducer {
  struct State: Equatable, Sendable {
    var total = 0
    var title = "Untitled"
    var edits = 0
  }

  enum Action: Sendable {
    case add(Int)
    case rename(String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let amount): state.total &+= amount
    case .rename(let title): state.title = title
    }
    state.edits &+= 1
    return .none
  }
}

private func makeHistoryStore(events: Int, reporter: Reporter) -> Store<
  HistoryBenchEditor.State, HistoryBenchEditor.Action
> {
  let store = Store(
    initialState: HistoryBenchEditor.State(), reducer: HistoryBenchEditor(),
    history: HistoryConfiguration(undoLimit: 100) { action in
      if case .rename = action { return .step(name: "Rename") }
      return .step(name: "Add")
    })
  for index in 0..<events {
    store.send(index % 1_000 == 0 ? .rename("Draft \(index)") : .add(index & 7))
    if index % 250_000 == 0, index > 0 { reporter.progress("history: \(index) events recorded") }
  }
  return store
}

/// The process's resident memory in bytes, from /proc/self/statm; `nil` where that cannot be read.
func heapBytesInUse() -> Int? {
  guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
  let fields = statm.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Asks the C allocator to give freed memory back to the system (glibc's `malloc_trim`), where it exists.
func returnFreeMemoryToTheSystem() {
  // Looked up at run time: the C library's module does not export it to Swift.
  guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
  let trim = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
  _ = trim(0)
}
