import RewindLog

/// `rewind events DIR`: the events in a range, filtered, as lines or JSON lines.
enum EventsCommand {
  static let command = ToolCommand(
    CommandSpec(
      name: "events", summary: "List events, filtered by range, type, actor and source",
      positionals: [.init("DIR", help: "the log directory")],
      options: [
        KeyFile.option,
        .value("from", "N", help: "first sequence number (default the first the log holds)"),
        .value("to", "N", help: "last sequence number (default the newest)"),
        .value("type", "T", repeatable: true, help: "only events of type T (e.g. an action's case name)"),
        .value("actor", "A", repeatable: true, help: "only events sent by actor A"),
        .value("source", "S", repeatable: true, help: "only events from source S: user, effect or system"),
        .flag("json", help: "print one JSON object per line (JSON lines)"),
      ],
      discussion: """
        Repeated filters of one kind match any of their values; filters of different kinds must all match.
        example: rewind events ./log --from 100 --type add --type remove --source user --json
        """),
    run: run)

  /// Which events to print.
  struct Filter {
    var types: Set<String>
    var actors: Set<String>
    var sources: Set<String>

    init(_ arguments: ParsedArguments) throws(UsageError) {
      types = Set(arguments.allValues("type"))
      actors = Set(arguments.allValues("actor"))
      sources = Set(arguments.allValues("source"))
      for source in sources where !["user", "effect", "system"].contains(source) {
        throw UsageError("--source expects user, effect or system, not '\(source)'")
      }
    }

    func matches(_ event: EventView) -> Bool {
      (types.isEmpty || types.contains(event.typeName))
        && (actors.isEmpty || event.actor.map(actors.contains) == true)
        && (sources.isEmpty || event.source.map(sources.contains) == true)
    }
  }

  static func run(_ invocation: Invocation) throws -> ExitStatus {
    let arguments = invocation.arguments
    let filter = try Filter(arguments)
    let requested = try arguments.unsigned("from")
    let to = try arguments.unsigned("to")
    if let to, let requested, to < requested { throw UsageError("--to \(to) is before --from \(requested)") }
    let reader = try LogInput.open(invocation)
    // A log cut by retention starts at its first kept event; asking for cut events is an error.
    let from = requested ?? reader.summary.firstSequence
    let last = min(to ?? reader.summary.lastSequence, reader.summary.lastSequence)
    let json = arguments.flag("json")
    let total = last >= from ? last - from + 1 : 0
    try LogInput.events(
      reader, from: from, through: last, progress: invocation.progress("events", total: total)
    ) { event in
      guard filter.matches(event) else { return }
      invocation.output.line(json ? event.json.serialized() : event.line)
    }
    DiscardedTail.note(reader, through: last, command: "events", on: invocation)
    return .ok
  }
}
