import Synchronization

/// The bits of `StoreEngine.detours`: why a store's sends leave the usual path.
@usableFromInline
enum SendDetour {
  /// The store is closed (``Store/close()``): sends are dropped, each reported.
  @inlinable static var closed: UInt8 { 1 }
  /// An inspector holds the store's sends (see ``HeldSends``): they are queued until it releases them.
  @inlinable static var holding: UInt8 { 2 }
}

// A closed store and held sends are both rare and both decided while holding the dispatch gate, so the send
// path tests one byte for both (`process`) and leaves the rest to `detour`.
extension StoreEngine {
  /// Whether the store is closed.
  var isClosed: Bool { detours.load(ordering: .acquiring) & SendDetour.closed != 0 }

  /// Whether an inspector holds the store's sends back; false unless one paused it.
  var isHoldingSends: Bool { detours.load(ordering: .relaxed) & SendDetour.holding != 0 }

  /// Marks the store closed. Call holding the gate.
  /// - Returns: whether it was closed already.
  func markClosed() -> Bool {
    detours.bitwiseOr(SendDetour.closed, ordering: .acquiringAndReleasing).oldValue & SendDetour.closed != 0
  }

  /// Starts (`true`) or stops holding the store's sends. Call holding the gate.
  func setHoldingSends(_ holding: Bool) {
    if holding {
      detours.bitwiseOr(SendDetour.holding, ordering: .relaxed)
    } else {
      detours.bitwiseAnd(~SendDetour.holding, ordering: .relaxed)
    }
  }

  /// Handles `pending`, a send made while ``detours`` is not zero: dropped when the store is closed, held
  /// while an inspector holds the sends. Runs on the thread that holds the gate.
  @usableFromInline @inline(never)
  func detour(_ pending: PendingEvent<State, Action>) -> Outcome? {
    if isClosed { return drop(pending) }
    return holdOrRelease(pending)
  }
}
