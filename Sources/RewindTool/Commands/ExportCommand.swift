import RewindLog

/// `rewind export DIR`: every event as JSON lines (or CloudEvents), to standard output or a file.
enum ExportCommand {
  static let formats = ["jsonl"]

  static let command = ToolCommand(
    CommandSpec(
      name: "export", summary: "Export events as JSON lines",
      positionals: [.init("DIR", help: "the log directory")],
      options: [KeyFile.option, 
        .value("format", "F", help: "output format: " + formats.joined(separator: ", ") + " (default jsonl)"),
        .value("output", "FILE", short: "o", help: "write to FILE instead of standard output"),
        .value("from", "N", help: "first sequence number (default 1)"),
        .value("to", "N", help: "last sequence number (default the newest)"),
      ],
      discussion: """
        jsonl: one JSON object per event per line, the same objects as 'rewind events --json'.
        example: rewind export ./log --output events.jsonl
        """),
    run: run)

  static func run(_ invocation: Invocation) throws -> ExitStatus {
    let arguments = invocation.arguments
    let format = arguments.value("format") ?? "jsonl"
    guard formats.contains(format) else {
      throw UsageError("--format expects one of \(formats.joined(separator: ", ")), not '\(format)'")
    }
    let from = try arguments.unsigned("from") ?? 1
    let to = try arguments.unsigned("to")
    let reader = try LogInput.open(invocation)
    let last = min(to ?? reader.summary.lastSequence, reader.summary.lastSequence)
    var text = ""
    let progress = invocation.progress("export", total: last >= from ? last - from + 1 : 0)
    try LogInput.events(reader, from: from, through: last, progress: progress) { event in
      text += event.json.serialized() + "\n"
    }
    try OutputDestination.write(text, to: arguments.value("output"), or: invocation.output)
    return .ok
  }
}
