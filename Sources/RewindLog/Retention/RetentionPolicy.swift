/// How much of a log retention keeps on disk; set it in ``FileJournalOptions/retention``.
///
/// Each bound is a minimum: the log keeps at least the last ``events`` events, at least the last ``bytes``
/// bytes of segments, and every event younger than ``age`` (by its recorded timestamp), whichever keeps the
/// most. Only whole segments older than all of them are removed, and never one the newest valid snapshot
/// still needs: a log without a snapshot that matches it is never cut. The default,
/// ``keepEverything``, never removes anything.
///
/// ```swift
/// var options = FileJournalOptions(snapshotInterval: 1_000)
/// options.retention = RetentionPolicy(events: 100_000, age: .seconds(7 * 86_400))
/// ```
public struct RetentionPolicy: Sendable, Hashable, CustomStringConvertible {
  /// Keep at least this many of the newest events.
  public var events: UInt64?
  /// Keep at least this many bytes of the newest segments.
  public var bytes: UInt64?
  /// Keep every event whose timestamp is less than this long before now.
  public var age: Duration?

  /// A policy keeping at least what each given bound asks for; with no bound, everything.
  public init(events: UInt64? = nil, bytes: UInt64? = nil, age: Duration? = nil) {
    self.events = events
    self.bytes = bytes
    self.age = age
  }

  /// Keeps every event: no segment is ever removed (today's behaviour, the default).
  public static let keepEverything = RetentionPolicy()

  /// Whether the policy never removes anything.
  public var keepsEverything: Bool { events == nil && bytes == nil && age == nil }

  public var description: String {
    if keepsEverything { return "keep everything" }
    var parts: [String] = []
    if let events { parts.append("the last \(events) events") }
    if let bytes { parts.append("the last \(bytes) bytes") }
    if let age { parts.append("events younger than \(age)") }
    return "keep at least " + parts.joined(separator: ", ")
  }
}
