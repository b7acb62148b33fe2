import Foundation
import Rewind
import RewindLog

/// Suite `journal`: the durable file journal. Appends without syncing and with group commit, replay
/// (open, decode, reduce), and the bytes an event takes on disk. Baselines: the same events encoded or
/// decoded (and reduced) with Foundation's JSONEncoder/JSONDecoder, one event at a time.
/// `journal/append-none` and `journal/replay` use an action type that adopts ``BinaryCodable``; the
/// `-codable` lines journal the same events through `Codable`.
/// For profiling (e.g. under callgrind): `REWIND_BENCH_JOURNAL_ONLY=append`, `append-codable`, `retention`, `replay` or
/// `replay-codable` runs that measurement alone, once; `REWIND_BENCH_JOURNAL_COUNT=N` sets the number of events (default 200,000);
/// `REWIND_BENCH_JOURNAL_LOG=dir` writes the replayed log there once and keeps it.
/// `REWIND_BENCH_JOURNAL_ONLY=open-1M` measures `journal/open-1M` alone (over `REWIND_BENCH_JOURNAL_COUNT`
/// events when set, else 1,000,000; see OpenBenchmark.swift). `REWIND_BENCH_JOURNAL_ONLY=open-rows` measures
/// `journal/open-rows=10000` and `=100000` alone (see LaunchBenchmark.swift).
let journalSuite = Suite(name: "journal", summary: "file journal: append, group commit, replay, size") {
  reporter in
  let environment = ProcessInfo.processInfo.environment
  if environment["REWIND_BENCH_JOURNAL_ONLY"] == "open-rows" {
    try measureLaunch(reporter: reporter)
    return
  }
  let count = environment["REWIND_BENCH_JOURNAL_COUNT"].flatMap { Int($0) }.map { max($0, 1) } ?? 200_000
  let events = (1...UInt64(count)).map(benchEvent)
  let codableEvents = events.map(\.codable)
  let actionBytes = try BinaryEncoder().encode(codableEvents[0].action)
  guard let first = events[0].action, first.binaryEncoded == actionBytes else {
    throw BenchFailure.shapesDiffer
  }
  reporter.progress("journal: \(count) events, actions of \(actionBytes.count) bytes encoded")

  switch environment["REWIND_BENCH_JOURNAL_ONLY"] {
  case "replay", "replay-codable":
    // REWIND_BENCH_JOURNAL_LOG=dir keeps the log: written at full speed once, then replayed under a profiler
    // with the frame sizes of a real run (under valgrind the writer's frames hold a few events each).
    let kept = environment["REWIND_BENCH_JOURNAL_LOG"]
    let directory = kept ?? benchDirectory()
    defer { if kept == nil { try? FileManager.default.removeItem(atPath: directory) } }
    if kept == nil || !FileManager.default.fileExists(atPath: directory) {
      _ = try writeLog(events, to: directory)
    }
    let rate =
      environment["REWIND_BENCH_JOURNAL_ONLY"] == "replay"
      ? try replayRate(directory: directory, count: count, reducer: BenchNotes(), repetitions: 1)
      : try replayRate(directory: directory, count: count, reducer: CodableBenchNotes(), repetitions: 1)
    reporter.report(Measurement(name: "journal/replay", unit: "events/s", median: rate))
    return
  case "open-1M":
    let events = environment["REWIND_BENCH_JOURNAL_COUNT"].flatMap { Int($0) }.map { max($0, 1) }
    try measureOpen(events: events ?? 1_000_000, reporter: reporter)
    return
  case "append":
    reporter.report(
      Measurement(
        name: "journal/append-none", unit: "events/s",
        median: try appendRate(events, durability: .none, repetitions: 1)))
    return
  case "retention":
    try measureRetention(Array(events.prefix(100_000)), reporter: reporter)
    return
  case "append-codable":
    reporter.report(
      Measurement(
        name: "journal/append-none-codable", unit: "events/s",
        median: try appendRate(codableEvents, durability: .none, repetitions: 1)))
    return
  default: break
  }
  let encodeBaseline = try jsonEncodeRate(codableEvents)
  let none = try appendRate(events, durability: .none)
  reporter.report(
    Measurement(name: "journal/append-none", unit: "events/s", median: none, baseline: encodeBaseline))
  let noneCodable = try appendRate(codableEvents, durability: .none)
  reporter.report(
    Measurement(
      name: "journal/append-none-codable", unit: "events/s", median: noneCodable, baseline: encodeBaseline))

  let grouped = try appendRate(Array(events.prefix(100_000)), durability: .grouped())
  reporter.report(Measurement(name: "journal/append-grouped", unit: "events/s", median: grouped))
  try measureRetention(Array(events.prefix(100_000)), reporter: reporter)

  let directory = benchDirectory()
  defer { try? FileManager.default.removeItem(atPath: directory) }
  // Both action types write the same bytes, so one log serves both replays.
  let bytes = try writeLog(events, to: directory)
  let decodeBaseline = try jsonDecodeRate(codableEvents)
  let replay = try replayRate(directory: directory, count: count, reducer: BenchNotes())
  reporter.report(
    Measurement(name: "journal/replay", unit: "events/s", median: replay, baseline: decodeBaseline))
  let replayCodable = try replayRate(directory: directory, count: count, reducer: CodableBenchNotes())
  reporter.report(
    Measurement(
      name: "journal/replay-codable", unit: "events/s", median: replayCodable, baseline: decodeBaseline))
  reporter.report(
    Measurement(name: "journal/bytes-per-event", unit: "bytes", median: Double(bytes) / Double(count)))
  try measureOpen(events: 1_000_000, reporter: reporter)
  try measureLaunch(reporter: reporter)
}

