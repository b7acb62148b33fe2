import Rewind
import RewindLog

/// `state-at DIR SEQ`: the state after one event, replayed through the app's reducer (``RewindDebugger``).
enum StateAtCommand {
  static func command<State: Encodable & Sendable, Action: Codable & Sendable>(
    replay: StateReplay<State, Action>
  ) -> ToolCommand {
    ToolCommand(
      CommandSpec(
        name: "state-at", summary: "Print the state after one event (0: the initial state)",
        positionals: [
          .init("DIR", help: "the log directory"), .init("SEQ", help: "the event's sequence number"),
        ],
        options: [KeyFile.option, .flag("json", help: "print the state as JSON")],
        discussion: "example: rewind state-at ./log 42 --json"),
      run: { invocation in
        let sequence = try invocation.arguments.sequence(positional: 1)
        let state = try replay.state(at: sequence, in: LogInput.open(invocation))
        let tree = JSONValue(try BinaryEncoder().encodeTree(state))
        invocation.output.line(invocation.arguments.flag("json") ? tree.serialized(pretty: true) : tree.tree)
        return .ok
      })
  }
}
