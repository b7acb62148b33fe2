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
  /// Replays with fingerprint checks.
  let engine: ReplayEngine<State, Action>
  /// The tool's name in usage text.
  public var name: String
  /// This build, as fingerprints record it: a replay that disagrees with a fingerprint this build
  /// recorded reports nondeterminism rather than a change of behaviour.
  public var build: BuildIdentity { engine.build }

  /// The app's identifier: bug reports of another app are refused; `nil` accepts any.
  public var app: String?
  /// The reducer's type, as generated tests name it.
  let reducerType: String

  /// A debugger for logs of `reducer`'s actions, replayed from `initialState`; events of older schema
  /// versions are converted by `upcasters`, as the app's journal does. `build` is this build's identity
  /// (by default the running program's, see `BuildIdentity.current`); `app` the app's identifier, which
  /// a bug report must have been made by (any, when `nil`).
  public init(
    name: String = "rewind", reducer: some Reducer<State, Action>, initialState: State,
    upcasters: EventUpcasters = EventUpcasters(), build: BuildIdentity = .current, app: String? = nil
  ) {
    self.name = name
    self.app = app
    let apply: @Sendable (inout State, Event<Action>) -> Void = { state, event in
      reducer.apply(event, to: &state)
    }
    replay = StateReplay(apply: apply, initialState: initialState, upcasters: upcasters)
    engine = ReplayEngine(apply: apply, build: build)
    reducerType = String(reflecting: type(of: reducer))
  }

  /// Replays the log in `directory` through the reducer from the initial state, comparing every
  /// fingerprint the log holds with the replayed state, and reports the first divergence: its event,
  /// kind and cause, and the state's difference by path from the nearest snapshot after it.
  ///
  /// ```swift
  /// let report = try debugger.replay(directory: path)
  /// if let divergence = report.divergence { print(divergence.kind, divergence.event.sequence) }
  /// ```
  ///
  /// - Parameters:
  ///   - directory: the log directory.
  ///   - key: the key of a keyed log.
  ///   - last: the last event to replay (default the newest).
  ///   - checkingDeterminism: also replay everything twice and compare, where every fingerprint agrees
  ///     (a log without fingerprints is then still checked for nondeterminism).
  /// - Throws: ``ToolError`` when the log cannot be read or is damaged; an event that does not decode is
  ///   a ``DivergenceKind/decodeFailure`` in the report, not an error.
  public func replay(
    directory: String, key: ChainKey? = nil, through last: UInt64? = nil, checkingDeterminism: Bool = false
  ) throws -> ReplayReport {
    let reader = try LogInput.open(directory, key: key)
    do {
      return try engine.run(
        .log(reader, initialState: replay.initialState, upcasters: replay.upcasters, through: last),
        determinism: checkingDeterminism ? .always : .onDivergence)
    } catch {
      throw ToolError.reading(directory, error)
    }
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
      ReplayCommand.command(debugger: self), StateAtCommand.command(replay: replay),
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
