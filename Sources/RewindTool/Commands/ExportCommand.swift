import RewindLog

/// `rewind export DIR`: the events as CloudEvents 1.0 (a batch or JSON lines) or plain JSON lines, streamed
/// by `LogAudit.export`, which verifies each frame as it reads.
enum ExportCommand {
  /// Format names accepted by `--format`, and the library's format each means.
  static let formats: [(name: String, format: ExportFormat)] = [
    ("cloudevents", .cloudEventsBatch), ("cloudevents-batch", .cloudEventsBatch),
    ("cloudevents-lines", .cloudEventsLines), ("jsonl", .jsonLines), ("json-lines", .jsonLines),
  ]

  static let command = ToolCommand(
    CommandSpec(
      name: "export", summary: "Export events as CloudEvents 1.0 JSON or JSON lines",
      positionals: [.init("DIR", help: "the log directory")],
      options: [
        KeyFile.option,
        .value(
          "format", "F",
          help:
            "cloudevents (one JSON array), cloudevents-lines (one event per line) or jsonl (default cloudevents-lines)"
        ),
        .value("output", "FILE", short: "o", help: "write to FILE instead of standard output"),
        .value("source", "URI", help: "the CloudEvents source (default urn:rewind:log:<log id>)"),
        .value("type-prefix", "P", help: "put P before each event type, e.g. com.example.notes."),
        .value("from", "N", help: "first sequence number (default 1)"),
        .value("to", "N", help: "last sequence number (default the newest)"),
      ],
      discussion: """
        Each frame is verified (checksum and chain) as it is read: a damaged log stops the export with exit 1
        after the verified events before the damage. The mapping of events to CloudEvents attributes and JSON
        lines is described in Docs/Audit.md.
        example: rewind export ./log --format cloudevents --source https://example.com/notes -o events.json
        """),
    run: run)

  static func run(_ invocation: Invocation) throws -> ExitStatus {
    let arguments = invocation.arguments
    let name = arguments.value("format") ?? "cloudevents-lines"
    guard let format = formats.first(where: { $0.name == name })?.format else {
      throw UsageError("--format expects one of cloudevents, cloudevents-lines or jsonl, not '\(name)'")
    }
    let from = try arguments.unsigned("from") ?? 1
    let to = try arguments.unsigned("to") ?? UInt64.max
    if to < from { throw UsageError("--to \(to) is before --from \(from)") }
    let directory = invocation.directory
    try LogInput.requireLogDirectory(directory)
    let options = ExportOptions(
      format: format, source: arguments.value("source"), typePrefix: arguments.value("type-prefix") ?? "",
      range: max(from, 1)...to, key: try KeyFile.key(arguments))
    let progress = invocation.progress("export", total: 0)
    defer { progress.finish() }
    let report: (ExportSummary) -> Void = { summary in
      if arguments.value("output").map({ $0 != "-" }) == true {
        invocation.errors.line("exported \(summary)")
      }
    }
    let track: (AuditProgress) -> Void = { step in progress.update(step.bytesDone, of: step.bytesTotal) }
    guard let path = arguments.value("output"), path != "-" else {
      do {
        report(
          try LogAudit.export(directory: directory, options: options, progress: track) { chunk in
            invocation.output.write(bytes: chunk)
            // Stop at the first failed write rather than read the rest of the log for nothing.
            if let failure = invocation.output.writeError { throw failure }
          })
      } catch let error as ToolError {
        throw error
      } catch {
        throw ToolError.reading(directory, error)
      }
      return .ok
    }
    // Replaced only when the whole export succeeded (see OutputFile); a device or pipe is written in place.
    let file = try OutputFile.open(path)
    do {
      let summary = try LogAudit.export(directory: directory, options: options, progress: track) { chunk in
        try file.write(chunk)
      }
      try file.commit()
      report(summary)
    } catch {
      file.abandon()
      if let tool = error as? ToolError { throw tool }
      throw ToolError.reading(directory, error)
    }
    return .ok
  }
}