/// An action of about 40 bytes encoded, written and read through ``BinaryCodable`` (no `Codable` on the
/// journal's path; `Codable` too, for snapshots and JSON).
enum BenchNote: Codable, Sendable, BinaryCodable {
  case rename(id: Int, title: String)
  case toggle(id: Int)

  func encode(to writer: inout BinaryWriter) {
    writer.keyed(count: 1)
    switch self {
    case .rename(let id, let title):
      writer.key("rename")
      writer.keyed(count: 2)
      writer.key("id")
      writer.int(id)
      writer.key("title")
      writer.string(title)
    case .toggle(let id):
      writer.key("toggle")
      writer.keyed(count: 1)
      writer.key("id")
      writer.int(id)
    }
  }

  init(from reader: inout BinaryReader) throws {
    try reader.keyed(count: 1)
    switch try reader.key() {
    case "rename":
      try reader.keyed(count: 2)
      try reader.key("id")
      let id = try reader.int()
      try reader.key("title")
      self = .rename(id: id, title: try reader.string())
    case "toggle":
      try reader.keyed(count: 1)
      try reader.key("id")
      self = .toggle(id: try reader.int())
    case let other: throw reader.unknownCase(other)
    }
  }

  var codable: CodableBenchNote {
    switch self {
    case .rename(let id, let title): .rename(id: id, title: title)
    case .toggle(let id): .toggle(id: id)
    }
  }
}

/// The same action through `Codable` only: the `-codable` lines.
enum CodableBenchNote: Codable, Sendable {
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

struct CodableBenchNotes: Reducer {
  func reduce(into state: inout BenchNotes.State, action: CodableBenchNote) -> Effect<CodableBenchNote> {
    switch action {
    case .rename(let id, let title): state.titles[id] = title
    case .toggle: state.toggles &+= 1
    }
    return .none
  }
}

extension Event where Action == BenchNote {
  var codable: Event<CodableBenchNote> {
    Event<CodableBenchNote>(
      sequence: sequence, timestamp: timestamp, metadata: metadata,
      payload: action.map { .action($0.codable) } ?? .command(command ?? .endTransaction))
  }
}

func benchEvent(_ sequence: UInt64) -> Event<BenchNote> {
  Event(
    sequence: sequence, timestamp: Date(timeIntervalSince1970: 1_700_000_000 + Double(sequence) / 1000),
    metadata: EventMetadata(actor: nil, source: .user, correlationID: CorrelationID(rawValue: sequence)),
    action: .rename(id: Int(sequence % 1000), title: "a renamed note title, #\(sequence % 10_000)"))
}

private func benchDirectory() -> String {
  NSTemporaryDirectory() + "/rewind-bench-journal-\(UInt64.random(in: 0...UInt64.max))"
}

/// Events per second appended until they are written (`none`) or durable (`grouped`), medians of 3 runs.
private func appendRate<A: Codable & Sendable>(
  _ events: [Event<A>], durability: Durability, repetitions: Int = 3
) throws -> Double {
  var samples: [Double] = []
  for _ in 0..<repetitions {
    let directory = benchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let journal = try FileJournal<A>(
      directory: directory, options: FileJournalOptions(durability: durability))
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
  let journal = try FileJournal<BenchNote>(
    directory: directory, options: FileJournalOptions(durability: .none))
  for event in events { try journal.append(event) }
  try journal.close()
  let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter {
    $0.hasPrefix("segment-")
  }
  return try names.reduce(0) { total, name in
    let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/" + name)
    return total + ((attributes[.size] as? Int) ?? 0)
  }
}

/// Events per second to open the log, decode every event and reduce it into a store.
private func replayRate<R: Reducer>(
  directory: String, count: Int, reducer: R, repetitions: Int = 3
) throws -> Double where R.State == BenchNotes.State, R.Action: Codable {
  let seconds = try medianSeconds(repetitions: repetitions) {
    let store = try Store.open(directory: directory, initialState: BenchNotes.State(), reducer: reducer)
    guard store.sequence == UInt64(count) else { throw BenchFailure.replayedWrongCount(store.sequence) }
    blackHole(store.state)
  }
  return Double(count) / seconds
}

private func jsonEncodeRate(_ events: [Event<CodableBenchNote>]) throws -> Double {
  let encoder = JSONEncoder()
  let seconds = try medianSeconds(repetitions: 3) {
    var total = 0
    for event in events { total &+= try encoder.encode(event).count }
    blackHole(total)
  }
  return Double(events.count) / seconds
}

private func jsonDecodeRate(_ events: [Event<CodableBenchNote>]) throws -> Double {
  let encoder = JSONEncoder()
  let encoded = try events.map { try encoder.encode($0) }
  let decoder = JSONDecoder()
  let reducer = CodableBenchNotes()
  let seconds = try medianSeconds(repetitions: 3) {
    var state = BenchNotes.State()
    for data in encoded {
      if let action = try decoder.decode(Event<CodableBenchNote>.self, from: data).action {
        _ = reducer.reduce(into: &state, action: action)
      }
    }
    blackHole(state)
  }
  return Double(events.count) / seconds
}

enum BenchFailure: Error {
  case replayedWrongCount(UInt64)
  /// The BinaryCodable and Codable encodings of the bench action differ.
  case shapesDiffer
}
