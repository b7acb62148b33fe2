import Rewind

extension Store where Action: Codable {
  /// The store's journal as a ``FileJournal``, when it is one (a store made by `Store.open`): its
  /// ``FileJournal/recoveryReport``, anchors, snapshots. Close the store, not this journal.
  public var fileJournal: FileJournal<Action>? { journal as? FileJournal<Action> }

  /// Opens a store on the file journal in `directory`, restoring its state by replaying every event.
  ///
  /// The journal is ``fileJournal``; see ``FileJournal/recoveryReport``. Close the store with `close()`
  /// when done: it flushes the journal and releases the directory.
  /// Events written with older schema versions of `Action` are converted by `upcasters` during the replay.
  /// The replay hands the reducer the values each event recorded from recorded dependencies
  /// (``Event/draws``); `dependencies` overrides the live values that new sends draw from and effects see.
  /// - Throws: the errors of ``FileJournal/init(directory:options:upcasters:)`` and of decoding an event
  ///   (``FileJournalError/unknownEventType(_:schemaVersion:at:reason:)``,
  ///   ``FileJournalError/noUpcastPath(_:from:to:missingStep:at:)`` and the others).
  @inlinable
  public static func open(
    directory: String,
    initialState: State,
    reducer: some Reducer<State, Action>,
    options: FileJournalOptions = FileJournalOptions(),
    clock: some EventClock = .system,
    actor: String? = nil,
    history: HistoryConfiguration<Action> = .standard,
    upcasters: EventUpcasters = EventUpcasters(),
    diagnostics: @escaping @Sendable (Diagnostic) -> Void = Store.printDiagnostic,
    dependencies: (inout DependencyValues) -> Void = { _ in }
  ) throws -> Store {
    let journal = try FileJournal<Action>(
      directory: directory, options: options, upcasters: upcasters, checkingChainWhileReplaying: ())
    journal.onRetentionFailure { diagnostics(Diagnostic(kind: .journalFailed, message: $0.description)) }
    return try journal.afterChainCheck {
      try Store(
        initialState: initialState, reducer: reducer, journal: journal, clock: clock, actor: actor,
        history: history, diagnostics: diagnostics, dependencies: dependencies)
    }
  }
}

extension Store where Action: Codable, State: Codable {
  /// Opens a store on the file journal in `directory`, restoring its state from the newest snapshot that
  /// matches the log plus the events after it; a damaged or mismatching snapshot falls back to an older
  /// one, then to a full replay (see ``FileJournal/snapshotRecovery``).
  ///
  /// Opening reads the log from the snapshot's frame on: its time grows with the events since the
  /// snapshot, not with the log. The events before it are read, and their hash chain checked, when
  /// something first asks for them (`rewind verify` checks the whole log). A snapshot is written every
  /// `options.snapshotInterval` events (10,000 by default; `nil` turns them off), off the sending thread,
  /// as of the oldest event the undo history can go back to, so that a reopened store keeps its undo and
  /// redo stacks (see ``FileJournalOptions/snapshotInterval``). The newest `options.keptSnapshots` files
  /// are kept.
  ///
  /// Events written with older schema versions of `Action` are converted by `upcasters` during the replay.
  /// The replay hands the reducer the values each event recorded from recorded dependencies
  /// (``Event/draws``); `dependencies` overrides the live values that new sends draw from and effects see.
  /// - Throws: the errors of ``FileJournal/init(directory:options:upcasters:)`` and of decoding an event
  ///   (``FileJournalError/unknownEventType(_:schemaVersion:at:reason:)``,
  ///   ``FileJournalError/noUpcastPath(_:from:to:missingStep:at:)`` and the others).
  @inlinable
  public static func open(
    directory: String,
    initialState: State,
    reducer: some Reducer<State, Action>,
    options: FileJournalOptions = FileJournalOptions(),
    clock: some EventClock = .system,
    actor: String? = nil,
    history: HistoryConfiguration<Action> = .standard,
    upcasters: EventUpcasters = EventUpcasters(),
    diagnostics: @escaping @Sendable (Diagnostic) -> Void = Store.printDiagnostic,
    dependencies: (inout DependencyValues) -> Void = { _ in }
  ) throws -> Store {
    let journal = try FileJournal<Action>(
      directory: directory, options: options, upcasters: upcasters, checkingChainWhileReplaying: (),
      startingFromSnapshot: true)
    journal.onRetentionFailure { diagnostics(Diagnostic(kind: .journalFailed, message: $0.description)) }
    let store = try journal.afterChainCheck {
      let restored = journal.loadSnapshot(State.self)
      journal.setSnapshotRecovery(restored.recovery)
      do {
        return try Store(
          origin: restored.state ?? initialState, at: restored.sequence, reducer: reducer, journal: journal,
          clock: clock, actor: actor, history: history, diagnostics: diagnostics, dependencies: dependencies,
          genesis: initialState)
      } catch let error as HistoryError where restored.sequence > 0 {
        // An undo, redo or restore after the snapshot goes back before it: replay the whole log instead.
        journal.setSnapshotRecovery(restored.recovery.replayedInstead(because: error))
        return try Store(
          origin: initialState, at: 0, reducer: reducer, journal: journal, clock: clock, actor: actor,
          history: history, diagnostics: diagnostics, dependencies: dependencies)
      }
    }
    if let interval = options.snapshotInterval {
      journal.schedulePeriodicSnapshots(of: store, interval: interval, diagnostics: diagnostics)
    }
    return store
  }

  /// Writes a snapshot of the current state to `journal` now (blocking until it is durable).
  ///
  /// A store reopened from it starts with an empty undo history; the snapshots `Store.open` writes on its
  /// own keep the history instead (they record an older state).
  /// - Throws: the errors of ``FileJournal/writeSnapshot(_:at:)``.
  public func writeSnapshot(to journal: FileJournal<Action>) throws {
    let (state, sequence) = stateAndSequence
    try journal.writeSnapshot(state, at: sequence)
  }

  /// The periodic snapshot: as of the oldest event the undo history reaches, unless that is more than an
  /// interval back; then older snapshot files beyond `keptSnapshots` are removed.
  @usableFromInline
  func writeReopenSnapshot(
    to journal: FileJournal<Action>, interval: UInt64, diagnostics: @Sendable (Diagnostic) -> Void
  ) {
    do {
      let (state, sequence) = reopenPoint(maxDistance: interval)
      try journal.writeSnapshot(state, at: sequence)
      try journal.removeSnapshots(after: sequence)
      try journal.removeOldSnapshots()
    } catch {
      diagnostics(Diagnostic(kind: .journalFailed, message: "snapshot not written: \(error)"))
    }
  }
}
