/// An event's ``RecordedFingerprint`` kept out of line (``Event/fingerprint``), compared and hashed by
/// value, so that an event is equal to another with the same fingerprint whichever box holds it.
@usableFromInline
final class RecordedFingerprintBox: Sendable, Hashable {
  @usableFromInline let fingerprint: RecordedFingerprint

  @inlinable
  init(_ fingerprint: RecordedFingerprint) { self.fingerprint = fingerprint }

  @inlinable
  static func == (left: RecordedFingerprintBox, right: RecordedFingerprintBox) -> Bool {
    left.fingerprint == right.fingerprint
  }

  @inlinable
  func hash(into hasher: inout Hasher) { hasher.combine(fingerprint) }
}
