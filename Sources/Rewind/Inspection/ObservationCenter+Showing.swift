// What views are shown while an inspector looks at the past: a state other than the live one, delivered
// through the same per-path observation as a send (the flush compares what views were told of with it).

extension ObservationCenter {
  /// Runs `body` with the state views are shown and its sequence number: `shown` (an inspector's), or the
  /// live one read in place under the state lock (see ``read``: only what `body` returns is copied).
  static func withState<Result>(
    shown: Snapshot?, of hub: StateHub<Root>, _ body: (Root, UInt64) -> Result
  ) -> Result {
    if let shown { return body(shown.state, shown.sequence) }
    return hub.core.withLock { body($0.state, $0.sequence) }
  }

  /// Shows views `snapshot` instead of the live state, or the live state again when `nil`, and tells the
  /// observers of every path whose value differs at the next flush.
  func show(_ snapshot: Snapshot?) {
    machine.withLock { machine in
      machine.shown = snapshot
      machine.shownChanged = true
    }
    if isActive.load(ordering: .relaxed) { stateDidChange() }
  }

  /// The state views are shown while an inspector shows another than the live one; `nil` when live.
  var shownSnapshot: Snapshot? { machine.withLock { $0.shown } }
}
