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
  public init(
    name: String = "rewind", reducer: some Reducer<State, Action>, initialState: State,
    upcasters: EventUpcasters = EventUpcasters()
  ) {
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
      ReplayCommand.command(replay: replay), StateAtCommand.command(replay: replay),
      DiffCommand.command(replay: replay), TimelineCommand.command(states: timelineStates),
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
}
