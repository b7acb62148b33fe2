import Rewind

extension ReplayEngine {
  /// One replay in progress: the state, and the states kept to bring back a history jump's target.
  struct Replaying {
    let engine: ReplayEngine
    let input: ReplayInput<State, Action>
    /// The state after the last event applied.
    var state: State
    /// States as of sequence numbers (the base, and every ``ReplayEngine/checkpointInterval`` events of
    /// the first pass), from which a jump's target is replayed.
    var checkpoints: [UInt64: State]
    /// Whether this pass keeps checkpoints (the first pass does; the passes that replay a window again
    /// use its).
    var keepsCheckpoints: Bool

    init(engine: ReplayEngine, input: ReplayInput<State, Action>) {
      self.engine = engine
      self.input = input
      state = input.base
      checkpoints = [input.baseSequence: input.base]
      keepsCheckpoints = true
    }

    /// A pass that starts again from `state`, with this one's checkpoints.
    func restarted(at state: State) -> Replaying {
      var copy = self
      copy.state = state
      copy.keepsCheckpoints = false
      return copy
    }

    /// Applies `event`: the reducer for an action, the target's state for an undo, redo or restore.
    /// - Throws: ``ToolError/damaged(path:cause:)`` for a jump to an event that is not before it (or
    ///   before the state the replay started from), and what reading the events again throws.
    mutating func apply(_ event: Event<Action>) throws {
      switch event.payload {
      case .action: engine.apply(&state, event)
      case .command(let command):
        if let target = command.target { state = try resolve(target, jumpedFrom: event.sequence) }
      }
      if keepsCheckpoints, event.sequence % engine.checkpointInterval == 0 {
        checkpoints[event.sequence] = state
      }
    }

    /// The state as of `target`, replayed from the nearest checkpoint before it.
    func resolve(_ target: UInt64, jumpedFrom sequence: UInt64) throws -> State {
      guard target < sequence, target >= input.baseSequence else {
        throw ToolError.damaged(
          path: input.name,
          cause: "event \(sequence) jumps to event \(target), which is not between the replay's start "
            + "(event \(input.baseSequence)) and it")
      }
      let start = checkpoints.keys.filter { $0 <= target }.max() ?? input.baseSequence
      var run = restarted(at: checkpoints[start] ?? input.base)
      if start < target { try input.events((start + 1)...target) { try run.apply($0) } }
      return run.state
    }
  }
}
