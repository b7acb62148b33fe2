extension Reducer {
  /// Applies a recorded event's action to `state` as the store did: what the reducer draws from
  /// ``DependencyValues/uuid``, ``DependencyValues/date`` and ``DependencyValues/random`` comes from the
  /// event's ``Event/draws``, so the state is the one the store reached.
  ///
  /// For projections and tools that replay a journal themselves:
  ///
  /// ```swift
  /// var state = Todos.State()
  /// try journal.forEachEvent(from: 1) { Todos().apply($0, to: &state) }
  /// ```
  ///
  /// A history command (undo, redo, restore, a transaction bound) is the store's, not the reducer's:
  /// nothing happens. Effects are not run.
  ///
  /// - Parameters:
  ///   - event: the recorded event.
  ///   - state: the state as of the event before it.
  ///   - unrecorded: told of each value the reducer drew that the event does not hold (a build that
  ///     draws more than the one that recorded it); the replay used a deterministic substitute.
  public func apply(
    _ event: Event<Action>, to state: inout State, unrecorded: (UnrecordedDraw) -> Void = { _ in }
  ) {
    let session = DrawSession(replaying: true, dependencies: DependencyValues.current)
    let lacking = session.replay(event) { _ = reduce(into: &state, action: $0) }
    for draw in lacking { unrecorded(draw) }
  }
}
