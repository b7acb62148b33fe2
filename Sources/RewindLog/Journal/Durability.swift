/// When an appended event counts as durable.
public enum Durability: Sendable, Hashable {
  /// Events are handed to the operating system without syncing: they survive a crash of the process, not
  /// of the machine. ``FileJournal/waitForDurability(through:)`` and ``FileJournal/flush()`` still sync.
  case none
  /// A committer thread writes what has accumulated as one frame, syncs, then acknowledges the whole
  /// group. `window` delays each commit to gather more events (zero: commit as soon as the previous sync
  /// is done). Await ``FileJournal/waitForDurability(through:)`` to know an event is durable.
  case grouped(window: Duration = .zero)
  /// `append` returns only after the event's frame is synced.
  case immediate
}

/// Whether a journal still makes its events durable.
public enum DurabilityStatus: Sendable, Hashable, CustomStringConvertible {
  /// Every event through `durableThrough` is synced; later ones are on their way.
  case healthy(durableThrough: UInt64)
  /// A write or sync failed. Events after `durableThrough` may be lost; nothing more is acknowledged
  /// until the journal is reopened.
  case lost(IOError, durableThrough: UInt64)

  /// Whether durability was lost.
  public var isLost: Bool {
    if case .lost = self { return true }
    return false
  }

  public var description: String {
    switch self {
    case .healthy(let sequence): "durable through event \(sequence)"
    case .lost(let error, let sequence): "durability lost after event \(sequence): \(error)"
    }
  }
}

/// How a file journal is laid out and when it syncs.
public struct FileJournalOptions: Sendable, Hashable {
  /// When events count as durable.
  public var durability: Durability
  /// A segment is closed and a new one started once a frame would take it past this many bytes.
  public var segmentSize: Int
  /// How new events are encoded. Existing events keep the codec they were written with.
  public var codec: EventCodec
  /// Write a snapshot of the state every this many events (a store with a `Codable` state opened with
  /// `Store.open` only); `nil` writes none, and every open replays the whole log. The default,
  /// ``defaultSnapshotInterval``, bounds how many events an open replays.
  public var snapshotInterval: UInt64?
  /// How many snapshot files to keep: older ones are removed after each new snapshot (at least 1).
  public var keptSnapshots: Int
  /// Keys the hash chain with HMAC-SHA-256 (see ``ChainKey``). A new log is created keyed; an existing log
  /// must have been written with the same key (``FileJournalError/wrongKey(segment:)``,
  /// ``FileJournalError/keyRequired(segment:)``, ``FileJournalError/notKeyed(segment:)`` otherwise).
  public var chainKey: ChainKey?
  /// Whether `Store.open` checks the whole hash chain before it replays any event. By default the check
  /// runs on another thread while the events are replayed, which makes opening about a third faster; the
  /// store is still returned only once the check has passed, and a wrong chain value is the error thrown
  /// even if the replay failed first. What the default allows is that reducers see the events of a
  /// tampered log before the open is refused: set this when a reducer must never see them (reducers that
  /// cannot trap on any value of their action type lose nothing by the default).
  public var checksChainBeforeReplay: Bool
  /// How much of the log to keep on disk: whole segments older than it are removed, never one the newest
  /// snapshot still needs (see ``RetentionPolicy``). Default: keep everything.
  public var retention: RetentionPolicy
  /// Receives each segment before retention removes it (see ``SegmentArchive``); `nil`: none.
  public var archive: SegmentArchive?

  /// 10,000 events: an open replays at most about this many events (a few milliseconds) beyond the undo
  /// history, while a snapshot, which encodes the whole state, is written rarely.
  public static let defaultSnapshotInterval: UInt64 = 10_000

  /// Creates options.
  public init(
    durability: Durability = .grouped(), segmentSize: Int = 64 << 20, codec: EventCodec = .binary,
    snapshotInterval: UInt64? = FileJournalOptions.defaultSnapshotInterval, keptSnapshots: Int = 2,
    chainKey: ChainKey? = nil, checksChainBeforeReplay: Bool = false,
    retention: RetentionPolicy = .keepEverything,
    archive: SegmentArchive? = nil
  ) {
    self.retention = retention
    self.archive = archive
    self.durability = durability
    self.segmentSize = max(segmentSize, 256)
    self.codec = codec
    self.snapshotInterval = snapshotInterval.map { max($0, 1) }
    self.keptSnapshots = max(keptSnapshots, 1)
    self.chainKey = chainKey
    self.checksChainBeforeReplay = checksChainBeforeReplay
  }
}
