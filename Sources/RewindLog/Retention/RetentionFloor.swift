import Foundation

/// Where retention may cut a log: the one place that decides which segments can go.
///
/// A segment may be removed only when (1) it is not the newest (active) segment, (2) it lies wholly
/// before the segment holding the newest snapshot that matches the log (the state can be rebuilt from that
/// snapshot and the events after it), and (3) it is wholly older than everything the policy keeps. Only a
/// prefix of the segments is removed: the log stays one gapless run of events.
enum RetentionFloor {
  /// One segment as the floor sees it.
  struct Segment {
    var firstSequence: UInt64
    var lastSequence: UInt64
    var bytes: UInt64
  }

  /// How many of the oldest `segments` (oldest first, the active one last) may be removed.
  ///
  /// - Parameters:
  ///   - snapshotSequence: the event of the newest snapshot that matches the log; `nil`: nothing is cut.
  ///   - lastSequence: the newest event in the log.
  ///   - now: the time the policy's age is measured from.
  ///   - newestTimestamp: the timestamp of a segment's newest event, read only for a policy with an age
  ///     (`nil` when it cannot be read: the segment is then kept).
  static func removableCount(
    segments: [Segment], policy: RetentionPolicy, snapshotSequence: UInt64?, lastSequence: UInt64,
    now: Date, newestTimestamp: (Int) -> Date?
  ) -> Int {
    guard !policy.keepsEverything, let snapshotSequence, segments.count > 1 else { return 0 }
    // Bytes kept by the segments after each one, newest first.
    var keptAfter = [UInt64](repeating: 0, count: segments.count)
    var total: UInt64 = 0
    for index in segments.indices.reversed() {
      keptAfter[index] = total
      total += segments[index].bytes
    }
    var count = 0
    for (index, segment) in segments.enumerated().dropLast() {
      // The segment holding the snapshot's event stays: opening checks the snapshot against its frame.
      guard segment.lastSequence < snapshotSequence else { break }
      if let events = policy.events, lastSequence - segment.lastSequence < events { break }
      if let bytes = policy.bytes, keptAfter[index] < bytes { break }
      if let age = policy.age {
        guard let newest = newestTimestamp(index), now.timeIntervalSince(newest) > age.seconds else { break }
      }
      count = index + 1
    }
    return count
  }
}

extension Duration {
  /// The duration in seconds.
  fileprivate var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
