/// When a store records fingerprints of its state in its log: every so many events, at every event that
/// is due a snapshot (a store made by `Store.open`), when it closes, and at ``Store/mark(_:from:)``.
///
/// Closing and marking record an event of their own, a ``HistoryCommand/mark(name:)`` that changes
/// nothing, carrying the fingerprint of the state at that moment; closing records one only when events
/// came after the last fingerprint.
///
/// A fingerprint is the digest of the state after an event (``StateFingerprint``), stored with that
/// event; in a file journal it is part of the event's record and so covered by the hash chain. A replay
/// compares each one with the state it computes (see Docs/BugReports.md).
///
/// ```swift
/// let store = Store(
///   initialState: Todos.State(), reducer: Todos(), fingerprints: Fingerprinting(every: 1_000))
/// ```
public struct Fingerprinting<State: Sendable>: Sendable {
  /// Events between fingerprints: event `n` is fingerprinted when `n` is a multiple of it. `nil` records
  /// only those at snapshots, at close and at marks.
  public var interval: UInt64?
  /// The build the fingerprints are recorded as (see ``BuildIdentity``).
  public var build: BuildIdentity
  /// The journal's snapshot interval, set by `Store.open`: the events due a snapshot get a fingerprint.
  @usableFromInline package var snapshotInterval: UInt64?
  /// Computes a fingerprint; `nil` when fingerprints are off.
  let digest: (@Sendable (State) throws -> StateFingerprint)?

  /// Fingerprints every `interval` events (1,000 by default), recorded as `build`.
  public init(every interval: UInt64? = 1_000, build: BuildIdentity = .current) where State: Encodable {
    self.interval = interval.map { max(1, $0) }
    self.build = build
    snapshotInterval = nil
    digest = { try StateFingerprint.of($0) }
  }

  private init() {
    interval = nil
    // Never recorded. Not `.current`: finding it reads the main bundle (on Linux, lists the executable's
    // folder), about 18 million instructions at the first store an app makes.
    build = BuildIdentity(tag: 0)
    snapshotInterval = nil
    digest = nil
  }

  /// No fingerprints: the default for a store whose state is not `Encodable`.
  public static var off: Fingerprinting { Fingerprinting() }

  /// Whether fingerprints are recorded at all.
  public var isOn: Bool { digest != nil }

  /// Whether event `sequence` is due a fingerprint by the interval.
  @inlinable
  func isDue(_ sequence: UInt64) -> Bool {
    guard let interval else { return false }
    return sequence % interval == 0
  }

  /// The fingerprint of `state` as the log records it; `nil` when fingerprints are off or `state` does
  /// not encode (a fingerprint is evidence, never a reason to refuse a send).
  func record(_ state: State) -> RecordedFingerprint? {
    guard let digest, let fingerprint = try? digest(state) else { return nil }
    return RecordedFingerprint(state: fingerprint, build: build)
  }
}
