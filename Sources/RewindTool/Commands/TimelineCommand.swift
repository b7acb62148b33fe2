import Foundation
import RewindLog

/// Computes the state after each event for the timeline; an app's debugger provides it.
public typealias TimelineStates =
  @Sendable (_ reader: LogReader, _ range: ClosedRange<UInt64>, _ progress: ProgressBar)
  throws -> [UInt64: JSONValue]

/// `rewind timeline DIR`: one self-contained HTML page to browse a log.
enum TimelineCommand {
  static func command(states: TimelineStates?) -> ToolCommand {
    var options: [CommandSpec.Option] = [
      KeyFile.option,
      .value("output", "FILE", short: "o", help: "where to write the page (default timeline.html)"),
      .value("from", "N", help: "first sequence number (default 1)"),
      .value("to", "N", help: "last sequence number (default the newest)"),
      .flag(
        "follow", help: "serve a live page on 127.0.0.1 that follows the log as an app writes it (read-only)"),
      LiveCommand.httpPortOption,
    ]
    if states != nil {
      options.append(.flag("no-states", help: "leave the state at each event out of the page"))
    }
    return ToolCommand(
      CommandSpec(
        name: "timeline", summary: "Write a self-contained HTML page showing the log on a time axis",
        positionals: [.init("DIR", help: "the log directory")], options: options,
        discussion: """
          The page needs no network: CSS, script and data are inline. Select an event to see its payload as a
          tree\(states != nil ? " and the state after it; shift-click a second event to see how the state changed" : "").
          Open it with '#select=SEQ' (and '&compare=SEQ2') to select events from the address.
          example: rewind timeline ./log -o log.html && open 'log.html#select=42'
          """),
      run: { try run($0, states: states) })
  }

  static func run(_ invocation: Invocation, states: TimelineStates?) throws -> ExitStatus {
    let arguments = invocation.arguments
    if arguments.flag("follow") {
      return try LiveCommand.follow(invocation.directory, invocation: invocation)
    }
    let requested = try arguments.unsigned("from")
    let to = try arguments.unsigned("to")
    let reader = try LogInput.open(invocation)
    // A log cut by retention starts after its cut.
    let from = max(requested ?? reader.summary.firstSequence, 1)
    let last = min(to ?? reader.summary.lastSequence, reader.summary.lastSequence)
    let html = try page(
      reader: reader, title: invocation.directory, from: from, through: last,
      states: arguments.flag("no-states") ? nil : states, progress: invocation.progress)
    let path = arguments.value("output") ?? "timeline.html"
    try OutputDestination.write(html, to: path, or: invocation.output)
    if path != "-" { invocation.errors.line("wrote \(path)") }
    return .ok
  }

  /// The page for events `from...last` of `reader`.
  static func page(
    reader: LogReader, title: String, from: UInt64, through last: UInt64, states: TimelineStates?,
    progress: (String, UInt64) -> ProgressBar
  ) throws -> String {
    let count = last >= from ? last - from + 1 : 0
    var stateValues: [UInt64: JSONValue] = [:]
    if let states, count > 0 { stateValues = try states(reader, from...last, progress("states", last)) }
    var events: [JSONValue] = []
    try LogInput.events(reader, from: from, through: last, progress: progress("timeline", count)) { event in
      var json = event.json
      if let state = stateValues[event.sequence], case .object(var fields) = json {
        fields.append(("state", state))
        json = .object(fields)
      }
      events.append(json)
    }
    let snapshots = reader.snapshots().map { snapshot -> JSONValue in
      guard case .object(var fields) = SnapshotsCommand.json(snapshot) else { return .null }
      if let state = snapshot.state { fields.append(("state", JSONValue(state))) }
      return .object(fields)
    }
    let summary = reader.summary
    let summaryText =
      "\(summary.lastSequence) events (showing \(events.count)), \(summary.segments.count) segment(s), "
      + "\(summary.validBytes) bytes, \(snapshots.count) snapshot(s)"
      + (stateValues.isEmpty ? "" : ", with states")
    let data = JSONValue.object([
      ("title", .string(title)), ("summaryText", .string(summaryText)),
      ("lastSequence", .int(summary.lastSequence)),
      ("headChain", summary.headChain.map(JSONValue.string) ?? .null),
      ("hasStates", .bool(!stateValues.isEmpty)), ("events", .array(events)),
      ("snapshots", .array(snapshots)),
    ])
    return TimelinePage.html(title: "Rewind timeline: " + title, data: data)
  }
}
