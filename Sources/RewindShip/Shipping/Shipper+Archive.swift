import RewindLog

/// Why the shipping archive hook kept a segment that retention wanted to remove (it is offered again at
/// the next cut).
public enum ShipArchiveRefusal: Error, Sendable, Hashable, CustomStringConvertible {
  /// The stream has not acknowledged the segment's last event.
  case notShipped(segment: String, lastSequence: UInt64, shippedThrough: UInt64)
  /// The stream acknowledged it less than the server's sync interval ago: on a server that acknowledges
  /// before it syncs (nats-server 2.9), the copy may not be on any disk yet.
  case notYetSynced(segment: String, lastSequence: UInt64, syncInterval: Duration)

  public var description: String {
    switch self {
    case .notShipped(let segment, let last, let shipped):
      "\(segment) kept: its last event \(last) is not acknowledged by the stream (shipped through \(shipped))"
    case .notYetSynced(let segment, let last, let interval):
      "\(segment) kept: its last event \(last) was acknowledged less than \(interval) ago, before the server's periodic sync"
    }
  }
}

extension Shipper {
  /// nats-server 2.9's stream sync interval (2 minutes) and a margin: how long after an acknowledgement a
  /// message is on the servers' disks.
  public static let syncIntervalOfNATS29 = Duration.seconds(150)

  /// A retention archive hook that ships first: a segment may be removed only once the stream has
  /// acknowledged its last event, and held it for `serverSyncInterval` (the server syncs to disk that
  /// often; use `.zero` with a server that syncs before acknowledging, e.g. nats-server 2.10+ with
  /// `sync_interval: always`).
  ///
  /// Set it in `FileJournalOptions.archive` before opening the journal. When the segment is not
  /// acknowledged yet, the hook wakes the running shipper (or, when none runs, ships on the retention
  /// thread) and waits up to `waitingUpTo`; then it throws ``ShipArchiveRefusal`` and the journal keeps the
  /// segment until a later cut.
  public func archive(
    serverSyncInterval: Duration = Shipper.syncIntervalOfNATS29, waitingUpTo: Duration = .seconds(5)
  )
    -> SegmentArchive
  {
    SegmentArchive(name: "rewind-ship:" + configuration.stream) { [self] segment in
      let last = segment.sequences.upperBound
      if progress.shippedThrough < last {
        if isRunning {
          wake()
          _ = waitUntilShipped(through: last, timeout: waitingUpTo)
        } else {
          _ = try? shipUntilCaughtUp(maximumAttempts: 1)
        }
      }
      let shipped = progress.shippedThrough
      guard shipped >= last else {
        throw ShipArchiveRefusal.notShipped(
          segment: segment.name, lastSequence: last, shippedThrough: shipped)
      }
      guard serverSyncInterval <= .zero || control.shipped(heldFor: serverSyncInterval) >= last else {
        throw ShipArchiveRefusal.notYetSynced(
          segment: segment.name, lastSequence: last, syncInterval: serverSyncInterval)
      }
    }
  }
}
