import Foundation

/// An action the store accepted, with its place in history and where it came from.
///
/// Events are the source of truth: replaying them in order from the initial state reproduces the state
/// at every sequence number.
public struct Event<Action> {
  /// The position in the log: gapless, starting at 1.
  public var sequence: UInt64
  /// When the store accepted the action, read from the store's ``EventClock``.
  public var timestamp: Date
  /// Who sent it, from where, and the chain of work it belongs to.
  public var metadata: EventMetadata
  /// What happened: an app action, or a history command (undo, redo, restore, transaction bounds).
  public var payload: EventPayload<Action>
  /// The fingerprint of the state after the event, for the events the store fingerprinted (see
  /// ``Fingerprinting``); `nil` for the others.
  @inlinable
  public var fingerprint: RecordedFingerprint? {
    get { fingerprintBox?.fingerprint }
    set { fingerprintBox = newValue.map(RecordedFingerprintBox.init) }
  }
  /// ``fingerprint``, out of line: one event in a thousand or so has one, and inline its 25 bytes grew
  /// every event an in-memory journal keeps by 24 (a reference is 8).
  @usableFromInline var fingerprintBox: RecordedFingerprintBox?
  /// The values the reducer drew from recorded dependencies while it applied the action, in order: what
  /// every replay of the event draws again. Empty for most events (see ``RecordedDraw``).
  @inlinable
  public var draws: [RecordedDraw] {
    get { recordedDraws ?? [] }
    set { recordedDraws = newValue.isEmpty ? nil : newValue }
  }
  /// ``draws``, `nil` when there are none: an event that draws nothing holds no reference, so the send
  /// path counts none.
  @usableFromInline var recordedDraws: [RecordedDraw]?

  /// Creates an event.
  @inlinable
  public init(
    sequence: UInt64, timestamp: Date, metadata: EventMetadata, payload: EventPayload<Action>,
    draws: [RecordedDraw] = [], fingerprint: RecordedFingerprint? = nil
  ) {
    self.init(
      sequence: sequence, timestamp: timestamp, metadata: metadata, payload: payload,
      recordedDraws: draws.isEmpty ? nil : draws, fingerprint: fingerprint)
  }

  /// Creates an event whose draws are `recordedDraws` (`nil` or not empty).
  @inlinable
  init(
    sequence: UInt64, timestamp: Date, metadata: EventMetadata, payload: EventPayload<Action>,
    recordedDraws: [RecordedDraw]?, fingerprint: RecordedFingerprint? = nil
  ) {
    self.sequence = sequence
    self.timestamp = timestamp
    self.metadata = metadata
    self.payload = payload
    self.recordedDraws = recordedDraws
    self.fingerprintBox = fingerprint.map(RecordedFingerprintBox.init)
  }

  /// Creates an event for an app action.
  @inlinable
  public init(
    sequence: UInt64, timestamp: Date, metadata: EventMetadata, action: Action, draws: [RecordedDraw] = [],
    fingerprint: RecordedFingerprint? = nil
  ) {
    self.init(
      sequence: sequence, timestamp: timestamp, metadata: metadata, payload: .action(action), draws: draws,
      fingerprint: fingerprint)
  }

  /// The app action, or `nil` for a history command.
  @inlinable
  public var action: Action? {
    if case .action(let action) = payload { return action }
    return nil
  }

  /// The history command, or `nil` for an app action.
  @inlinable
  public var command: HistoryCommand? {
    if case .command(let command) = payload { return command }
    return nil
  }
}

extension Event: Sendable where Action: Sendable {}
extension Event: Equatable where Action: Equatable {}
extension Event: Hashable where Action: Hashable {}

extension Event: Codable where Action: Codable {
  private enum CodingKeys: String, CodingKey {
    case sequence, timestamp, metadata, payload, draws, fingerprint
  }

  /// Decodes an event; one without `draws` (every event written before draws existed) drew nothing, one
  /// without `fingerprint` (most events, and every one written before fingerprints existed) has none.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      sequence: try container.decode(UInt64.self, forKey: .sequence),
      timestamp: try container.decode(Date.self, forKey: .timestamp),
      metadata: try container.decode(EventMetadata.self, forKey: .metadata),
      payload: try container.decode(EventPayload<Action>.self, forKey: .payload),
      draws: try container.decodeIfPresent([RecordedDraw].self, forKey: .draws) ?? [],
      fingerprint: try container.decodeIfPresent(RecordedFingerprint.self, forKey: .fingerprint))
  }

  /// Encodes the event; `draws` and `fingerprint` only when there are some, so that other events encode as
  /// before.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(sequence, forKey: .sequence)
    try container.encode(timestamp, forKey: .timestamp)
    try container.encode(metadata, forKey: .metadata)
    try container.encode(payload, forKey: .payload)
    if !draws.isEmpty { try container.encode(draws, forKey: .draws) }
    try container.encodeIfPresent(fingerprint, forKey: .fingerprint)
  }
}

/// Who sent an event's action, from where, and which chain of work it belongs to.
public struct EventMetadata: Sendable, Hashable, Codable {
  /// The user or process on whose behalf the action was sent, if the app names one.
  public var actor: String?
  /// Whether a person, an effect or the system sent the action.
  public var source: EventSource
  /// Shared by an action and every action its effects send, transitively.
  public var correlationID: CorrelationID

  /// Creates metadata.
  @inlinable
  public init(actor: String?, source: EventSource, correlationID: CorrelationID) {
    self.actor = actor
    self.source = source
    self.correlationID = correlationID
  }
}

/// Where an event's action came from.
public enum EventSource: Sendable, Hashable, Codable {
  /// Sent by the app on behalf of a person: a tap, a swipe, an edit.
  case user
  /// Sent by an effect; `cause` is the sequence number of the event whose reducer returned that effect.
  case effect(cause: UInt64)
  /// Sent by the app itself: a timer tick, a push, a lifecycle change.
  case system

  /// Whether an effect sent the action.
  public var isEffect: Bool {
    if case .effect = self { return true }
    return false
  }
}

/// Ties together an action and everything its effects send. By default, the sequence number of the first
/// event of the chain.
public struct CorrelationID: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
  /// The identifier.
  public var rawValue: UInt64

  /// Wraps `rawValue`.
  @inlinable
  public init(rawValue: UInt64) { self.rawValue = rawValue }

  public var description: String { String(rawValue) }
}

/// Where a `send` comes from: a person (with an optional actor) or the system.
///
/// ```swift
/// store.send(.archive(id))                               // the default: a person
/// store.send(.archive(id), from: .user(actor: "alice"))  // names who
/// store.send(.tick(now: date), from: .system)            // the app itself
/// ```
public struct Origin: Sendable, Hashable {
  /// The actor to record; `nil` uses the store's default actor.
  public var actor: String?
  /// Whether a person or the system sent it.
  public var isSystem: Bool
  /// A correlation id to continue; `nil` starts a new chain.
  public var correlationID: CorrelationID?

  /// Creates an origin.
  public init(actor: String? = nil, isSystem: Bool = false, correlationID: CorrelationID? = nil) {
    self.actor = actor
    self.isSystem = isSystem
    self.correlationID = correlationID
  }

  /// A person, the store's default actor.
  public static let user = Origin()
  /// The app itself.
  public static let system = Origin(isSystem: true)

  /// The event source this origin records.
  @inlinable
  public var source: EventSource { isSystem ? .system : .user }

  /// A person named `actor`.
  public static func user(actor: String, correlationID: CorrelationID? = nil) -> Origin {
    Origin(actor: actor, correlationID: correlationID)
  }
}
