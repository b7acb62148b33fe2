import Foundation

/// What replaying one log or bug report found: how much was replayed and checked, and the first
/// divergence, if any.
public struct ReplayReport: Sendable {
  /// The log directory or report file replayed.
  public var source: String
  /// The first event replayed (events before it are in the state the replay started from).
  public var firstSequence: UInt64
  /// The last event replayed.
  public var lastSequence: UInt64
  /// How many recorded fingerprints were compared with the replayed state.
  public var fingerprintsChecked: Int
  /// The first disagreement with the recording; `nil` when the replay agrees with every fingerprint and
  /// every event decoded.
  public var divergence: Divergence?
  /// Things worth knowing that are not divergences: a log without fingerprints, redacted values that
  /// changed the outcome.
  public var notes: [String]
  /// The event from which a bug report's redactions changed the replayed outcome on the device that
  /// made it (its fingerprints are compared with the device's replay of the redacted events from there).
  public var redactionChangedOutcomeAt: UInt64?
  /// The wall-clock time the replay took.
  public var seconds: Double

  /// Creates a report.
  public init(
    source: String, firstSequence: UInt64, lastSequence: UInt64, fingerprintsChecked: Int,
    divergence: Divergence?, notes: [String] = [], redactionChangedOutcomeAt: UInt64? = nil,
    seconds: Double = 0
  ) {
    self.source = source
    self.firstSequence = firstSequence
    self.lastSequence = lastSequence
    self.fingerprintsChecked = fingerprintsChecked
    self.divergence = divergence
    self.notes = notes
    self.redactionChangedOutcomeAt = redactionChangedOutcomeAt
    self.seconds = seconds
  }

  /// Whether the replay found no divergence.
  public var isClean: Bool { divergence == nil }

  /// The number of events replayed.
  public var eventCount: UInt64 { lastSequence >= firstSequence ? lastSequence - firstSequence + 1 : 0 }
}
