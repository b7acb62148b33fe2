import Dispatch
import Rewind

extension Store where Action: Codable {
  /// Opens a store on the file journal in `directory`, restoring its state by replaying every event.
  ///
  /// The journal is `store.journal as? FileJournal<Action>`; see ``FileJournal/recoveryReport``.
  /// Events written with older schema versions of `Action` are converted by `upcasters` during the replay.
  /// - Throws: the errors of ``FileJournal/init(directory:options:upcasters:)`` and of decoding an event
  ///   (``FileJournalError/unknownEventType(_:schemaVersion:at:reason:)``,
  ///   ``FileJournalError/noUpcastPath(_:from:to:missingStep:at:)`` and the others).
  @inlinable
  public static func open<R: Reducer & Sendable>(
    directory: String,
    initialState: State,
    reducer: R,
    options: FileJournalOptions = FileJournalOptions(),
    clock: some EventClock = .system,
    actor: String? = nil,
    history: HistoryConfiguration<Action> = .standard,
    upcasters: EventUpcasters = EventUpcasters(),
    diagnostics: @escaping @Sendable (Diagnostic) -> Void = Store.printDiagnostic
  ) throws -> Store where R.State == State, R.Action == Action {
    let journal = try FileJournal<Action>(
      directory: directory, options: options, upcasters: upcasters, checkingChainWhileReplaying: ())
    journal.onRetentionFailure { diagnostics(Diagnostic(kind: .journalFailed, message: $0.description)) }
    return try journal.afterChainCheck {
      try Store(
        initialState: initialState, reducer: reducer, journal: journal, clock: clock, actor: actor,
        history: history, diagnostics: diagnostics)
    }
  }
}

extension Store where Action: Codable, State: Codable {
  /// Opens a store on the file journal in `directory`, restoring its state from the newest snapshot that
  /// matches the log plus the events after it; a damaged or mismatching snapshot falls back to an older
  /// one, then to a full replay (see ``FileJournal/snapshotRecovery``). With
  /// `options.snapshotInterval`, a snapshot is written every that many events, off the sending thread.
  ///
  /// Events written with older schema versions of `Action` are converted by `upcasters` during the replay.
  /// - Throws: the errors of ``FileJournal/init(directory:options:upcasters:)`` and of decoding an event
  ///   (``FileJournalError/unknownEventType(_:schemaVersion:at:reason:)``,
  ///   ``FileJournalError/noUpcastPath(_:from:to:missingStep:at:)`` and the others).
  @inlinable
  public static func open<R: Reducer & Sendable>(
    directory: String,
    initialState: State,
    reducer: R,
    options: FileJournalOptions = FileJournalOptions(),
    clock: some EventClock = .system,
    actor: String? = nil,
    history: HistoryConfiguration<Action> = .standard,
    upcasters: EventUpcasters = EventUpcasters(),
    diagnostics: @escaping @Sendable (Diagnostic) -> Void = Store.printDiagnostic
  ) throws -> Store where R.State == State, R.Action == Action {
    let journal = try FileJournal<Action>(
      directory: directory, options: options, upcasters: upcasters, checkingChainWhileReplaying: ())
    journal.onRetentionFailure { diagnostics(Diagnostic(kind: .journalFailed, message: $0.description)) }
    let store = try journal.afterChainCheck {
      let restored = journal.loadSnapshot(State.self)
      journal.setSnapshotRecovery(restored.recovery)
      return try Store(
        origin: restored.state ?? initialState, at: restored.sequence, reducer: reducer, journal: journal,
        clock: clock, actor: actor, history: history, diagnostics: diagnostics)
    }
    if options.snapshotInterval != nil {
      let queue = DispatchQueue(label: "RewindLog snapshots")
      journal.onSnapshotDue { [weak store, weak journal] _ in
        guard let store, let journal else { return }
        queue.async { store.writeSnapshot(to: journal, diagnostics: diagnostics) }
      }
    }
    return store
  }

  /// Writes a snapshot of the current state to `journal` now (blocking until it is durable).
  /// - Throws: the errors of ``FileJournal/writeSnapshot(_:at:)``.
  public func writeSnapshot(to journal: FileJournal<Action>) throws {
    let (state, sequence) = stateAndSequence
    try journal.writeSnapshot(state, at: sequence)
  }

  @usableFromInline
  func writeSnapshot(to journal: FileJournal<Action>, diagnostics: @Sendable (Diagnostic) -> Void) {
    do {
      try writeSnapshot(to: journal)
    } catch {
      diagnostics(Diagnostic(kind: .journalFailed, message: "snapshot not written: \(error)"))
    }
  }
}
