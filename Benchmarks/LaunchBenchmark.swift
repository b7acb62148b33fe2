import Foundation
import Rewind
import RewindLog

/// `journal/open-rows=N`: what an app's user waits for at launch. A list of N rows (an id, a title and a
/// flag each) in an ``IdentifiedArray``, 30,000 one-row toggles sent through `Store.open` with the default
/// options (so a snapshot is written every 10,000 events, the last one at event 30,000), closed, then
/// opened again: milliseconds per `Store.open`, median of seven. Baseline: the time to read the newest
/// snapshot file's bytes alone (open, read into one buffer, close; median of 21), the physical floor.
/// The state adopts ``BinaryCodable``; `journal/open-rows=N-codable` is the same through `Codable` only.
///
/// For profiling and memory: `REWIND_BENCH_JOURNAL_ONLY=open-rows` runs these lines alone
/// (`REWIND_BENCH_OPEN_ROWS=100000` picks one size, `REWIND_BENCH_OPEN_KIND=binary` or `codable` one
/// state); with `REWIND_BENCH_JOURNAL_LOG=dir` each log is written there once and kept (`dir-<rows>`, plus
/// `-codable`), and `REWIND_BENCH_OPEN_ONCE=1` opens it once and prints what the open keeps and how long
/// this first open of the process took (what a launch pays), for `/usr/bin/time -v`; `=skip` does
/// everything but the open (the process's own peak, to subtract); `=state` prints the state's own heap
/// bytes (``launchStateBytes(_:rows:)``).
func measureLaunch(reporter: Reporter) throws {
  let environment = ProcessInfo.processInfo.environment
  let sizes =
    environment["REWIND_BENCH_OPEN_ROWS"].map { $0.split(separator: ",").compactMap { Int($0) } }
    ?? [10_000, 100_000]
  let kind = environment["REWIND_BENCH_OPEN_KIND"]
  for rows in sizes {
    if kind == nil || kind == "binary" { try measureLaunch(LaunchRows.self, rows: rows, reporter: reporter) }
    if kind == nil || kind == "codable" {
      try measureLaunch(CodableLaunchRows.self, rows: rows, reporter: reporter)
    }
  }
}

/// A list reducer for the launch benchmark: its state, and the suffix of its lines.
protocol LaunchReducer: Reducer & Sendable where State: Codable & Sendable, Action == BenchNote {
  /// Appended to the measurement's name.
  static var suffix: String { get }
  init()
  /// A list of `rows` rows.
  static func initialState(rows: Int) -> State
}

private func measureLaunch<R: LaunchReducer>(_ reducer: R.Type, rows: Int, reporter: Reporter) throws {
  let environment = ProcessInfo.processInfo.environment
  let name = "journal/open-rows=\(rows)" + R.suffix
  let directory =
    environment["REWIND_BENCH_JOURNAL_LOG"].map { $0 + "-\(rows)" + R.suffix } ?? launchDirectory()
  let kept = environment["REWIND_BENCH_JOURNAL_LOG"] != nil
  defer { if !kept { try? FileManager.default.removeItem(atPath: directory) } }
  if !kept || !FileManager.default.fileExists(atPath: directory) {
    let started = now()
    try writeLaunchLog(R.self, rows: rows, to: directory)
    reporter.progress(
      "\(name): \(launchEventCount) events written in " + String(format: "%.1f", now() - started) + " s")
  }
  switch environment["REWIND_BENCH_OPEN_ONCE"] {
  case "1": try openOnce(R.self, name: name, directory: directory, skippingOpen: false, reporter: reporter)
  case "skip": try openOnce(R.self, name: name, directory: directory, skippingOpen: true, reporter: reporter)
  case "state":
    reporter.progress("\(name): the state's own heap bytes \(launchStateBytes(R.self, rows: rows))")
  default: try measureLaunchOpen(R.self, name: name, rows: rows, directory: directory, reporter: reporter)
  }
}

private func launchDirectory() -> String {
  NSTemporaryDirectory() + "/rewind-bench-launch-\(UInt64.random(in: 0...UInt64.max))"
}

/// User and system CPU seconds this process has used, on every thread.
private func processCPUSeconds() -> Double {
  var usage = rusage()
  #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
  #else
    getrusage(RUSAGE_SELF, &usage)
  #endif
  let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
  let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
  return user + system
}

/// The events of the launch log.
let launchEventCount = 30_000

