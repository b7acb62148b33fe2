extension Store {
  /// Records a moment by name, such as `"reported"` when the user files a bug report: an event
  /// (``HistoryCommand/mark(name:)``) that changes nothing and carries the fingerprint of the state the
  /// user sees, when the store records fingerprints (``Fingerprinting``). A replay compares the state it
  /// computes with it, so a report ends with a checked state.
  ///
  /// ```swift
  /// store.mark("reported")
  /// ```
  ///
  /// Marks are history commands: undo and redo step over them. After ``close()`` a mark is dropped, like
  /// any send.
  public func mark(_ name: String, from origin: Origin = .user) {
    dispatch(
      PendingEvent(
        payload: .command(.mark(name: name)), actor: origin.actor, source: origin.source,
        correlationID: origin.correlationID))
  }

  /// Whether the store records fingerprints of its state in its log.
  public var recordsFingerprints: Bool { engine.fingerprinter != nil }
}
