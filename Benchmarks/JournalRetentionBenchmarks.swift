import Dispatch
import Foundation
import Rewind
import RewindLog

/// `journal/append-retention`: events per second appended with group commit while retention cuts 64 KiB
/// segments behind the writer (a policy keeping 20,000 events, a snapshot every 10,000 events written on
/// another queue as `Store.open` does), against the same appends without retention (the baseline): cuts
/// run on the retention thread, so the ratio should stay near 1. `journal/retention-directory-bytes`: the
/// log directory's size at the end, which without retention grows with every event.
func measureRetention(_ events: [Event<BenchNote>], reporter: Reporter) throws {
  let policy = RetentionPolicy(events: 20_000)
  var withRetention: [Double] = []
  var without: [Double] = []
  var bytes: [Double] = []
  for _ in 0..<3 {
    let (rate, size) = try retentionAppendRate(events, retention: policy)
    withRetention.append(rate)
    bytes.append(Double(size))
    without.append(try retentionAppendRate(events, retention: .keepEverything).rate)
  }
  reporter.report(
    Measurement(
      name: "journal/append-retention", unit: "events/s", median: median(withRetention),
      baseline: median(without)))
  reporter.report(
    Measurement(name: "journal/retention-directory-bytes", unit: "bytes", median: median(bytes)))
}

private func retentionAppendRate(_ events: [Event<BenchNote>], retention: RetentionPolicy) throws -> (
  rate: Double, bytes: UInt64
) {
  let directory = NSTemporaryDirectory() + "/rewind-bench-retention-\(UInt64.random(in: 0...UInt64.max))"
  defer { try? FileManager.default.removeItem(atPath: directory) }
  let journal = try FileJournal<BenchNote>(
    directory: directory,
    options: FileJournalOptions(durability: .grouped(), segmentSize: 64 << 10, retention: retention))
  let snapshots = DispatchQueue(label: "bench snapshots")
  let seconds = try time {
    for event in events {
      try journal.append(event)
      if event.sequence % 10_000 == 0 {
        let sequence = event.sequence
        snapshots.async { try? journal.writeSnapshot(sequence, at: sequence) }
      }
    }
    try journal.flush()
  }
  snapshots.sync {}
  try journal.close()
  let size = try FileManager.default.contentsOfDirectory(atPath: directory).reduce(UInt64(0)) { total, name in
    let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/" + name)
    return total + ((attributes[.size] as? NSNumber)?.uint64Value ?? 0)
  }
  return (Double(events.count) / seconds, size)
}
