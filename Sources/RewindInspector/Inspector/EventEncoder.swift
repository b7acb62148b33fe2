import Foundation
import Rewind

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// Writes events as the protocol sends them (Docs/Inspector.md, "What the app sends").
struct EventEncoder<Action: Sendable>: Sendable {
  /// The largest payload, in bytes of JSON, sent whole; a larger one is elided.
  static var payloadLimit: Int { 16 * 1024 }

  /// The event as a protocol object, with `changes` when they were computed.
  func json(_ event: Event<Action>, changes: (changes: [StateChange], omitted: Int)?) -> InspectorJSON {
    let metadata = event.metadata
    var fields: [(String, InspectorJSON)] = [("seq", .unsigned(event.sequence))]
    switch event.payload {
    case .action(let action):
      fields += [("kind", .string("action")), ("type", .string(ActionTypeName.path(of: action)))]
    case .command(let command):
      fields += [("kind", .string("command")), ("type", .string("rewind." + Self.commandName(command)))]
    }
    fields.append(("actor", metadata.actor.map(InspectorJSON.string) ?? .null))
    switch metadata.source {
    case .user: fields += [("source", .string("user")), ("cause", .null)]
    case .system: fields += [("source", .string("system")), ("cause", .null)]
    case .effect(let cause): fields += [("source", .string("effect")), ("cause", .unsigned(cause))]
    }
    fields.append(("correlation", .unsigned(metadata.correlationID.rawValue)))
    fields.append(("time", .string(Self.format(event.timestamp))))
    fields.append(("payload", payload(event.payload)))
    if let changes {
      fields.append(("changes", .array(changes.changes.map(\.json))))
      if changes.omitted > 0 { fields.append(("changesTruncated", .integer(Int64(changes.omitted)))) }
    } else {
      fields.append(("changes", .null))
    }
    return .object(fields)
  }

  /// The payload: the app's `Encodable` encoding as JSON, else a reflection of the value; elided when long.
  func payload(_ payload: EventPayload<Action>) -> InspectorJSON {
    switch payload {
    case .command(let command):
      switch command {
      case .undo(let to), .redo(let to), .restore(let to):
        return .object([(Self.commandName(command), .object([("to", .unsigned(to))]))])
      case .beginTransaction(let name):
        return .object([("beginTransaction", .object([("name", .string(name))]))])
      case .endTransaction: return .string("endTransaction")
      case .mark(let name): return .object([("mark", .object([("name", .string(name))]))])
      }
    case .action(let action):
      if let encodable = action as? any Encodable, let data = try? JSONEncoder().encode(encodable) {
        guard data.count <= Self.payloadLimit else {
          return .object([
            ("$elided", .string(ValueRenderer.typeName(of: action))), ("size", .integer(Int64(data.count))),
          ])
        }
        if let json = try? InspectorJSON.parse(data) { return json }
      }
      return ValueRenderer(depthLimit: 6, childLimit: 20).json(action)
    }
  }

  static func commandName(_ command: HistoryCommand) -> String {
    switch command {
    case .undo: "undo"
    case .redo: "redo"
    case .restore: "restore"
    case .beginTransaction: "beginTransaction"
    case .endTransaction: "endTransaction"
    case .mark: "mark"
    }
  }

  /// RFC 3339 in UTC with milliseconds.
  static func format(_ date: Date) -> String {
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
    guard milliseconds.isFinite, abs(milliseconds) < 1e15 else { return "\(date.timeIntervalSince1970)" }
    let whole = Int64(milliseconds)
    var seconds = time_t(whole >= 0 ? whole / 1000 : (whole - 999) / 1000)
    let millis = Int(whole - Int64(seconds) * 1000)
    var parts = tm()
    guard gmtime_r(&seconds, &parts) != nil else { return "\(date.timeIntervalSince1970)" }
    func pad(_ value: Int32, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
      + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(millis), 3))Z"
  }
}
