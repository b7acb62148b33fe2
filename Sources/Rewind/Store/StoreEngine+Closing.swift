/// Closing: the engine stops taking sends, ends its work and closes its journal, once.
extension StoreEngine {
  /// Closes the engine; see `Store.close()`.
  ///
  /// A store that records fingerprints first records a `mark("close")` event with the state's
  /// fingerprint, unless its newest event has one.
  ///
  /// Marks it closed while holding the dispatch gate, so that every send either finished before (and is in
  /// the journal) or is dropped after; then cancels the running effects, ends the subscriptions and closes
  /// the journal. Called from inside a send on this thread (a diagnostics handler), it marks the store
  /// closed at once: the sends queued behind the current one are dropped.
  /// - Returns: whether this call closed it (false when it was closed already).
  /// - Throws: the journal's error when it could not make every event durable.
  @discardableResult
  func close() throws -> Bool {
    let isNested = gate.isHeldByCurrentThread
    if !isNested { gate.enter() }
    if !isNested { markClosingFingerprint() }
    let wasClosed = isClosed.exchange(true, ordering: .acquiringAndReleasing)
    if !wasClosed { dropHeldSends() }
    if !isNested { gate.leave() }
    guard !wasClosed else { return false }
    effects.cancelAll()
    hub.finish()
    try journal.close()
    return true
  }

  /// Records a `mark("close")` event with the state's fingerprint, when the store fingerprints and events
  /// came after its last fingerprint. Holds the gate (not from inside a send: a close there records none).
  private func markClosingFingerprint() {
    guard let fingerprinter, !isClosed.load(ordering: .acquiring),
      fingerprinter.hasUnfingerprinted(through: hub.published.load(ordering: .acquiring))
    else { return }
    let pending = PendingEvent<State, Action>(
      payload: .command(.mark(name: "close")), actor: nil, source: .system, correlationID: nil)
    if let outcome = processCommand(pending) {
      var started: StoreTask.Effects?
      finish(outcome, started: &started)
    }
  }

  /// Drops `pending`, sent after the store closed, and reports it. Holds the gate, not the state lock.
  @usableFromInline @inline(never)
  func drop(_ pending: PendingEvent<State, Action>) -> Outcome? {
    let what =
      switch pending.payload {
      case .action(let action): "action \(action)"
      case .command(let command): "\(command)"
      }
    reportDiagnostic(
      Diagnostic(kind: .storeClosed, message: "the store is closed: \(what) was dropped, not recorded"))
    return nil
  }
}
