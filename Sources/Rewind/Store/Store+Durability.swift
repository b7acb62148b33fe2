extension Store {
  /// Suspends until every event the store has accepted so far is durable in its journal.
  ///
  /// With the in-memory journal this returns at once.
  /// - Throws: ``RefusedEventError`` once the journal refused an event (that event and every later one
  ///   are in memory only); otherwise the journal's error when it can no longer make those events durable.
  public func waitForDurability() async throws {
    let target = sequence
    if let refusal = journalRefusal, refusal.sequence <= target { throw refusal }
    try await journal.waitForDurability(through: target)
  }

  /// The first event the journal refused, if any.
  var journalRefusal: RefusedEventError? { engine.journalRefusal }
}
