import Foundation
import RewindLog

/// `rewind report DIR --app ID -o FILE`: writes a bug report of a log (see `ReportBundle`) without the
/// app's types: the events after the newest snapshot, or a range, with their fingerprints, chained again
/// from the anchor before them.
enum ReportCommand {
  static let command = ToolCommand(
    CommandSpec(
      name: "report", summary: "Write a bug report (a verified range of the log) to a file",
      positionals: [.init("DIR", help: "the log directory")],
      options: [
        KeyFile.option,
        .value("app", "ID", help: "the app's identifier, which the debugger reading the report checks"),
        .value("output", "FILE", short: "o", help: "the report file to write"),
        .value("from", "N", help: "the first event (1, or just after a snapshot; default after the newest)"),
        .value("through", "M", help: "the last event (default the newest)"),
        .value("build", "NAME", help: "the build that recorded the log, by name"),
        .value("note", "TEXT", help: "what the person reporting wrote"),
      ],
      discussion: """
        The report holds the range's frames as the log has them, re-chained from the anchor before the
        range; a debugger refuses it if one byte changes. Redaction needs the app's types: apps write
        redacted reports with Store.exportReport(to:options:).
        example: rewind report ./log --app com.example.inbox -o bug.rwreport
        """),
    run: run)

  static func run(_ invocation: Invocation) throws -> ExitStatus {
    let arguments = invocation.arguments
    guard let app = arguments.value("app") else { throw UsageError("give the app's identifier: --app ID") }
    guard let path = arguments.value("output") else { throw UsageError("give the report file: -o FILE") }
    let options = ReportOptions(
      app: app, build: arguments.value("build") ?? "unknown", note: arguments.value("note"))
    let report: (metadata: ReportMetadata, bytes: [UInt8])
    do {
      report = try ReportBundle.make(
        log: invocation.directory, key: try KeyFile.key(arguments), from: try arguments.unsigned("from"),
        through: try arguments.unsigned("through"), options: options)
    } catch let error as ReportError {
      throw ToolError.damaged(path: invocation.directory, cause: error.description)
    } catch let error as ToolError {
      throw error
    } catch let error as UsageError {
      throw error
    } catch {
      throw ToolError.reading(invocation.directory, error)
    }
    // By the rules of every `-o FILE`: a device is written in place, never replaced; a symbolic link is
    // refused; a failed write exits 74 naming the file and leaves nothing half-written under its name.
    try OutputFile.write(report.bytes, to: path)
    let metadata = report.metadata
    invocation.output.line(
      "wrote \(path): events \(metadata.firstSequence)...\(metadata.lastSequence) of log \(metadata.logID)")
    return .ok
  }
}
