import Rewind
import RewindLog

/// An app-specific `rewind` tool: the standard commands plus `replay`, `state-at` and `diff`, which run the
/// app's reducer over a log, and a timeline that shows the state after each event and how it changed
/// between two selected events.
///
/// An app builds a small executable around it:
///
/// ```swift
/// // Sources/notes-debug/main.swift
/// import RewindTool
/// let debugger = RewindDebugger(reducer: Notes(), initialState: Notes.State())
/// exit(debugger.run(arguments: Array(CommandLine.arguments.dropFirst())))
/// ```
///
/// Events are decoded with the codec they were recorded with (binary or JSON); the state is shown through
/// its `Encodable` conformance, as a tree. Replay starts from `initialState` and never writes to the log.
public struct RewindDebugger<State: Encodable & Sendable, Action: Codable & Sendable>: Sendable {
  let replay: StateReplay<State, Action>
  /// The tool's name in usage text.
  public var name: String

  /// A debugger for logs of `reducer`'s actions, replayed from `initialState`; events of older schema
  /// versions are converted by `upcasters`, as the app's journal does.
  public init<R: Reducer & Sendable>(
    name: String = "rewind", reducer: R, initialState: State, upcasters: EventUpcasters = EventUpcasters()
  ) where R.State == State, R.Action == Action {
    self.name = name
    replay = StateReplay(
      apply: { state, event in reducer.apply(event, to: &state) },
      initialState: initialState,
      upcasters: upcasters)
  }

  /// The state after event `sequence` of the log in `directory` (0: the initial state).
  /// - Throws: ``ToolError`` or `FileJournalError` when the log cannot be read or an event not decoded.
  public func state(at sequence: UInt64, directory: String, key: ChainKey? = nil) throws -> State {
    try replay.state(at: sequence, in: LogInput.open(directory, key: key))
  }

  /// The state as a JSON tree.
  /// - Throws: the state's encoding errors.
  public func tree(_ state: State) throws -> JSONValue { JSONValue(try BinaryEncoder().encodeTree(state)) }

  /// The standard commands with `replay`, `state-at`, `diff`, and a timeline that includes states.
  public var commandLine: RewindCommandLine {
    var tool = RewindCommandLine.standard
    tool.name = name
    return tool.adding([
      replayCommand, stateAtCommand, diffCommand, TimelineCommand.command(states: timelineStates),
    ])
  }

  /// Runs the tool with `arguments` (without the program name) and returns the exit status.
  public func run(
    arguments: [String], output: any TextOutput = FileDescriptorOutput.standardOutput,
    errors: any TextOutput = FileDescriptorOutput.standardError
  ) -> Int32 {
    commandLine.run(arguments: arguments, output: output, errors: errors)
  }

  private var timelineStates: TimelineStates {
    let replay = self.replay
    return { reader, range, progress in
      var states: [UInt64: JSONValue] = [:]
      try replay.run(reader, through: range.upperBound) { event, state in
        if range.contains(event.sequence) {
          states[event.sequence] = JSONValue(try BinaryEncoder().encodeTree(state))
        }
        progress.update(event.sequence)
      }
      progress.finish()
      return states
    }
  }

  private var replayCommand: ToolCommand {
    let replay = self.replay
    return ToolCommand(
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

  private var stateAtCommand: ToolCommand {
    let replay = self.replay
    return ToolCommand(
      CommandSpec(
        name: "state-at", summary: "Print the state after one event (0: the initial state)",
        positionals: [
          .init("DIR", help: "the log directory"), .init("SEQ", help: "the event's sequence number"),
        ],
        options: [KeyFile.option, .flag("json", help: "print the state as JSON")],
        discussion: "example: rewind state-at ./log 42 --json"),
      run: { invocation in
        let sequence = try Self.sequence(invocation.arguments.positionals[1])
        let state = try replay.state(at: sequence, in: LogInput.open(invocation))
        let tree = JSONValue(try BinaryEncoder().encodeTree(state))
        invocation.output.line(invocation.arguments.flag("json") ? tree.serialized(pretty: true) : tree.tree)
        return .ok
      })
  }

  private var diffCommand: ToolCommand {
    let replay = self.replay
    return ToolCommand(
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
        let first = try Self.sequence(invocation.arguments.positionals[1])
        let second = try Self.sequence(invocation.arguments.positionals[2])
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

  private static func sequence(_ text: String) throws(UsageError) -> UInt64 {
    guard let value = UInt64(text) else {
      throw UsageError("SEQ must be a non-negative integer, not '\(text)'")
    }
    return value
  }
}
