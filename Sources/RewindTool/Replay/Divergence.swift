import Foundation
import Rewind

/// Why a replay disagrees with a recording.
public enum DivergenceKind: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
  /// An event does not decode as this build's action type: its schema changed and no upcaster covers
  /// it, or it names a case this build no longer has.
  case decodeFailure = "decode-failure"
  /// This build's reducer computes a different state from the same events than the build that recorded
  /// them did.
  case behaviourChange = "behaviour-change"
  /// The reducer does not compute the same state twice from the same events: two replays on this build
  /// differ, or the build that recorded the log does not reproduce it (it read something the log does not
  /// hold: the wall clock, a random source, a global).
  case nondeterminism

  public var description: String { rawValue }
}

/// The event at which a replay disagrees with the recording, as the log records it.
public struct DivergentEvent: Sendable, Hashable {
  /// Its sequence number.
  public var sequence: UInt64
  /// Its type: the action's full case path (`list.swipe.began`), or `rewind.undo` and the like for a
  /// history command; the recorded type name when it does not decode.
  public var type: String
  /// Who sent it, when the app named someone.
  public var actor: String?
  /// A person, an effect (with the event that caused it) or the system.
  public var source: EventSource
  /// The chain of work it belongs to.
  public var correlationID: UInt64
  /// When the store accepted it.
  public var timestamp: Date
  /// The action or command as Swift prints it (empty when it does not decode).
  public var payload: String

  /// Creates a description of an event.
  public init(
    sequence: UInt64, type: String, actor: String?, source: EventSource, correlationID: UInt64,
    timestamp: Date, payload: String
  ) {
    self.sequence = sequence
    self.type = type
    self.actor = actor
    self.source = source
    self.correlationID = correlationID
    self.timestamp = timestamp
    self.payload = payload
  }

  /// The event `event`, its type read from its action's cases.
  public init<Action>(_ event: Event<Action>) {
    let type: String =
      switch event.payload {
      case .action(let action): ActionCasePath.of(action)
      case .command(let command): "rewind." + ActionCasePath.of(command)
      }
    self.init(
      sequence: event.sequence, type: type, actor: event.metadata.actor, source: event.metadata.source,
      correlationID: event.metadata.correlationID.rawValue, timestamp: event.timestamp,
      payload: event.payload.description)
  }

  /// Where it came from in words: `user`, `effect of #12`, `system`.
  public var origin: String {
    switch source {
    case .user: "user"
    case .effect(let cause): "effect of #\(cause)"
    case .system: "system"
    }
  }
}

/// Where the recorded state a divergence is compared with comes from.
public enum RecordedStateSource: Sendable, Hashable, CustomStringConvertible {
  /// A snapshot file of the log, as of event `sequence`.
  case snapshot(sequence: UInt64)
  /// The state a bug report carries, as of event `sequence`.
  case report(sequence: UInt64)

  /// The event the recorded state is as of.
  public var sequence: UInt64 {
    switch self {
    case .snapshot(let sequence), .report(let sequence): sequence
    }
  }

  public var description: String {
    switch self {
    case .snapshot(let sequence): "the snapshot at event \(sequence)"
    case .report(let sequence): "the report's state at event \(sequence)"
    }
  }
}

/// The first place where a replay disagrees with the recording, and why.
public struct Divergence: Sendable, Hashable {
  /// Why.
  public var kind: DivergenceKind
  /// The first event whose replayed state disagrees with the recording (for a decode failure, the event
  /// that does not decode).
  public var event: DivergentEvent
  /// The newest event before it whose recorded fingerprint the replay matched (0: the start). When it is
  /// `event.sequence - 1` the divergence is exact; otherwise it happened somewhere after it, at or before
  /// `event` (the log has no fingerprints in between).
  public var lastAgreeing: UInt64
  /// The fingerprint the log records for ``event``, if any.
  public var recorded: RecordedFingerprint?
  /// The fingerprint of the replayed state after ``event``.
  public var replayed: StateFingerprint?
  /// What happened, in a sentence: the decoding error, the two replays that differ, the builds.
  public var cause: String
  /// The replayed state against the nearest recorded state at or after ``event`` (see ``comparedWith``),
  /// path by path; empty when no recorded state was available.
  public var changes: [StateChange]
  /// Which recorded state ``changes`` compares with.
  public var comparedWith: RecordedStateSource?
  /// What the replay of ``event`` itself changed in the replayed state (before it → after it): context
  /// when no recorded state is available.
  public var replayedChange: [StateChange]
  /// Redacted values of a bug report that the events up to this one read: the recording may depend on
  /// the values that were taken out.
  public var redactions: [String]

  /// Creates a divergence.
  public init(
    kind: DivergenceKind, event: DivergentEvent, lastAgreeing: UInt64, recorded: RecordedFingerprint? = nil,
    replayed: StateFingerprint? = nil, cause: String, changes: [StateChange] = [],
    comparedWith: RecordedStateSource? = nil, replayedChange: [StateChange] = [], redactions: [String] = []
  ) {
    self.kind = kind
    self.event = event
    self.lastAgreeing = lastAgreeing
    self.recorded = recorded
    self.replayed = replayed
    self.cause = cause
    self.changes = changes
    self.comparedWith = comparedWith
    self.replayedChange = replayedChange
    self.redactions = redactions
  }

  /// Whether ``event`` is exactly the first event that disagrees: the event before it agreed.
  public var isExact: Bool { lastAgreeing + 1 == event.sequence }

  /// The events the divergence lies in: `lastAgreeing + 1 ... event.sequence`.
  public var window: ClosedRange<UInt64> { (lastAgreeing + 1)...max(lastAgreeing + 1, event.sequence) }
}
