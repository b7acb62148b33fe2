import Foundation
import RewindLog

/// `rewind info DIR`: what a log holds.
enum InfoCommand {
  static let command = ToolCommand(
    CommandSpec(
      name: "info", summary: "Show a log's segments, events, time range, size, chain and snapshots",
      positionals: [.init("DIR", help: "the log directory")],
      options: [KeyFile.option, .flag("json", help: "print one JSON object")],
      discussion: "example: rewind info ./log --json | jq .events"),
    run: run)

  static func run(_ invocation: Invocation) throws -> ExitStatus {
    let reader = try LogInput.open(invocation)
    let summary = reader.summary
    var first: EventView?
    var last: EventView?
    let firstSequence = summary.firstSequence
    if summary.lastSequence >= firstSequence {
      try LogInput.events(reader, from: firstSequence, through: firstSequence) { first = $0 }
      try LogInput.events(reader, from: summary.lastSequence, through: summary.lastSequence) { last = $0 }
    }
    let snapshots = reader.snapshots()
    let chain = ChainDescription(reader)
    if invocation.arguments.flag("json") {
      let times: JSONValue =
        if let start = first?.timestamp, let end = last?.timestamp {
          .object([("first", .string(EventView.format(start))), ("last", .string(EventView.format(end)))])
        } else { .null }
      let object = JSONValue.object([
        ("directory", .string(invocation.directory)),
        ("logID", summary.logID.map(JSONValue.string) ?? .null),
        (
          "segments",
          .array(
            summary.segments.map {
              .object([
                ("name", .string($0.name)), ("firstSequence", .int($0.firstSequence)),
                ("bytes", .int($0.validBytes)),
              ])
            })
        ),
        (
          "events", .int(summary.lastSequence >= firstSequence ? summary.lastSequence - firstSequence + 1 : 0)
        ),
        ("firstSequence", summary.lastSequence >= firstSequence ? .int(firstSequence) : .null),
        ("lastSequence", .int(summary.lastSequence)),
        ("frames", .int(summary.frameCount)),
        ("time", times),
        ("bytes", .int(summary.validBytes)),
        ("keyed", .bool(chain.keyed)),
        ("chain", .string(chain.algorithm)),
        ("headChain", summary.headChain.map(JSONValue.string) ?? .null),
        ("tornTail", summary.tornTail.map { .string($0.description) } ?? .null),
        ("discardedTail", summary.tornTail.map(DiscardedTail.json) ?? .null),
        (
          "cut",
          summary.cut.map { cut in
            .object([
              ("throughSequence", .int(cut.throughSequence)), ("date", .string(EventView.format(cut.date))),
              ("events", .int(cut.eventsCut)), ("segments", .int(cut.segmentsCut)),
              ("bytes", .int(cut.bytesCut)), ("chain", .string(cut.chain)), ("keyed", .bool(cut.isKeyed)),
            ])
          } ?? .null
        ),
        (
          "snapshots",
          .array(
            snapshots.map {
              .object([
                ("file", .string($0.file)), ("sequence", .int($0.sequence)),
                ("usable", .bool($0.problem == nil)),
              ])
            })
        ),
      ])
      invocation.output.line(object.serialized(pretty: true))
      return .ok
    }
    let out = invocation.output
    out.line("log        \(invocation.directory)")
    out.line("log id     \(summary.logID ?? "-")")
    let names = summary.segments.map(\.name)
    let shown =
      names.count <= 4
      ? names.joined(separator: ", ") : "\(names[0]), \(names[1]) … \(names[names.count - 1])"
    out.line("segments   \(names.count)" + (names.isEmpty ? "" : ": " + shown))
    out.line(
      "events     "
        + (summary.lastSequence >= firstSequence
          ? "\(summary.lastSequence - firstSequence + 1) (sequence \(firstSequence)...\(summary.lastSequence)) in \(summary.frameCount) frames"
          : "none"))
    if let cut = summary.cut {
      out.line(
        "cut        events 1...\(cut.throughSequence) removed by retention at \(EventView.format(cut.date)): "
          + "\(cut.eventsCut) events, \(cut.segmentsCut) segments, \(cut.bytesCut) bytes"
          + (cut.isKeyed ? " (cut record HMAC-tagged)" : ""))
    }
    if let start = first?.timestamp, let end = last?.timestamp {
      out.line("time       \(EventView.format(start)) ... \(EventView.format(end))")
    }
    out.line("size       \(summary.validBytes) bytes")
    out.line("chain      \(chain.algorithm)" + (chain.keyed ? " (keyed)" : " (not keyed)"))
    out.line("head       \(summary.headChain ?? "-")")
    if let torn = summary.tornTail {
      out.line("torn tail  \(DiscardedTail.text(torn)) (cut off when the log is next opened for writing)")
    }
    let usable = snapshots.filter { $0.problem == nil }
    out.line(
      "snapshots  \(snapshots.count)" + (usable.first.map { ", newest usable at event \($0.sequence)" } ?? "")
        + (snapshots.count > usable.count ? ", \(snapshots.count - usable.count) unusable" : ""))
    return .ok
  }
}

/// How a log's chain is computed, for `info`.
struct ChainDescription {
  var keyed: Bool
  var algorithm: String

  init(_ reader: LogReader) {
    keyed = reader.summary.isKeyed
    algorithm = keyed ? "HMAC-SHA-256 chain" : "SHA-256 hash chain"
  }
}
