import RewindLog

/// `rewind show DIR SEQ`: one event, its payload as an indented tree.
enum ShowCommand {
  static let command = ToolCommand(
    CommandSpec(
      name: "show", summary: "Show one event with its payload as a tree",
      positionals: [
        .init("DIR", help: "the log directory"), .init("SEQ", help: "the event's sequence number"),
      ],
      options: [KeyFile.option, .flag("json", help: "print the event as one JSON object")],
      discussion: "example: rewind show ./log 42"),
    run: run)

  static func sequence(_ text: String) throws(UsageError) -> UInt64 {
    guard let value = UInt64(text), value > 0 else {
      throw UsageError("SEQ must be a positive integer, not '\(text)'")
    }
    return value
  }

  static func run(_ invocation: Invocation) throws -> ExitStatus {
    let wanted = try sequence(invocation.arguments.positionals[1])
    let reader = try LogInput.open(invocation)
    guard wanted <= reader.summary.lastSequence else {
      throw ToolError.noInput(
        path: invocation.directory,
        cause: "no event \(wanted); the log ends at event \(reader.summary.lastSequence)")
    }
    var found: EventView?
    try LogInput.events(reader, from: wanted, through: wanted) { found = $0 }
    guard let event = found else {
      throw ToolError.noInput(path: invocation.directory, cause: "no event \(wanted)")
    }
    if invocation.arguments.flag("json") {
      invocation.output.line(event.json.serialized(pretty: true))
      return .ok
    }
    var rows: [(String, String)] = [
      ("event", "#\(event.sequence)"),
      (
        "type",
        "\(LogText.escaped(event.typeName)) (schema version \(event.schemaVersion), \(event.codec == .binary ? "binary" : "JSON") codec)"
      ),
      ("time", event.timestamp.map(EventView.format) ?? "-"),
      ("committed", EventView.format(event.committed)),
      ("actor", event.actor.map(LogText.escaped) ?? "-"),
      (
        "source",
        (event.source.map(LogText.escaped) ?? "-") + (event.cause.map { " (caused by event #\($0))" } ?? "")
      ),
    ]
    if let correlation = event.correlationID { rows.append(("correlation", String(correlation))) }
    for (name, value) in rows {
      invocation.output.line(name.padding(toLength: 12, withPad: " ", startingAt: 0) + value)
    }
    invocation.output.line(event.body.tree(label: event.kind))
    if let draws = event.draws { invocation.output.line(draws.tree(label: "draws")) }
    return .ok
  }
}
