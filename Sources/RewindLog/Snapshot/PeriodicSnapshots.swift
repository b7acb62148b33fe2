import Dispatch
import Rewind
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Writes the snapshots `Store.open` takes every `snapshotInterval` events: one at a time, on a queue of
/// its own (off the sending thread), and none once its journal closes.
package final class PeriodicSnapshots: Sendable {
  /// The queue the snapshots are written on.
  package let queue = DispatchQueue(label: "RewindLog snapshots")
  private let stopped = Atomic<Bool>(false)
  /// The thread running a write, 0 when none: a close from inside a write (a diagnostics handler that
  /// closes the store) must not wait for the write it is part of.
  private let writingThread = Atomic<UInt>(0)

  /// Runs `write` on the queue, unless ``stop()`` is called before it starts.
  func schedule(_ write: @escaping @Sendable () -> Void) {
    queue.async { [self] in
      guard !stopped.load(ordering: .acquiring) else { return }
      writingThread.store(Self.currentThread, ordering: .relaxed)
      defer { writingThread.store(0, ordering: .relaxed) }
      write()
    }
  }

  /// Skips every write not yet started, and waits for the one in progress, if any (unless called from it).
  func stop() {
    stopped.store(true, ordering: .releasing)
    if writingThread.load(ordering: .relaxed) != Self.currentThread { queue.sync {} }
  }

  /// Skips every write not yet started, without waiting: for the journal's `deinit`, which may run on the
  /// queue itself (when a write held the last reference to the journal).
  func stopWithoutWaiting() { stopped.store(true, ordering: .releasing) }

  /// Whether writes are stopped.
  package var isStopped: Bool { stopped.load(ordering: .acquiring) }

  /// Waits until every write scheduled so far has run or been skipped.
  package func waitUntilIdle() { queue.sync {} }

  private static var currentThread: UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }
}

extension FileJournal {
  /// Writes a snapshot of `store` every `interval` events (``Store/writeReopenSnapshot(to:interval:diagnostics:)``),
  /// on ``periodicSnapshots``' queue, until the journal closes.
  ///
  /// Weak all the way to the write: a store released (or closed) before its turn writes nothing, so a
  /// program that drops its store and removes the directory never sees a snapshot written into it.
  @usableFromInline
  func schedulePeriodicSnapshots<State: Codable & Sendable>(
    of store: Store<State, Action>, interval: UInt64, diagnostics: @escaping @Sendable (Diagnostic) -> Void
  ) {
    let snapshots = periodicSnapshots
    onSnapshotDue { [weak store, weak self] _ in
      guard store != nil, self != nil else { return }
      snapshots.schedule { [weak store, weak self] in
        guard let store, let self else { return }
        store.writeReopenSnapshot(to: self, interval: interval, diagnostics: diagnostics)
      }
    }
  }
}