private func measureLaunchOpen<R: LaunchReducer>(
  _ reducer: R.Type, name: String, rows: Int, directory: String, reporter: Reporter
) throws {
  let snapshot = try newestSnapshot(in: directory)
  var samples: [Double] = []
  var cpuSamples: [Double] = []
  for repetition in 0..<8 {
    let cpuStarted = processCPUSeconds()
    let started = now()
    let store = try Store.open(directory: directory, initialState: R.initialState(rows: 0), reducer: R())
    let seconds = now() - started
    if repetition > 0 { cpuSamples.append(processCPUSeconds() - cpuStarted) }
    guard store.sequence == UInt64(launchEventCount) else {
      throw BenchFailure.replayedWrongCount(store.sequence)
    }
    blackHole(store.state)
    if repetition > 0 { samples.append(seconds) }  // the first warms the page cache and the allocator
    let journal = store.journal as? FileJournal<BenchNote>
    if repetition == 0, let recovery = journal?.snapshotRecovery { reporter.progress("\(name): \(recovery)") }
    try journal?.close()
  }
  // On a machine shared with other work, the CPU time the process used (every thread, user and system)
  // says what the open costs when the wall clock also counts the time it waited for a core.
  reporter.progress("\(name): CPU time \(String(format: "%.2f", median(cpuSamples) * 1000)) ms (median)")
  if R.self == LaunchRows.self {
    let floor = launchBuildFloor(rows: rows)
    reporter.progress(
      "\(name): the same list built in memory from its bytes " + String(format: "%.2f", floor.wall * 1000)
        + " ms (CPU time " + String(format: "%.2f", floor.cpu * 1000) + " ms)")
  }
  let read = try medianSeconds(repetitions: 21) { blackHole(try readWholeFile(snapshot)) }
  reporter.report(Measurement(name: name, unit: "ms", median: median(samples) * 1000, baseline: read * 1000))
}

/// Opens the log once (or, `skippingOpen`, does everything else) and prints, on standard error, the
/// snapshot's size and the heap bytes the open left in use.
private func openOnce<R: LaunchReducer>(
  _ reducer: R.Type, name: String, directory: String, skippingOpen: Bool, reporter: Reporter
) throws {
  let snapshot = try newestSnapshot(in: directory)
  let fileBytes = try FileManager.default.attributesOfItem(atPath: snapshot)[.size] as? Int ?? 0
  let initial = R.initialState(rows: 0)
  let before = mallocBytesInUse()
  var kept = 0
  var opening = ""
  if !skippingOpen {
    let cpuStarted = processCPUSeconds()
    let started = now()
    let store = try Store.open(directory: directory, initialState: initial, reducer: R())
    // The first open in a process: what an app's launch pays, first use of every type's metadata included.
    opening =
      "; this process's first open took " + String(format: "%.2f", (now() - started) * 1000)
      + " ms (CPU time "
      + String(format: "%.2f", (processCPUSeconds() - cpuStarted) * 1000) + " ms)"
    guard store.sequence == UInt64(launchEventCount) else {
      throw BenchFailure.replayedWrongCount(store.sequence)
    }
    kept = mallocBytesInUse() - before
    try (store.journal as? FileJournal<BenchNote>)?.close()
    blackHole(store)
  }
  reporter.progress(
    "\(name): snapshot file \(fileBytes) bytes; heap bytes kept by the open \(kept)" + opening)
}

/// The floor under decoding the list: seconds to make each row's title from bytes in memory (a `String`
/// each, as decoding makes) and build the rows into an ``IdentifiedArray`` (bottom-up), median of five, in
/// wall-clock and CPU time.
private func launchBuildFloor(rows: Int) -> (wall: Double, cpu: Double) {
  let titles = (0..<rows).map { Array("Row \($0): a title of a row".utf8) }
  var wall: [Double] = []
  var cpu: [Double] = []
  for repetition in 0..<6 {
    let cpuStarted = processCPUSeconds()
    let started = now()
    let list = IdentifiedArray(
      uniqueElements: (0..<rows).map {
        LaunchRows.Row(id: $0, title: String(decoding: titles[$0], as: UTF8.self))
      })
    if repetition > 0 {
      wall.append(now() - started)
      cpu.append(processCPUSeconds() - cpuStarted)
    }
    blackHole(list)
  }
  return (median(wall), median(cpu))
}

/// The state's own size: heap bytes in use after building, in memory, the state the log ends with.
func launchStateBytes<R: LaunchReducer>(_ reducer: R.Type, rows: Int) -> Int {
  let before = mallocBytesInUse()
  var state = R.initialState(rows: rows)
  for sequence in 1...launchEventCount {
    _ = R().reduce(into: &state, action: launchEdit(sequence, rows: rows))
  }
  let bytes = mallocBytesInUse() - before
  blackHole(state)
  return bytes
}

/// Event `sequence` of the launch log: a toggle of one row, every row in turn in a scattered order.
func launchEdit(_ sequence: Int, rows: Int) -> BenchNote { .toggle(id: sequence &* 7_919 % rows) }

private func newestSnapshot(in directory: String) throws -> String {
  let names = try FileManager.default.contentsOfDirectory(atPath: directory)
  guard let newest = names.filter({ $0.hasPrefix("snapshot-") && $0.hasSuffix(".bin") }).max() else {
    throw LaunchFailure.noSnapshot(directory)
  }
  return directory + "/" + newest
}

