extension Store {
  /// The state and sequence number a snapshot should record so that a store reopened from it has the same
  /// undo and redo history as this one: the oldest event its history can go back to.
  ///
  /// Recovery is a pure function of the events, so a store that starts from that state and replays the
  /// events after it rebuilds the same stacks. A jump (undo, redo, restore) after that point to a state
  /// before it could not be replayed from there, so the point moves back to the jump's target. When the
  /// point lies more than `maxDistance` events back (or before this store's own history), the current state
  /// and sequence number: a reopen then starts with an empty undo history rather than a long replay.
  package func reopenPoint(maxDistance: UInt64) -> (state: State, sequence: UInt64) {
    let (history, state, sequence) = hub.core.withLock { ($0.history, $0.state, $0.sequence) }
    guard let oldest = history.undo.oldestKept() else { return (state, sequence) }
    var start = oldest.sequence
    var moved = true
    while moved {
      moved = false
      for branch in history.branches where branch.first > start && branch.base < start {
        start = branch.base
        moved = true
      }
    }
    guard sequence - start <= maxDistance, start >= history.checkpoints.origin.sequence else {
      return (state, sequence)
    }
    if start == oldest.sequence { return (oldest.state, start) }
    let (replayer, _) = engine.makeReplayer()
    guard let resolved = try? replayer.state(at: start) else { return (state, sequence) }
    return (resolved, start)
  }
}
