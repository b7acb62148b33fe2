import Foundation
import RewindLog

/// An event as the tool shows it: the envelope fields pulled out of the recorded tree, and the action
/// (or history command) as JSON.
public struct EventView: Sendable {
  /// The position in the log.
  public var sequence: UInt64
  /// The recorded type name.
  public var typeName: String
  /// The recorded schema version.
  public var schemaVersion: UInt64
  /// The payload codec.
  public var codec: EventCodec
  /// When the store accepted the action, if the record has a timestamp.
  public var timestamp: Date?
  /// When its frame was committed.
  public var committed: Date
  /// The actor, if any.
  public var actor: String?
  /// `user`, `effect` or `system`.
  public var source: String?
  /// The causing event of an effect.
  public var cause: UInt64?
  /// The correlation id.
  public var correlationID: UInt64?
  /// `action` or `command`.
  public var kind: String
  /// The action or command as JSON.
  public var body: JSONValue
  /// The action as recorded, with Swift's `_0` wrappers: they tell a nested case from a labelled value.
  var action: JSONValue = .null
  /// The values the reducer drew from recorded dependencies (`[{"uuid": …}, {"date": …}]`), if any.
  public var draws: JSONValue?
  /// The state's fingerprint recorded with the event, if any.
  public var fingerprint: RecordedFingerprint?

  /// Reads the envelope of `event`.
  public init(_ event: InspectedEvent, committed: Date) {
    sequence = event.sequence
    typeName = event.typeName
    schemaVersion = event.schemaVersion
    codec = event.codec
    self.committed = committed
    let whole: JSONValue
    if case .string(let text) = event.payload, event.codec == .json {
      whole = (try? BinaryValue.parseJSON(Array(text.utf8))).map(JSONValue.init) ?? .string(text)
    } else {
      whole = JSONValue(event.payload)
    }
    if case .number(let text)? = whole["timestamp"], let seconds = Double(text) {
      timestamp = Date(timeIntervalSinceReferenceDate: seconds)
    }
    let metadata = whole["metadata"]
    if case .string(let name)? = metadata?["actor"] { actor = name }
    if case .object(let fields)? = metadata?["source"], let first = fields.first {
      source = first.0
      if case .number(let text)? = first.1["cause"] { cause = UInt64(text) }
    }
    if case .object(let fields)? = metadata?["correlationID"], case .number(let text)? = fields.first?.1 {
      correlationID = UInt64(text)
    } else if case .number(let text)? = metadata?["correlationID"] {
      correlationID = UInt64(text)
    }
    draws = whole["draws"]
    fingerprint = Self.fingerprint(whole["fingerprint"])
    if case .object(let fields)? = whole["payload"], let first = fields.first {
      kind = first.0
      action = first.1
      body = Self.unwrap(first.1)
    } else {
      kind = "event"
      body = whole
    }
  }

  /// The full path of the action's type, every enum case from the root action down, written as Swift
  /// names its cases (`list.swipe.panBegan`, `remove(index:)`, `move(_:to:)`): read from the payload as
  /// its synthesized `Codable` conformance wrote it (see `ActionPathReader`). The recorded type for a
  /// history command, or when the payload shows no case.
  public var actionPath: String {
    guard kind == "action" else { return typeName }
    return ActionPathReader.path(of: action, keysInOrder: codec == .binary) ?? typeName
  }

  /// A recorded fingerprint from its tree (`{"state": {"high": …, "low": …}, "build": {"tag": …}}`).
  static func fingerprint(_ tree: JSONValue?) -> RecordedFingerprint? {
    func number(_ value: JSONValue?) -> UInt64? {
      if case .number(let text)? = value { return UInt64(text) }
      return nil
    }
    guard let high = number(tree?["state"]?["high"]), let low = number(tree?["state"]?["low"]) else {
      return nil
    }
    return RecordedFingerprint(
      state: StateFingerprint(high: high, low: low),
      build: number(tree?["build"]?["tag"]).map(BuildIdentity.init(tag:)))
  }

  /// Swift's synthesized coding wraps an enum case's single unlabeled value as `{"_0": value}`: show the
  /// value itself, at any depth.
  static func unwrap(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(let fields):
      if fields.count == 1, fields[0].0 == "_0" { return unwrap(fields[0].1) }
      return .object(fields.map { ($0.0, unwrap($0.1)) })
    case .array(let values): return .array(values.map(unwrap))
    default: return value
    }
  }

  /// The event as one JSON object (the form `events --json`, `show --json` and the timeline use).
  public var json: JSONValue {
    // Text from the log is escaped by LogText's rule, as in every other output.
    var fields: [(String, JSONValue)] = [
      ("sequence", .int(sequence)), ("type", .string(LogText.escaped(typeName))),
      ("path", .string(LogText.escaped(actionPath))),
      ("schemaVersion", .int(schemaVersion)), ("kind", .string(LogText.escaped(kind))),
    ]
    fields.append(("time", timestamp.map { .string(Self.format($0)) } ?? .null))
    fields.append(("committed", .string(Self.format(committed))))
    fields.append(("actor", actor.map { .string(LogText.escaped($0)) } ?? .null))
    fields.append(("source", source.map { .string(LogText.escaped($0)) } ?? .null))
    if let cause { fields.append(("cause", .int(cause))) }
    if let correlationID { fields.append(("correlationID", .int(correlationID))) }
    fields.append(("codec", .string(codec == .binary ? "binary" : "json")))
    fields.append(("payload", body))
    if let draws { fields.append(("draws", draws)) }
    if let fingerprint {
      var recorded: [(String, JSONValue)] = [("state", .string(fingerprint.state.description))]
      if let build = fingerprint.build { recorded.append(("build", .string(build.description))) }
      fields.append(("fingerprint", .object(recorded)))
    }
    return .object(fields)
  }

  /// One line for `events`: sequence, time, type, source, actor, payload (shortened).
  public var line: String {
    let time = timestamp.map(Self.format) ?? "-"
    var text = "#\(sequence)  \(time)  \(LogText.escaped(actionPath))  \(source.map(LogText.escaped) ?? "-")"
    if let cause { text += "(#\(cause))" }
    text += "  \(actor.map(LogText.escaped) ?? "-")  "
    let payload = body.serialized()
    text += payload.count > 100 ? String(payload.prefix(99)) + "…" : payload
    if let draws {
      let drawn = draws.serialized()
      text += "  draws " + (drawn.count > 100 ? String(drawn.prefix(99)) + "…" : drawn)
    }
    if let fingerprint { text += "  fingerprint \(fingerprint.state.short)" }
    return text
  }

  /// RFC 3339 in UTC, in the proleptic Gregorian calendar (as ISO 8601 has it, also before 1582), with
  /// the fraction of a second when there is one: the form the exports use.
  public static func format(_ date: Date) -> String {
    RFC3339.format(sinceReferenceDate: date.timeIntervalSinceReferenceDate)
      ?? "\(date.timeIntervalSinceReferenceDate) s since 2001-01-01T00:00:00Z"
  }
}
