import Foundation

/// Turns one event record into a line of JSON, without the app's types: the envelope is read from the
/// self-describing tree (binary codec) or the parsed JSON (JSON codec).
struct EventExportMapper {
  let options: ExportOptions
  let source: String
  let logIDHex: String

  /// The envelope fields of an encoded `Event`, as far as they could be read.
  struct Envelope {
    var timestamp: Double?
    var actor: String?
    var origin: String?
    var cause: UInt64?
    var correlation: String?
    /// `("action", tree)` or `("command", tree)`.
    var payload: (kind: String, tree: BinaryValue)?
    /// The values the reducer drew (`[{"uuid": …}, …]`), when it drew any.
    var draws: BinaryValue?
  }

  static func envelope(of record: EventRecord) -> Envelope {
    // The record's envelope and payload in the shape of `Event`'s encoding (the sequence is not read here).
    guard let tree = try? record.tree(sequence: 0) else { return Envelope() }
    var envelope = Envelope()
    envelope.timestamp = tree["timestamp"].flatMap(\.number)
    if case .string(let actor)? = tree[path: "metadata", "actor"] { envelope.actor = actor }
    if case .keyed(let fields)? = tree[path: "metadata", "source"], let first = fields.first {
      envelope.origin = first.key
      if first.key == "effect" { envelope.cause = first.value["cause"].flatMap(\.unsigned) }
    }
    if let correlation = tree[path: "metadata", "correlationID"].flatMap(\.unsigned) {
      envelope.correlation = String(correlation)
    }
    if let action = tree[path: "payload", "action", "_0"] {
      envelope.payload = ("action", action)
    } else if let command = tree[path: "payload", "command", "_0"] {
      envelope.payload = ("command", command)
    }
    envelope.draws = tree["draws"]
    return envelope
  }

  /// Appends the event as one JSON object (no newline) and returns whether its payload went in as base64.
  func append(_ record: EventRecord, sequence: UInt64, to out: inout [UInt8]) -> Bool {
    let envelope = Self.envelope(of: record)
    let json = envelope.payload.flatMap { $0.tree.isJSONRepresentable ? $0 : nil }
    var object = JSONObjectWriter(out: out)
    switch options.format {
    case .cloudEventsBatch, .cloudEventsLines:
      object.string("specversion", "1.0")
      object.string("id", logIDHex + "-" + Self.padded(sequence))
      object.string("source", source)
      // CloudEvents String attributes may hold no control characters: text from the log is escaped.
      let typeName = LogText.escaped(record.typeName)
      object.string("type", options.typePrefix + typeName)
      if let time = envelope.timestamp.flatMap({ RFC3339.format(sinceReferenceDate: $0) }) {
        object.string("time", time)
      }
      object.string("subject", typeName)
      object.string("sequence", Self.padded(sequence))
      object.string("schemaversion", String(record.schemaVersion))
      if let actor = envelope.actor { object.string("actor", LogText.escaped(actor)) }
      if let origin = envelope.origin { object.string("origin", LogText.escaped(origin)) }
      if let cause = envelope.cause { object.string("causation", Self.padded(cause)) }
      if let correlation = envelope.correlation { object.string("correlation", correlation) }
      // An extension attribute holds a string: the draws as JSON text.
      if let draws = envelope.draws?.jsonText { object.string("draws", draws) }
      if let json {
        object.string("datacontenttype", "application/json")
        object.raw("data") { json.tree.writeJSON(into: &$0) }
      } else {
        object.string(
          "datacontenttype",
          record.codec == .json ? "application/json" : "application/vnd.rewind.binary-value")
        object.string("data_base64", Data(record.payload).base64EncodedString())
      }
    case .jsonLines:
      object.raw("sequence") { $0.append(contentsOf: String(sequence).utf8) }
      if let time = envelope.timestamp.flatMap({ RFC3339.format(sinceReferenceDate: $0) }) {
        object.string("time", time)
      }
      object.string("type", LogText.escaped(record.typeName))
      object.raw("schemaVersion") { $0.append(contentsOf: String(record.schemaVersion).utf8) }
      object.string("codec", record.codec == .binary ? "binary" : "json")
      if let actor = envelope.actor { object.string("actor", LogText.escaped(actor)) }
      if let origin = envelope.origin { object.string("source", LogText.escaped(origin)) }
      if let cause = envelope.cause { object.raw("cause") { $0.append(contentsOf: String(cause).utf8) } }
      if let correlation = envelope.correlation {
        object.raw("correlation") { $0.append(contentsOf: correlation.utf8) }
      }
      if let draws = envelope.draws { object.raw("draws") { draws.writeJSON(into: &$0) } }
      if let json {
        object.raw(json.kind) { json.tree.writeJSON(into: &$0) }
      } else {
        object.string("payloadBase64", Data(record.payload).base64EncodedString())
      }
    }
    out = object.finish()
    return json == nil
  }

  /// 20 digits, so that the text sorts like the number.
  static func padded(_ value: UInt64) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, 20 - digits.count)) + digits
  }
}

/// Writes one JSON object field by field.
struct JSONObjectWriter {
  private var out: [UInt8]
  private var first = true

  init(out: [UInt8]) {
    self.out = out
    self.out.append(UInt8(ascii: "{"))
  }

  private mutating func key(_ name: String) {
    if !first { out.append(UInt8(ascii: ",")) }
    first = false
    BinaryValue.writeJSONString(name, into: &out)
    out.append(UInt8(ascii: ":"))
  }

  mutating func string(_ name: String, _ value: String) {
    key(name)
    BinaryValue.writeJSONString(value, into: &out)
  }

  /// A field whose value `write` appends as JSON text.
  mutating func raw(_ name: String, _ write: (inout [UInt8]) -> Void) {
    key(name)
    write(&out)
  }

  consuming func finish() -> [UInt8] {
    out.append(UInt8(ascii: "}"))
    return out
  }
}

extension BinaryValue {
  /// The value as a Double, for any number.
  var number: Double? {
    switch self {
    case .double(let value): value
    case .float(let value): Double(value)
    case .int(let value): Double(value)
    case .uint(let value): Double(value)
    default: nil
    }
  }

  /// The value as a non-negative integer.
  var unsigned: UInt64? {
    switch self {
    case .uint(let value): value
    case .int(let value): UInt64(exactly: value)
    default: nil
    }
  }
}

/// RFC 3339 timestamps in UTC, without Foundation's formatters (which are slow and locale-bound).
package enum RFC3339 {
  /// `timestamp` is seconds since 2001-01-01 (how `Date` encodes); `nil` outside the years 0001–9999.
  package static func format(sinceReferenceDate timestamp: Double) -> String? {
    let unix = timestamp + 978_307_200
    // 0001-01-01T00:00:00Z itself is in range.
    guard unix.isFinite, unix >= -62_135_596_800, unix < 253_402_300_800 else { return nil }
    var seconds = Int64(unix.rounded(.down))
    var micros = Int64(((unix - Double(seconds)) * 1_000_000).rounded())
    if micros >= 1_000_000 {
      seconds += 1
      micros -= 1_000_000
    }
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let secondOfDay = seconds - days * 86_400
    let (year, month, day) = civil(fromDays: days)
    var text =
      pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(secondOfDay / 3600, 2) + ":"
      + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
    if micros > 0 {
      var fraction = pad(micros, 6)
      while fraction.hasSuffix("0") { fraction.removeLast() }
      text += "." + fraction
    }
    return text + "Z"
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }

  /// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar).
  private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
