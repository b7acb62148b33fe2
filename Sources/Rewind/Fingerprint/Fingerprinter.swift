import Synchronization

/// A store's fingerprinting while it runs: which events are due a fingerprint, and the last event that
/// got one (so that closing adds one only when the state changed since).
///
/// Used under the store's state lock; the last fingerprinted event is atomic only so that the type is
/// `Sendable` without a lock of its own.
@usableFromInline
final class Fingerprinter<State: Sendable>: Sendable {
  let settings: Fingerprinting<State>
  /// `settings.interval`, or 0 for none: the send path's test is one remainder.
  @usableFromInline let interval: UInt64
  /// The journal's snapshot interval, or 0 for none: the events due a snapshot are fingerprinted too.
  @usableFromInline let snapshotInterval: UInt64
  /// The newest event fingerprinted (the store's first sequence number when none was).
  let lastFingerprinted: Atomic<UInt64>

  init(_ settings: Fingerprinting<State>, after sequence: UInt64) {
    self.settings = settings
    interval = settings.interval ?? 0
    snapshotInterval = settings.snapshotInterval ?? 0
    lastFingerprinted = Atomic(sequence)
  }

  /// Whether event `sequence` is due a fingerprint by an interval.
  @inlinable
  func isDue(_ sequence: UInt64) -> Bool {
    (interval != 0 && sequence % interval == 0) || (snapshotInterval != 0 && sequence % snapshotInterval == 0)
  }

  /// The fingerprint of `state`, the state after event `sequence`, as the log records it (`nil` when the
  /// state does not encode: a fingerprint is evidence, never a reason to refuse a send).
  @usableFromInline @inline(never)
  func record(_ state: State, at sequence: UInt64) -> RecordedFingerprint? {
    guard let fingerprint = settings.record(state) else { return nil }
    lastFingerprinted.store(sequence, ordering: .relaxed)
    return fingerprint
  }

  /// Whether events after the last fingerprinted one exist, up to `sequence`: closing then marks the
  /// state.
  func hasUnfingerprinted(through sequence: UInt64) -> Bool {
    lastFingerprinted.load(ordering: .relaxed) < sequence
  }
}
