import Foundation
import Rewind
import RewindLog

/// Suite `journal`: the durable file journal. Appends without syncing and with group commit, replay
/// (open, decode, reduce), and the bytes an event takes on disk. Baselines: the same events encoded or
/// decoded (and reduced) with Foundation's JSONEncoder/JSONDecoder, one event at a time.
/// For profiling (e.g. under callgrind): `REWIND_BENCH_JOURNAL_ONLY=replay` or `=append` runs that
/// measurement alone, once; `REWIND_BENCH_JOURNAL_COUNT=N` sets the number of events (default 200,000).
let journalSuite = Suite(name: "journal", summary: "file journal: append, group commit, replay, size") { reporter in
  let environment = ProcessInfo.processInfo.environment
  let count = environment["REWIND_BENCH_JOURNAL_COUNT"].flatMap { Int($0) }.map { max($0, 1) } ?? 200_000
  let events = (1...UInt64(count)).map(benchEvent)
  let actionBytes = try BinaryEncoder().encode(events[0].action).count
  reporter.progress("journal: \(count) events, actions of \(actionBytes) bytes encoded")

  switch environment["REWIND_BENCH_JOURNAL_ONLY"] {
  case "replay":
    let directory = benchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    _ = try writeLog(events, to: directory)
    reporter.report(
      Measurement(
        name: "journal/replay", unit: "events/s", median: try replayRate(directory: directory, count: count, repetitions: 1)))
    return
  case "append":
    reporter.report(
      Measurement(name: "journal/append-none", unit: "events/s", median: try appendRate(events, durability: .none, repetitions: 1)))
    return
  default: break
  }
  let encodeBaseline = try jsonEncodeRate(events)
  let none = try appendRate(events, durability: .none)
  reporter.report(Measurement(name: "journal/append-none", unit: "events/s", median: none, baseline: encodeBaseline))

  let grouped = try appendRate(Array(events.prefix(100_000)), durability: .grouped())
  reporter.report(Measurement(name: "journal/append-grouped", unit: "events/s", median: grouped))

  let directory = benchDirectory()
  defer { try? FileManager.default.removeItem(atPath: directory) }
  let bytes = try writeLog(events, to: directory)
  let replay = try replayRate(directory: directory, count: count)
  let decodeBaseline = try jsonDecodeRate(events)
  reporter.report(Measurement(name: "journal/replay", unit: "events/s", median: replay, baseline: decodeBaseline))
  reporter.report(Measurement(name: "journal/bytes-per-event", unit: "bytes", median: Double(bytes) / Double(count)))
}

/// An action of about 40 bytes encoded.
enum BenchNote: Codable, Sendable {
  case rename(id: Int, title: String)
  case toggle(id: Int)
}

struct BenchNotes: Reducer {
  struct State: Codable, Sendable { var titles: [Int: String] = [:]; var toggles = 0 }

  func reduce(into state: inout State, action: BenchNote) -> Effect<BenchNote> {
    switch action {
    case .rename(let id, let title): state.titles[id] = title
    case .toggle: state.toggles &+= 1
    }
    return .none
  }
}

private func benchEvent(_ sequence: UInt64) -> Event<BenchNote> {
  Event(
    sequence: sequence, timestamp: Date(timeIntervalSince1970: 1_700_000_000 + Double(sequence) / 1000),
    metadata: EventMetadata(actor: nil, source: .user, correlationID: CorrelationID(rawValue: sequence)),
    action: .rename(id: Int(sequence % 1000), title: "a renamed note title, #\(sequence % 10_000)"))
}

private func benchDirectory() -> String {
  NSTemporaryDirectory() + "/rewind-bench-journal-\(UInt64.random(in: 0...UInt64.max))"
}

/// Events per second appended until they are written (`none`) or durable (`grouped`), medians of 3 runs.
private func appendRate(_ events: [Event<BenchNote>], durability: Durability, repetitions: Int = 3) throws -> Double {
  var samples: [Double] = []
  for _ in 0..<repetitions {
    let directory = benchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let journal = try FileJournal<BenchNote>(directory: directory, options: FileJournalOptions(durability: durability))
    let seconds = try time {
      for event in events { try journal.append(event) }
      if durability == .none {
        try journal.waitUntilHandedToOS()
      } else {
        try journal.flush()
      }
    }
    try journal.close()
    samples.append(Double(events.count) / seconds)
  }
  return median(samples)
}

private func writeLog(_ events: [Event<BenchNote>], to directory: String) throws -> Int {
  let journal = try FileJournal<BenchNote>(directory: directory, options: FileJournalOptions(durability: .none))
  for event in events { try journal.append(event) }
  try journal.close()
  let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("segment-") }
  return try names.reduce(0) { total, name in
    let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/" + name)
    return total + ((attributes[.size] as? Int) ?? 0)
  }
}

/// Events per second to open the log, decode every event and reduce it into a store.
private func replayRate(directory: String, count: Int, repetitions: Int = 3) throws -> Double {
  let seconds = try medianSeconds(repetitions: repetitions) {
    let store = try Store.open(directory: directory, initialState: BenchNotes.State(), reducer: BenchNotes())
    guard store.sequence == UInt64(count) else { throw BenchFailure.replayedWrongCount(store.sequence) }
    blackHole(store.state)
  }
  return Double(count) / seconds
}

private func jsonEncodeRate(_ events: [Event<BenchNote>]) throws -> Double {
  let encoder = JSONEncoder()
  let seconds = try medianSeconds(repetitions: 3) {
    var total = 0
    for event in events { total &+= try encoder.encode(event).count }
    blackHole(total)
  }
  return Double(events.count) / seconds
}

private func jsonDecodeRate(_ events: [Event<BenchNote>]) throws -> Double {
  let encoder = JSONEncoder()
  let encoded = try events.map { try encoder.encode($0) }
  let decoder = JSONDecoder()
  let reducer = BenchNotes()
  let seconds = try medianSeconds(repetitions: 3) {
    var state = BenchNotes.State()
    for data in encoded {
      if let action = try decoder.decode(Event<BenchNote>.self, from: data).action { _ = reducer.reduce(into: &state, action: action) }
    }
    blackHole(state)
  }
  return Double(events.count) / seconds
}

enum BenchFailure: Error { case replayedWrongCount(UInt64) }
