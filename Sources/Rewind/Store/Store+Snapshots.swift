extension Store {
  /// The state and the sequence number of the last event applied to it, read together: what a snapshot
  /// of the store must record. Reopen from one with
  /// ``init(origin:at:reducer:journal:clock:actor:history:fingerprints:diagnostics:dependencies:genesis:)``.
  public var stateAndSequence: (state: State, sequence: UInt64) {
    hub.core.withLock { ($0.state, $0.sequence) }
  }
}
