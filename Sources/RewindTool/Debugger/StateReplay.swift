import Rewind
import RewindLog

/// Replays a log through an app's reducer, read-only: the state after every event, with undo, redo and
/// restore resolved to the state of their target.
struct StateReplay<State: Sendable, Action: Codable & Sendable>: Sendable {
  /// Applies an action event, its reducer drawing the values the event recorded.
  let apply: @Sendable (inout State, Event<Action>) -> Void
  let initialState: State
  let upcasters: EventUpcasters

  /// Calls `body` with each event through `last` and the state after it (0 or less events: nothing).
  func run(_ reader: LogReader, through last: UInt64, _ body: (Event<Action>, State) throws -> Void) throws {
    guard last > 0 else { return }
    // Jumps bring back earlier states: find their targets first, so only those states are kept.
    var targets: Set<UInt64> = []
    try reader.forEachEvent(as: Action.self, upcasters: upcasters, through: last) { event in
      if let target = event.command?.target { targets.insert(target) }
    }
    var kept: [UInt64: State] = [0: initialState]
    var state = initialState
    try reader.forEachEvent(as: Action.self, upcasters: upcasters, through: last) { event in
      switch event.payload {
      case .action: apply(&state, event)
      case .command(let command):
        if let target = command.target {
          guard let earlier = kept[target] else {
            throw ToolError.damaged(
              path: reader.directory,
              cause: "event \(event.sequence) jumps to event \(target), which comes after it")
          }
          state = earlier
        }
      }
      if targets.contains(event.sequence) { kept[event.sequence] = state }
      try body(event, state)
    }
  }

  /// The state after event `sequence` (0: the initial state).
  func state(at sequence: UInt64, in reader: LogReader) throws -> State {
    guard sequence <= reader.summary.lastSequence else {
      throw ToolError.noInput(
        path: reader.directory,
        cause: "no event \(sequence); the log ends at event \(reader.summary.lastSequence)")
    }
    var result = initialState
    try run(reader, through: sequence) { event, state in if event.sequence == sequence { result = state } }
    return result
  }
}
