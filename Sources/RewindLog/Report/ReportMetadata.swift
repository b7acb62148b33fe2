import Foundation
import Rewind

/// What a bug report says about where it comes from: the app and build, the platform, the log and range
/// its events come from, the schema they were written with, and what was redacted.
public struct ReportMetadata: Sendable, Hashable, Codable {
  /// The app's identifier (a bundle identifier, say): a report is only read by the app that made it.
  public var app: String
  /// The build that made the report, by name (e.g. `"2.4.1 (318)"`).
  public var build: String
  /// That build's identity, as its fingerprints record it.
  public var buildIdentity: BuildIdentity
  /// The operating system, its version and the processor architecture.
  public var platform: String
  /// When the report was made.
  public var created: Date
  /// What the person reporting wrote, if anything.
  public var note: String?
  /// The id of the log the events come from (32 hexadecimal digits).
  public var logID: String
  /// Whether that log's chain is keyed (the report's own chain is plain SHA-256).
  public var logIsKeyed: Bool
  /// The first event of the report.
  public var firstSequence: UInt64
  /// The last event of the report.
  public var lastSequence: UInt64
  /// The event before the report's first frame (0 when it starts at the log's first event).
  public var anchorSequence: UInt64
  /// The log's chain value after event ``anchorSequence``, in hexadecimal: the report's chain continues
  /// it (for an unkeyed log with nothing redacted, the report's frames have the log's own chain values).
  public var anchorChain: String
  /// The log's chain value after the last frame, as the log has it (differs from the report's when
  /// something was redacted or the log is keyed): to compare with a head stored elsewhere.
  public var logHead: LogAnchor
  /// The schema the events and state were written with.
  public var schema: ReportSchema
  /// The codec of the states the report holds.
  public var stateCodec: UInt8
  /// The fingerprint of the state the report starts from (as of `firstSequence - 1`), computed on the
  /// device before redaction, when it fingerprints.
  public var baseFingerprint: StateFingerprint?
  /// What was redacted, and what that did to the outcome.
  public var redaction: RedactionManifest

  /// The range of events.
  public var range: ClosedRange<UInt64> { firstSequence...max(firstSequence, lastSequence) }

  /// The running platform, in the words ``platform`` records.
  public static var currentPlatform: String {
    #if os(Linux)
      let system = "Linux"
    #elseif os(macOS)
      let system = "macOS"
    #elseif os(iOS)
      let system = "iOS"
    #elseif os(tvOS)
      let system = "tvOS"
    #elseif os(watchOS)
      let system = "watchOS"
    #elseif os(visionOS)
      let system = "visionOS"
    #else
      let system = "unknown OS"
    #endif
    #if arch(arm64)
      let architecture = "arm64"
    #elseif arch(x86_64)
      let architecture = "x86_64"
    #else
      let architecture = "other"
    #endif
    return "\(system) \(ProcessInfo.processInfo.operatingSystemVersionString) \(architecture)"
  }
}

/// The schema a report's events and states were written with.
public struct ReportSchema: Sendable, Hashable, Codable {
  /// The action type's name, as Swift prints it.
  public var actionType: String
  /// The state type's name.
  public var stateType: String
  /// The schema version the app wrote actions with (``VersionedAction/schemaVersion``, 1 by default).
  public var actionVersion: UInt64
  /// Every event type in the report with the schema versions it is written in.
  public var eventTypes: [EventTypeVersion]

  /// One event type and a version it is written in.
  public struct EventTypeVersion: Sendable, Hashable, Codable {
    /// The recorded type name (the action's case name, or `rewind.undo` …).
    public var name: String
    /// The schema version.
    public var version: UInt64

    /// Creates an entry.
    public init(name: String, version: UInt64) {
      self.name = name
      self.version = version
    }
  }
}

/// What a report's redaction took out, on the device, before the report left it.
public struct RedactionManifest: Sendable, Hashable, Codable {
  /// The rules the app declared.
  public var rules: RedactionRules
  /// Every value replaced: where (`state@41`, `event 57`) and the path of the value.
  public var redacted: [RedactedValue]
  /// Whether the device replayed the redacted events to see what the redaction changed (it can only
  /// when the report is made by the store, which has the reducer).
  public var outcomeChecked: Bool
  /// The fingerprints the device's replay of the redacted events computed where they differ from the
  /// recorded ones: from the first of them on, a redacted value changed the outcome.
  public var changedFingerprints: [ChangedFingerprint]

  /// Nothing redacted.
  public init(rules: RedactionRules = RedactionRules()) {
    self.rules = rules
    redacted = []
    outcomeChecked = false
    changedFingerprints = []
  }

  /// A fingerprint of the redacted replay that differs from the recorded one.
  public struct ChangedFingerprint: Sendable, Hashable, Codable {
    /// The event.
    public var sequence: UInt64
    /// What the replay of the redacted events computed there.
    public var fingerprint: StateFingerprint

    /// Creates an entry.
    public init(sequence: UInt64, fingerprint: StateFingerprint) {
      self.sequence = sequence
      self.fingerprint = fingerprint
    }
  }
}

/// One value a report's redaction replaced.
public struct RedactedValue: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Where it was.
  public enum Place: Sendable, Hashable, Codable {
    /// In the state the report holds as of event `sequence` (the start state or the end state).
    case state(sequence: UInt64)
    /// In the action of event `sequence`.
    case event(sequence: UInt64)
  }

  /// Where it was.
  public var place: Place
  /// The path of the value, with the indices and keys it was found at (`list.rows.3.item.sender`).
  public var path: String

  /// Creates an entry.
  public init(place: Place, path: String) {
    self.place = place
    self.path = path
  }

  /// The sequence number of the state or event it was in.
  public var sequence: UInt64 {
    switch place {
    case .state(let sequence), .event(let sequence): sequence
    }
  }

  public var description: String {
    switch place {
    case .state(let sequence): "state as of event \(sequence): \(path)"
    case .event(let sequence): "event \(sequence): \(path)"
    }
  }
}
