import Foundation
import RewindLog
import RewindShip

/// `rewind verify-remote --server URL --stream NAME`: verifies what a stream holds, continuing after
/// what earlier runs verified.
enum VerifyRemoteCommand {
  static let command = ToolCommand(
    CommandSpec(
      name: "verify-remote",
      summary: "Verify a shipped stream's order and hash chain; exit 1 at the first bad message",
      options: [
        NATSArguments.server, NATSArguments.stream,
        .value(
          "durable", "NAME",
          help: "the durable consumer that records how far verification got (default rewind-verify)"),
        NATSArguments.credentials, KeyFile.option,
        .flag("json", help: "print one JSON object"),
      ],
      discussion: """
        Reads the stream through a durable pull consumer whose acknowledged floor records how far it has
        verified: a later run continues there. Checks that the messages are the events of one log, each once
        and in order, that every frame is whole, and that its chain value is the one its events make after
        the previous frame's (with the key for a keyed log). Names the first bad stream sequence and why:
        forged, missing, reordered, duplicated or undecodable.
        exit status: 0 verified; 1 a bad message; 66 no such stream; 74 the server could not be reached;
        77 the server refused the credentials or a permission verification needs.
        example: rewind verify-remote --server nats://127.0.0.1:4222 --stream DEVICE_42 --key-file log.key
        """),
    run: run)

  static func run(_ invocation: Invocation) throws -> ExitStatus {
    let arguments = invocation.arguments
    let stream = try NATSArguments.stream(arguments)
    let configuration = RemoteVerifyConfiguration(
      servers: try NATSArguments.servers(arguments), stream: stream,
      connection: NATSConnectionOptions(
        credentials: try NATSArguments.credentials(arguments), name: "rewind verify-remote"),
      durableName: arguments.value("durable") ?? "rewind-verify", chainKey: try KeyFile.key(arguments))
    let bar = invocation.progress("verify", total: 0)
    let report: RemoteVerifyReport
    do {
      report = try RemoteVerifier(configuration: configuration).run { done, total in
        bar.update(done, of: total)
      }
    } catch {
      bar.finish()
      switch error {
      case .keyRequired, .notKeyed, .invalidConfiguration:
        throw ToolError.usage(UsageError(error.description))
      case .noStream: throw ToolError.noInput(path: stream, cause: error.description)
      case _ where error.isAccessRefused:
        throw ToolError.noPermission(path: stream, cause: "access refused: \(error.description)")
      default: throw ToolError.io(path: stream, cause: error.description)
      }
    }
    bar.finish()
    if arguments.flag("json") {
      let problem = report.firstProblem
      let fields: [(String, JSONValue)] = [
        ("stream", .string(stream)), ("ok", .bool(report.isIntact)),
        ("log", report.logID.map(JSONValue.string) ?? .null),
        ("keyed", .bool(report.isKeyed)), ("firstEvent", .int(report.firstEvent)),
        ("startsAtGenesis", .bool(report.startsAtGenesis)), ("resumedAfter", .int(report.resumedAfter)),
        ("verifiedThrough", .int(report.verifiedThrough)), ("verifiedEvent", .int(report.verifiedEvent)),
        ("streamLastSequence", .int(report.streamLastSequence)),
        ("checked", .int(UInt64(report.messagesChecked))),
        ("firstBadSequence", problem.map { .int($0.streamSequence) } ?? .null),
        ("problem", problem.map { .string($0.kind.rawValue) } ?? .null),
        ("detail", problem.map { .string($0.detail) } ?? .null),
      ]
      invocation.output.line(JSONValue.object(fields).serialized(pretty: true))
      return report.isIntact ? .ok : .failure
    }
    let out = invocation.output
    if let problem = report.firstProblem {
      out.line("FAILED \(stream): \(problem.kind.rawValue) at stream sequence \(problem.streamSequence)")
      out.line("  \(problem.detail)")
      out.line(
        report.verifiedThrough > 0
          ? "  stream sequences 1...\(report.verifiedThrough) verified before it"
          : "  nothing verified before it")
      return .failure
    }
    if report.streamLastSequence == 0 {
      out.line("verified \(stream): the stream is empty")
      return .ok
    }
    out.line(
      "verified \(stream): stream sequences 1...\(report.verifiedThrough) hold events "
        + "\(report.firstEvent)...\(report.verifiedEvent) of log \(report.logID ?? "?"), in order, "
        + (report.isKeyed ? "keyed (HMAC-SHA-256) chain" : "SHA-256 chain"))
    out.line(
      report.startsAtGenesis
        ? "the chain starts at the log's genesis value"
        : "the chain starts at event \(report.firstEvent), from the value its first message carries (shipped after a retention cut)"
    )
    if report.resumedAfter > 0 {
      out.line("continued after stream sequence \(report.resumedAfter), verified by an earlier run")
    }
    if let open = report.openFrame {
      out.line(
        "the last frame (events \(open.firstEvent)...\(open.firstEvent + open.count - 1)) is still being shipped: "
          + "\(open.received) of its \(open.count) events are in the stream")
    }
    return .ok
  }
}
