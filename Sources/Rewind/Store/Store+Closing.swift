extension Store {
  /// Closes the store: the one way to end it.
  ///
  /// In order: the store stops taking sends (a send or history command after this is dropped, not
  /// recorded, and reported as a ``Diagnostic/Kind/storeClosed`` diagnostic); running effects are
  /// cancelled (actions they send afterwards are dropped, as for any cancelled effect); every subscription
  /// (``states``, `changesets(of:)`, `values(of:)`, `changes()`) delivers the newest state it has not
  /// seen and ends; then the journal is closed (``Journal/close()``): a file journal stops its periodic
  /// snapshots, makes every event durable and releases its directory. A send that was in progress on
  /// another thread finishes first and is journaled.
  ///
  /// To let running effects finish instead of cancelling them, `await` ``waitForEffects()`` first. Reading
  /// the state, the journal and history (``state(at:)``) still works after closing.
  ///
  /// Calling it again, or from another thread meanwhile, does nothing and throws nothing.
  /// - Throws: the journal's error when it could not make every event durable (for a file journal,
  ///   `FileJournalError.durabilityLost`); the store is closed all the same.
  public func close() throws {
    try engine.close()
  }

  /// Whether ``close()`` was called.
  public var isClosed: Bool { engine.isClosed }
}