/// The bytes of the file at `path`, read into one buffer with `read(2)`: the floor of any open.
private func readWholeFile(_ path: String) throws -> [UInt8] {
  let descriptor = Foundation.open(path, O_RDONLY)
  guard descriptor >= 0 else { throw LaunchFailure.unreadable(path) }
  defer { close(descriptor) }
  var status = stat()
  guard fstat(descriptor, &status) == 0 else { throw LaunchFailure.unreadable(path) }
  let size = Int(status.st_size)
  return try [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
    guard let base = buffer.baseAddress else { return }
    while count < size {
      let got = read(descriptor, base + count, size - count)
      guard got > 0 else { throw LaunchFailure.unreadable(path) }
      count += got
    }
  }
}

/// Writes the launch log: `launchEventCount` toggles through a store opened with the default options, then
/// waits for the snapshot the last of them made due.
private func writeLaunchLog<R: LaunchReducer>(_ reducer: R.Type, rows: Int, to directory: String) throws {
  let store = try Store.open(directory: directory, initialState: R.initialState(rows: rows), reducer: R())
  for sequence in 1...launchEventCount { store.send(launchEdit(sequence, rows: rows)) }
  let journal = store.journal as? FileJournal<BenchNote>
  try journal?.flush()
  let due = UInt64(launchEventCount)
  for _ in 0..<2_000 {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    let newest = names.compactMap { name -> UInt64? in
      guard name.hasPrefix("snapshot-"), name.hasSuffix(".bin") else { return nil }
      return UInt64(name.dropFirst(9).dropLast(4))
    }.max()
    if let newest, newest >= due { break }
    Thread.sleep(forTimeInterval: 0.01)
  }
  try journal?.close()
}

enum LaunchFailure: Error {
  case noSnapshot(String)
  case unreadable(String)
}

/// An app-shaped list: rows with an id, a title (a string on the heap, as most titles are) and a flag. The
/// state adopts ``BinaryCodable`` (as `Codable` would write it), so its snapshots are binary states
/// (format version 3) read without `Codable`.
struct LaunchRows: LaunchReducer {
  static let suffix = ""

  struct Row: Identifiable, Codable, Sendable, Equatable, BinaryCodable {
    var id: Int
    var title: String
    var flag = false

    init(id: Int, title: String) { (self.id, self.title) = (id, title) }

    func encode(to writer: inout BinaryWriter) {
      writer.keyed(count: 3)
      writer.key("id")
      writer.int(id)
      writer.key("title")
      writer.string(title)
      writer.key("flag")
      writer.bool(flag)
    }

    init(from reader: inout BinaryReader) throws {
      try reader.keyed(count: 3)
      try reader.key("id")
      id = try reader.int()
      try reader.key("title")
      title = try reader.string()
      try reader.key("flag")
      flag = try reader.bool()
    }
  }

  struct State: Codable, Sendable, Equatable, BinaryCodable {
    var rows: IdentifiedArray<Row>

    init(rows: IdentifiedArray<Row>) { self.rows = rows }

    func encode(to writer: inout BinaryWriter) {
      writer.keyed(count: 1)
      writer.key("rows")
      writer.encode(rows)
    }

    init(from reader: inout BinaryReader) throws {
      try reader.keyed(count: 1)
      try reader.key("rows")
      rows = try reader.decode(IdentifiedArray<Row>.self)
    }
  }

  static func initialState(rows count: Int) -> State {
    State(
      rows: IdentifiedArray(
        uniqueElements: (0..<count).map { Row(id: $0, title: "Row \($0): a title of a row") }))
  }

  func reduce(into state: inout State, action: BenchNote) -> Effect<BenchNote> {
    switch action {
    case .toggle(let id): state.rows[id: id]?.flag.toggle()
    case .rename(let id, let title): state.rows[id: id]?.title = title
    }
    return .none
  }
}

/// The same list through `Codable` only: its snapshots are `Codable` states (read whole, then decoded).
struct CodableLaunchRows: LaunchReducer {
  static let suffix = "-codable"

  struct Row: Identifiable, Codable, Sendable, Equatable {
    var id: Int
    var title: String
    var flag = false
  }

  struct State: Codable, Sendable, Equatable { var rows: IdentifiedArray<Row> }

  static func initialState(rows count: Int) -> State {
    State(
      rows: IdentifiedArray(
        uniqueElements: (0..<count).map { Row(id: $0, title: "Row \($0): a title of a row") }))
  }

  func reduce(into state: inout State, action: BenchNote) -> Effect<BenchNote> {
    switch action {
    case .toggle(let id): state.rows[id: id]?.flag.toggle()
    case .rename(let id, let title): state.rows[id: id]?.title = title
    }
    return .none
  }
}
