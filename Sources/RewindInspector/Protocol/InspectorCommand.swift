/// A command a tool sends: the protocol's closed set. Nothing else is accepted, and nothing in a command is
/// ever evaluated (Docs/Inspector.md, "Commands").
public enum InspectorCommand: Equatable, Sendable {
  /// Show the state as of event `to`.
  case jump(to: UInt64)
  /// Return to live: show the live state and apply the held sends.
  case live
  /// Hold the app's sends, showing the state as of now.
  case pause
  /// Treat event `seq` as if it had not happened.
  case skip(UInt64)
  /// Bring back a skipped event.
  case unskip(UInt64)
  /// Send the action the JSON encodes, decoded by the app's codec.
  case dispatch(InspectorJSON)
  /// Undo the newest step.
  case undo
  /// Redo the newest undone step.
  case redo
  /// The events in `from...to`, with their changes if asked.
  case events(from: UInt64, to: UInt64, changes: Bool)
  /// One level of the state at `path` as of event `at` (with the skips when `skipped`).
  case state(at: UInt64, path: String, offset: Int, limit: Int, skipped: Bool)
  /// An empty reply.
  case ping
  /// The client is leaving.
  case bye

  /// The command's name on the wire.
  public var name: String {
    switch self {
    case .jump: "jump"
    case .live: "live"
    case .pause: "pause"
    case .skip: "skip"
    case .unskip: "unskip"
    case .dispatch: "dispatch"
    case .undo: "undo"
    case .redo: "redo"
    case .events: "events"
    case .state: "state"
    case .ping: "ping"
    case .bye: "bye"
    }
  }

  /// The command as a frame's message with request id `id`.
  public func message(id: UInt64) -> InspectorJSON {
    var fields: [(String, InspectorJSON)] = [("type", .string(name)), ("id", .unsigned(id))]
    switch self {
    case .jump(let to): fields.append(("to", .unsigned(to)))
    case .skip(let sequence), .unskip(let sequence): fields.append(("seq", .unsigned(sequence)))
    case .dispatch(let action): fields.append(("action", action))
    case .events(let from, let to, let changes):
      fields += [("from", .unsigned(from)), ("to", .unsigned(to)), ("changes", .bool(changes))]
    case .state(let at, let path, let offset, let limit, let skipped):
      fields += [
        ("at", .unsigned(at)), ("path", .string(path)), ("offset", .integer(Int64(offset))),
        ("limit", .integer(Int64(limit))), ("skipped", .bool(skipped)),
      ]
    case .live, .pause, .undo, .redo, .ping, .bye: break
    }
    return .object(fields)
  }
}

/// A command with the id its reply repeats.
public struct InspectorRequest: Equatable, Sendable {
  /// Chosen by the client; repeated in the reply.
  public var id: UInt64
  /// What to do.
  public var command: InspectorCommand

  /// Reads a command from a client's message.
  /// - Throws: ``ProtocolViolation`` for anything outside the closed set: an unknown type, a missing or
  ///   mistyped field, a field the command does not have.
  public init(_ message: InspectorJSON) throws(ProtocolViolation) {
    guard case .object(let fields) = message, let type = message["type"]?.stringValue else {
      throw ProtocolViolation("a command must be an object with a string type")
    }
    var reader = FieldReader(fields: fields, command: type)
    id = try reader.unsigned("id")
    switch type {
    case "jump": command = .jump(to: try reader.unsigned("to"))
    case "live": command = .live
    case "pause": command = .pause
    case "skip": command = .skip(try reader.unsigned("seq"))
    case "unskip": command = .unskip(try reader.unsigned("seq"))
    case "dispatch": command = .dispatch(try reader.value("action"))
    case "undo": command = .undo
    case "redo": command = .redo
    case "events":
      command = .events(
        from: try reader.unsigned("from"), to: try reader.unsigned("to"),
        changes: try reader.optionalBool("changes") ?? false)
    case "state":
      let offset = try reader.optionalUnsigned("offset") ?? 0
      let limit = try reader.optionalUnsigned("limit") ?? 100
      guard offset <= UInt64(Int32.max), limit <= UInt64(StateNode.pageLimit) else {
        throw ProtocolViolation("state: offset or limit out of range")
      }
      command = .state(
        at: try reader.unsigned("at"), path: try reader.optionalString("path") ?? "", offset: Int(offset),
        limit: Int(limit), skipped: try reader.optionalBool("skipped") ?? false)
    case "ping": command = .ping
    case "bye": command = .bye
    case "hello": throw ProtocolViolation("a second hello")
    default: throw ProtocolViolation("unknown command \"\(type.prefix(40))\"")
    }
    try reader.finish()
  }
}

/// Why a client's frame broke the protocol; the app closes the connection with this reason.
public struct ProtocolViolation: Error, Equatable, CustomStringConvertible {
  /// The reason, in words.
  public var reason: String

  /// Creates a violation with `reason`.
  public init(_ reason: String) { self.reason = reason }

  public var description: String { reason }
}

/// Reads a message's fields by name, refusing wrong types and, at the end, fields nobody read.
struct FieldReader {
  let fields: [(String, InspectorJSON)]
  let command: String
  var read: Set<String> = ["type"]

  init(fields: [(String, InspectorJSON)], command: String) {
    self.fields = fields
    self.command = command
  }

  mutating func optionalValue(_ name: String) -> InspectorJSON? {
    read.insert(name)
    return fields.first { $0.0 == name }?.1
  }

  mutating func value(_ name: String) throws(ProtocolViolation) -> InspectorJSON {
    guard let value = optionalValue(name) else { throw ProtocolViolation("\(command): missing \(name)") }
    return value
  }

  mutating func unsigned(_ name: String) throws(ProtocolViolation) -> UInt64 {
    guard let value = try optionalUnsigned(name) else {
      throw ProtocolViolation("\(command): missing \(name)")
    }
    return value
  }

  mutating func optionalUnsigned(_ name: String) throws(ProtocolViolation) -> UInt64? {
    guard let value = optionalValue(name) else { return nil }
    guard let number = value.unsignedValue else {
      throw ProtocolViolation("\(command): \(name) must be a non-negative integer")
    }
    return number
  }

  mutating func optionalBool(_ name: String) throws(ProtocolViolation) -> Bool? {
    guard let value = optionalValue(name) else { return nil }
    guard let flag = value.boolValue else {
      throw ProtocolViolation("\(command): \(name) must be true or false")
    }
    return flag
  }

  mutating func optionalString(_ name: String) throws(ProtocolViolation) -> String? {
    guard let value = optionalValue(name) else { return nil }
    guard let text = value.stringValue else {
      throw ProtocolViolation("\(command): \(name) must be a string")
    }
    return text
  }

  func finish() throws(ProtocolViolation) {
    if let extra = fields.first(where: { !read.contains($0.0) }) {
      throw ProtocolViolation("\(command): unknown field \"\(extra.0.prefix(40))\"")
    }
  }
}
