import Rewind
import RewindLog

/// `diff DIR SEQ1 SEQ2`: how the state changed from one event to another, replayed through the app's
/// reducer (``RewindDebugger``).
enum DiffCommand {
  static func command<State: Encodable & Sendable, Action: Codable & Sendable>(
    replay: StateReplay<State, Action>
  ) -> ToolCommand {
    ToolCommand(
      CommandSpec(
        name: "diff", summary: "Show how the state changed from one event to another",
        positionals: [
          .init("DIR", help: "the log directory"),
          .init("SEQ1", help: "the earlier event (0: the initial state)"),
          .init("SEQ2", help: "the later event"),
        ],
        options: [KeyFile.option, .flag("json", help: "print a JSON array of changes")],
        discussion: """
          Lines are '+ path: value' (added), '- path: value' (removed) and '~ path: before → after'.
          example: rewind diff ./log 10 42
          """),
      run: { invocation in
        let first = try invocation.arguments.sequence(positional: 1)
        let second = try invocation.arguments.sequence(positional: 2)
        let reader = try LogInput.open(invocation)
        let last = max(first, second)
        guard last <= reader.summary.lastSequence else {
          throw ToolError.noInput(
            path: reader.directory,
            cause: "no event \(last); the log ends at event \(reader.summary.lastSequence)")
        }
        var trees: [UInt64: JSONValue] = [0: JSONValue(try BinaryEncoder().encodeTree(replay.initialState))]
        try replay.run(reader, through: last) { event, state in
          if event.sequence == first || event.sequence == second {
            trees[event.sequence] = JSONValue(try BinaryEncoder().encodeTree(state))
          }
        }
        let changes = StateChange.between(trees[first] ?? .null, trees[second] ?? .null)
        if invocation.arguments.flag("json") {
          invocation.output.line(JSONValue.array(changes.map(\.json)).serialized(pretty: true))
        } else if changes.isEmpty {
          invocation.output.line("no difference between the states after events \(first) and \(second)")
        } else {
          for change in changes { invocation.output.line(change.line) }
        }
        return .ok
      })
  }
}
