extension Store {
  /// Suspends until every event the store has accepted so far is durable in its journal.
  ///
  /// With the in-memory journal this returns at once.
  /// - Throws: the journal's error when it can no longer make those events durable.
  public func waitForDurability() async throws {
    try await journal.waitForDurability(through: sequence)
  }
}
