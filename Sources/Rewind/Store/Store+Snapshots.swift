extension Store {
  /// The state and the sequence number of the last event applied to it, read together.
  public var stateAndSequence: (state: State, sequence: UInt64) {
    hub.core.withLock { ($0.state, $0.sequence) }
  }

  /// Creates a store from `state` as it was after event `sequence` (a snapshot), replaying the journal's
  /// later events.
  ///
  /// - Throws: ``JournalError`` when the journal cannot be read or its later events are not numbered
  ///   `sequence + 1`, `sequence + 2`, …
  /// - Complexity: O(events after `sequence`).
  public convenience init<R: Reducer & Sendable>(
    restoring state: State,
    at sequence: UInt64,
    reducer: R,
    journal: some Journal<Action>,
    clock: some EventClock = .system,
    actor: String? = nil,
    diagnostics: @escaping @Sendable (Diagnostic) -> Void = Store.printDiagnostic
  ) throws where R.State == State, R.Action == Action {
    var state = state
    let last = try Self.replay(journal, from: sequence + 1, into: &state, reducer: reducer)
    self.init(
      state: state, sequence: last, reducer: reducer, journal: journal, clock: clock, actor: actor,
      diagnostics: diagnostics)
  }
}
