import Foundation
import Rewind
import RewindLog

/// `journal/open-1M`: how long `Store.open` takes, with the default options, on a log of 1,000,000 events:
/// the journal suite's own events and state (1,000 notes, each event renames one), and `journal/open-1M-rows=10000`, an
/// app-shaped one (10,000 titled rows in an ``IdentifiedArray``; each event renames or toggles one).
/// Baseline: the same log replayed whole (no snapshot), which is what every open cost before snapshots
/// were on by default.
func measureOpen(events count: Int, reporter: Reporter) throws {
  let name = count == 1_000_000 ? "journal/open-1M" : "journal/open-\(count)"
  try measureOpen(
    name, events: count, initialState: { BenchNotes.State() }, reducer: BenchNotes(),
    action: { .rename(id: $0 % 1000, title: "a renamed note title, #\($0 % 10_000)") }, reporter: reporter)
  try measureOpen(
    name + "-rows=\(OpenRows.rowCount)", events: count, initialState: { OpenRows.State() },
    reducer: OpenRows(),
    action: OpenRows.scatteredEdit, reporter: reporter)
}

private func measureOpen<R: Reducer>(
  _ name: String, events count: Int, initialState: () -> R.State, reducer: R, action: (Int) -> BenchNote,
  reporter: Reporter
) throws where R.Action == BenchNote, R.State: Codable & Sendable {
  let directory = NSTemporaryDirectory() + "/rewind-bench-open-\(UInt64.random(in: 0...UInt64.max))"
  defer { try? FileManager.default.removeItem(atPath: directory) }
  let started = now()
  try writeOpenLog(count, to: directory, initialState: initialState(), reducer: reducer, action: action)
  reporter.progress(
    "\(name): \(count) events written through Store.open in \(String(format: "%.1f", now() - started)) s")

  let open = try medianSeconds(repetitions: 5) {
    let store = try Store.open(directory: directory, initialState: initialState(), reducer: reducer)
    guard store.sequence == UInt64(count) else { throw BenchFailure.replayedWrongCount(store.sequence) }
    blackHole(store.state)
    try (store.journal as? FileJournal<BenchNote>)?.close()
  }
  let replay = try medianSeconds(repetitions: 3) {
    let journal = try FileJournal<BenchNote>(directory: directory)
    let store = try Store(initialState: initialState(), reducer: reducer, journal: journal)
    guard store.sequence == UInt64(count) else { throw BenchFailure.replayedWrongCount(store.sequence) }
    blackHole(store.state)
    try journal.close()
  }
  reporter.report(Measurement(name: name, unit: "ms", median: open * 1000, baseline: replay * 1000))
}

/// Writes `count` events through a store opened with the default options (snapshots included), then waits
/// for the snapshot the last events made due.
private func writeOpenLog<R: Reducer>(
  _ count: Int, to directory: String, initialState: R.State, reducer: R, action: (Int) -> BenchNote
) throws where R.Action == BenchNote, R.State: Codable & Sendable {
  let store = try Store.open(directory: directory, initialState: initialState, reducer: reducer)
  for sequence in 1...count {
    let id = sequence &* 7_919 % OpenRows.rowCount  // every row, in a scattered order
    store.send(
      sequence % 4 == 0 ? .toggle(id: id) : .rename(id: id, title: "a renamed row, #\(sequence % 10_000)"))
  }
  let journal = store.journal as? FileJournal<BenchNote>
  try journal?.flush()
  let due =
    UInt64(count) / FileJournalOptions.defaultSnapshotInterval * FileJournalOptions.defaultSnapshotInterval
  for _ in 0..<1_000 {
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

/// 10,000 rows with a title and a flag; an event renames or toggles one.
struct OpenRows: Reducer {
  static let rowCount = 10_000

  struct Row: Identifiable, Codable, Sendable, Equatable {
    var id: Int
    var title: String
    var flag = false
  }

  struct State: Codable, Sendable {
    var rows = IdentifiedArray(
      uniqueElements: (0..<OpenRows.rowCount).map { Row(id: $0, title: "row #\($0)") })
  }

  /// Event `sequence`: every row in turn, in a scattered order; three renames to a toggle.
  static func scatteredEdit(_ sequence: Int) -> BenchNote {
    let id = sequence &* 7_919 % rowCount
    return sequence % 4 == 0
      ? .toggle(id: id) : .rename(id: id, title: "a renamed row, #\(sequence % 10_000)")
  }

  func reduce(into state: inout State, action: BenchNote) -> Effect<BenchNote> {
    switch action {
    case .rename(let id, let title): state.rows[id: id]?.title = title
    case .toggle(let id): state.rows[id: id]?.flag.toggle()
    }
    return .none
  }
}
