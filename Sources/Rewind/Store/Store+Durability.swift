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
  var journalRefusal: RefusedEventError? { engine.journalFailure.withLock { $0 } }
}

extension StoreEngine {
  /// Records that the journal refused event `sequence`; called under the state lock, so that a waiter
  /// that sees the event's sequence number also sees the refusal. Later events are not offered.
  /// - Returns: the error the store reports.
  @usableFromInline
  func refuse(_ sequence: UInt64, because error: any Error) -> RefusedEventError {
    journalHealthy.store(false, ordering: .relaxed)
    return journalFailure.withLock { refusal in
      if refusal == nil { refusal = RefusedEventError(sequence: sequence, reason: error) }
      return refusal ?? RefusedEventError(sequence: sequence, reason: error)
    }
  }
}
