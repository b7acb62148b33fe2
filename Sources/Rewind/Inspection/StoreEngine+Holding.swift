// Holding sends back while an inspector looks at the past, and applying them when it returns to live.
// Every transition takes the dispatch gate, under which sends are processed, so a send is applied before a
// pause or held after it, and held sends are applied in order before any later one.

extension StoreEngine {
  /// Holds `pending` (a send while an inspector holds the store's sends); when the queue is full, returns
  /// the store to live instead: the held sends, then `pending`, go back to the gate's queue, which the
  /// caller drains in order. Runs on the thread that holds the gate.
  @usableFromInline @inline(never)
  func holdOrRelease(_ pending: PendingEvent<State, Action>) -> Outcome? {
    guard let (released, overflow) = heldSends.hold(pending) else { return nil }
    isHoldingSends.store(false, ordering: .relaxed)
    observation.show(nil)
    for send in released { gate.enqueue(send) }
    overflow?()
    return nil
  }

  /// Starts holding the store's sends: those made from now on are queued until ``releaseHeldSends()``.
  /// Called inside a send of this store (an effect, an observer), the sends after it are held.
  /// - Returns: the sequence number of the last event applied before the hold.
  func holdSends() -> UInt64 {
    let isNested = gate.isHeldByCurrentThread
    if !isNested { gate.enter() }
    isHoldingSends.store(true, ordering: .relaxed)
    let sequence = hub.published.load(ordering: .acquiring)
    if !isNested { gate.leave() }
    return sequence
  }

  /// Stops holding sends, shows views the live state, and applies the held sends in order (with what they
  /// cause), before any later send. Called inside a send of this store, they are queued behind it and
  /// applied before that send returns.
  /// - Returns: how many sends were held.
  @discardableResult
  func releaseHeldSends() -> Int {
    let isNested = gate.isHeldByCurrentThread
    if !isNested { gate.enter() }
    isHoldingSends.store(false, ordering: .relaxed)
    observation.show(nil)
    let released = heldSends.takeAll()
    for send in released { gate.enqueue(send) }
    guard !isNested else { return released.count }
    if let first = gate.dequeue() {
      _ = drain(after: nil, queued: first)
    } else {
      gate.leave()
    }
    return released.count
  }

  /// Drops the sends an inspector held when the store closes, each reported as a send after the close is
  /// (they were never applied or acknowledged). Runs on the thread that holds the gate.
  func dropHeldSends() {
    guard isHoldingSends.load(ordering: .relaxed) else { return }
    isHoldingSends.store(false, ordering: .relaxed)
    observation.show(nil)
    for send in heldSends.takeAll() { _ = drop(send) }
  }
}
