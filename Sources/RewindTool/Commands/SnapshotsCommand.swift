import RewindLog

/// `rewind snapshots DIR`: the snapshot files and whether each matches the log.
enum SnapshotsCommand {
  static let command = ToolCommand(
    CommandSpec(
      name: "snapshots", summary: "List snapshots and whether each matches the log",
      positionals: [.init("DIR", help: "the log directory")],
      options: [
        KeyFile.option,
        .value("state", "SEQ", help: "also print the state of the snapshot at SEQ as a tree"),
        .flag("json", help: "print a JSON array"),
      ],
      discussion: "example: rewind snapshots ./log --state 1000"),
    run: run)

  static func run(_ invocation: Invocation) throws -> ExitStatus {
    let reader = try LogInput.open(invocation)
    let snapshots = reader.snapshots()
    let wanted = try invocation.arguments.unsigned("state")
    if invocation.arguments.flag("json") {
      invocation.output.line(JSONValue.array(snapshots.map(json)).serialized(pretty: true))
    } else {
      if snapshots.isEmpty { invocation.output.line("no snapshots") }
      for snapshot in snapshots {
        let status = snapshot.problem.map { "not usable: \($0)" } ?? "ok"
        invocation.output.line(
          "\(snapshot.file)  event \(snapshot.sequence)  \(snapshot.bytes) bytes  "
            + "\(snapshot.codec.map { $0 == .binary ? "binary" : "JSON" } ?? "-")  \(status)")
      }
    }
    if let wanted {
      guard let snapshot = snapshots.first(where: { $0.sequence == wanted }) else {
        throw ToolError.noInput(path: invocation.directory, cause: "no snapshot at event \(wanted)")
      }
      guard let state = snapshot.state else {
        throw ToolError.damaged(
          path: invocation.directory + "/" + snapshot.file, cause: "the state cannot be shown as a tree")
      }
      if !invocation.arguments.flag("json") { invocation.output.line("state at event \(wanted):") }
      invocation.output.line(JSONValue(state).tree)
    }
    return .ok
  }

  static func json(_ snapshot: SnapshotSummary) -> JSONValue {
    .object([
      ("file", .string(snapshot.file)), ("sequence", .int(snapshot.sequence)),
      ("bytes", .int(snapshot.bytes)),
      ("codec", snapshot.codec.map { .string($0 == .binary ? "binary" : "json") } ?? .null),
      ("usable", .bool(snapshot.problem == nil)),
      ("problem", snapshot.problem.map { .string($0.description) } ?? .null),
    ])
  }
}
