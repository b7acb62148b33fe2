import Rewind
import RewindLog

/// `replay DIR`: runs the log through the app's reducer (``RewindDebugger``) and prints the final state, or
/// every event with the state after it.
enum ReplayCommand {
  static func command<State: Encodable & Sendable, Action: Codable & Sendable>(
    replay: StateReplay<State, Action>
  ) -> ToolCommand {
    ToolCommand(
      CommandSpec(
        name: "replay", summary: "Replay the log through the app's reducer and print the final state",
        positionals: [.init("DIR", help: "the log directory")],
        options: [
          KeyFile.option, .value("to", "N", help: "stop after event N (default the newest)"),
          .flag("each", help: "print every event with the state after it"),
          .flag("json", help: "print JSON (with --each, one object per line)"),
        ],
        discussion: "example: rewind replay ./log --to 500"),
      run: { invocation in
        let reader = try LogInput.open(invocation)
        let last = min(
          try invocation.arguments.unsigned("to") ?? reader.summary.lastSequence, reader.summary.lastSequence)
        let json = invocation.arguments.flag("json")
        let each = invocation.arguments.flag("each")
        let progress = invocation.progress("replay", total: last)
        var final = JSONValue(try BinaryEncoder().encodeTree(replay.initialState))
        var count: UInt64 = 0
        try replay.run(reader, through: last) { event, state in
          count += 1
          progress.update(count)
          guard each || event.sequence == last else { return }
          let tree = JSONValue(try BinaryEncoder().encodeTree(state))
          final = tree
          if each {
            let line: JSONValue = .object([
              ("sequence", .int(event.sequence)), ("event", .string(event.payload.description)),
              ("state", tree),
            ])
            invocation.output.line(
              json ? line.serialized() : "#\(event.sequence) \(event.payload): \(tree.serialized())")
          }
        }
        progress.finish()
        if !each {
          invocation.output.line(
            json
              ? final.serialized(pretty: true)
              : "state after event \(last) (\(count) events replayed):\n" + final.tree)
        }
        return .ok
      })
  }
}
