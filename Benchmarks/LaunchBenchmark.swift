import Foundation
import Rewind
import RewindLog

/// `journal/open-rows=N`: what an app's user waits for at launch. A list of N rows (an id, a title and a
/// flag each) in an ``IdentifiedArray``, 30,000 one-row toggles sent through `Store.open` with the default
/// options (so a snapshot is written every 10,000 events, the last one at event 30,000), closed, then
/// opened again: milliseconds per `Store.open`, median of seven. Baseline: the time to read the newest
/// snapshot file's bytes alone (open, read into one buffer, close; median of 21), the physical floor.
///
/// For profiling and memory: `REWIND_BENCH_JOURNAL_ONLY=open-rows` runs these lines alone
/// (`REWIND_BENCH_OPEN_ROWS=100000` picks one size); with `REWIND_BENCH_JOURNAL_LOG=dir` the log is written
/// there once and kept, and `REWIND_BENCH_OPEN_ONCE=1` opens it once and prints what the open keeps (see
/// ``openOnce(rows:directory:skippingOpen:reporter:)``), for `/usr/bin/time -v`; `=skip` does everything
/// but the open (the process's own peak, to subtract); `=state` prints the state's own heap bytes
/// (``launchStateBytes(rows:)``).
func measureLaunch(reporter: Reporter) throws {
  let environment = ProcessInfo.processInfo.environment
  let sizes =
    environment["REWIND_BENCH_OPEN_ROWS"].map { $0.split(separator: ",").compactMap { Int($0) } }
    ?? [10_000, 100_000]
  let kept = environment["REWIND_BENCH_JOURNAL_LOG"]
  for rows in sizes {
    let directory = kept.map { sizes.count > 1 ? $0 + "-\(rows)" : $0 } ?? launchDirectory()
    defer { if kept == nil { try? FileManager.default.removeItem(atPath: directory) } }
    if kept == nil || !FileManager.default.fileExists(atPath: directory) {
      let started = now()
      try writeLaunchLog(rows: rows, to: directory)
      reporter.progress(
        "journal/open-rows=\(rows): \(LaunchRows.eventCount) events written in "
          + String(format: "%.1f", now() - started) + " s")
    }
    switch environment["REWIND_BENCH_OPEN_ONCE"] {
    case "1": try openOnce(rows: rows, directory: directory, skippingOpen: false, reporter: reporter)
    case "skip": try openOnce(rows: rows, directory: directory, skippingOpen: true, reporter: reporter)
    case "state":
      reporter.progress(
        "journal/open-rows=\(rows): the state's own heap bytes \(launchStateBytes(rows: rows))")
    default: try measureLaunchOpen(rows: rows, directory: directory, reporter: reporter)
    }
  }
}

private func launchDirectory() -> String {
  NSTemporaryDirectory() + "/rewind-bench-launch-\(UInt64.random(in: 0...UInt64.max))"
}

private func measureLaunchOpen(rows: Int, directory: String, reporter: Reporter) throws {
  let snapshot = try newestSnapshot(in: directory)
  var samples: [Double] = []
  for repetition in 0..<8 {
    let started = now()
    let store = try Store.open(
      directory: directory, initialState: LaunchRows.State(rows: 0), reducer: LaunchRows())
    let seconds = now() - started
    guard store.sequence == UInt64(LaunchRows.eventCount) else {
      throw BenchFailure.replayedWrongCount(store.sequence)
    }
    blackHole(store.state)
    if repetition > 0 { samples.append(seconds) }  // the first warms the page cache and the allocator
    let journal = store.journal as? FileJournal<BenchNote>
    if repetition == 0, let recovery = journal?.snapshotRecovery {
      reporter.progress("journal/open-rows=\(rows): \(recovery)")
    }
    try journal?.close()
  }
  let read = try medianSeconds(repetitions: 21) { blackHole(try readWholeFile(snapshot)) }
  reporter.report(
    Measurement(
      name: "journal/open-rows=\(rows)", unit: "ms", median: median(samples) * 1000, baseline: read * 1000))
}

/// Opens the log once (or, `skippingOpen`, does everything else) and prints, on standard error, the heap
/// bytes the open left in use and the heap bytes of the same state built in memory: the state's own size.
private func openOnce(rows: Int, directory: String, skippingOpen: Bool, reporter: Reporter) throws {
  let snapshot = try newestSnapshot(in: directory)
  let fileBytes = try FileManager.default.attributesOfItem(atPath: snapshot)[.size] as? Int ?? 0
  let initial = LaunchRows.State(rows: 0)
  let before = mallocBytesInUse()
  var kept = 0
  if !skippingOpen {
    let store = try Store.open(directory: directory, initialState: initial, reducer: LaunchRows())
    guard store.sequence == UInt64(LaunchRows.eventCount) else {
      throw BenchFailure.replayedWrongCount(store.sequence)
    }
    kept = mallocBytesInUse() - before
    try (store.journal as? FileJournal<BenchNote>)?.close()
    blackHole(store)
  }
  reporter.progress(
    "journal/open-rows=\(rows): snapshot file \(fileBytes) bytes; heap bytes kept by the open \(kept)")
}

/// The state's own size: heap bytes in use after building the state the log ends with, in memory.
func launchStateBytes(rows: Int) -> Int {
  let before = mallocBytesInUse()
  var state = LaunchRows.State(rows: rows)
  for sequence in 1...LaunchRows.eventCount {
    _ = LaunchRows().reduce(into: &state, action: LaunchRows.edit(sequence, rows: rows))
  }
  let bytes = mallocBytesInUse() - before
  blackHole(state)
  return bytes
}

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

/// Writes the launch log: `LaunchRows.eventCount` toggles through a store opened with the default options,
/// then waits for the snapshot the last of them made due.
private func writeLaunchLog(rows: Int, to directory: String) throws {
  let store = try Store.open(
    directory: directory, initialState: LaunchRows.State(rows: rows), reducer: LaunchRows())
  for sequence in 1...LaunchRows.eventCount { store.send(LaunchRows.edit(sequence, rows: rows)) }
  let journal = store.journal as? FileJournal<BenchNote>
  try journal?.flush()
  let due = UInt64(LaunchRows.eventCount)
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

/// An app-shaped list: rows with an id, a title (a string on the heap, as most titles are) and a flag.
struct LaunchRows: Reducer {
  static let eventCount = 30_000

  struct Row: Identifiable, Codable, Sendable, Equatable {
    var id: Int
    var title: String
    var flag = false
  }

  struct State: Codable, Sendable, Equatable {
    var rows: IdentifiedArray<Row>

    init(rows count: Int) {
      rows = IdentifiedArray(
        uniqueElements: (0..<count).map { Row(id: $0, title: "Row \($0): a title of a row") })
    }
  }

  /// Event `sequence`: a toggle of one row, every row in turn in a scattered order.
  static func edit(_ sequence: Int, rows: Int) -> BenchNote { .toggle(id: sequence &* 7_919 % rows) }

  func reduce(into state: inout State, action: BenchNote) -> Effect<BenchNote> {
    switch action {
    case .toggle(let id): state.rows[id: id]?.flag.toggle()
    case .rename(let id, let title): state.rows[id: id]?.title = title
    }
    return .none
  }
}
