/// Computes the state at any sequence number from a checkpoint and the journal's events, without touching
/// the live store. Jumps (undo, redo, restore) resolve to the state at their target, found the same way.
/// The reducer's draws come from each event's recorded ones.
struct Replayer<State, Action: Sendable> {
  let reduce: @Sendable (inout State, Action) -> Effect<Action>
  let journal: any Journal<Action>
  let checkpoints: Checkpoints<State>
  /// What the reducer reads through `@Dependency` while it replays.
  let dependencies: DependencyValues
  /// Told of the draws an event lacks.
  let unrecorded: UnrecordedDrawReporter

  /// The state as of event `target`, replaying the journal from the nearest checkpoint; events in
  /// `skipping` are passed over as if they had changed nothing (a what-if replay).
  func state(at target: UInt64, skipping: Set<UInt64> = []) throws -> State {
    let firstSkipped = skipping.filter { $0 <= target }.min()
    let startLimit = firstSkipped.map { min(target, $0 - 1) } ?? target
    // Skipping an event the origin state already includes cannot be undone from here, unless the
    // history keeps the initial state to replay from.
    guard let start = checkpoints.start(atOrBefore: startLimit) else {
      throw HistoryError.beforeHistory(requested: startLimit, origin: checkpoints.origin.sequence)
    }
    if start.sequence == target { return start.state }

    let events = try journal.events(in: (start.sequence + 1)...target)
    guard events.count == Int(target - start.sequence) else {
      throw HistoryError.missingEvents(from: start.sequence + 1, through: target)
    }
    // States that later jumps in this range bring back, kept as the replay passes them.
    let wanted = Set(events.compactMap { $0.command?.target }.filter { $0 >= start.sequence })
    var kept: [UInt64: State] = [:]
    var state = start.state
    if wanted.contains(start.sequence) { kept[start.sequence] = state }
    let draws = DrawSession(replaying: true, dependencies: dependencies)
    for event in events {
      if !skipping.contains(event.sequence) {
        switch event.payload {
        case .action:
          unrecorded.report(draws.replay(event) { _ = reduce(&state, $0) })
        case .command(let command):
          if let jump = command.target {
            if let known = kept[jump] {
              state = known
            } else {
              state = try self.state(at: jump, skipping: skipping)
            }
          }
        }
      }
      if wanted.contains(event.sequence) { kept[event.sequence] = state }
    }
    return state
  }
}

/// Why the history of a store could not answer.
public enum HistoryError: Error, Hashable, CustomStringConvertible {
  /// The sequence number is after the newest event.
  case afterNewest(requested: UInt64, newest: UInt64)
  /// The sequence number is before the state the store's history starts from (a snapshot it was opened on).
  case beforeHistory(requested: UInt64, origin: UInt64)
  /// The journal did not return every event in the range.
  case missingEvents(from: UInt64, through: UInt64)

  public var description: String {
    switch self {
    case .afterNewest(let requested, let newest):
      "no event \(requested): the newest is \(newest)"
    case .beforeHistory(let requested, let origin):
      "event \(requested) is before the start of this store's history (event \(origin))"
    case .missingEvents(let from, let through):
      "the journal is missing events in \(from)...\(through)"
    }
  }
}
