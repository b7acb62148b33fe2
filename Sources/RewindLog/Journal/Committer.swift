import Dispatch
import Foundation
import Rewind

/// The one thread that writes and syncs frames, and the lock around the state it shares with appenders,
/// waiters and readers (``CommitterState``, changed only through its named transitions).
///
/// Appenders add encoded records to the open group; the committer takes every group at once, writes one
/// frame per group, syncs once, then publishes the new durable sequence number and wakes its waiters.
/// Nothing is published as durable before the sync returned; after a failed write or sync every waiter
/// ends with the failure.
final class Committer: @unchecked Sendable {  // `writer` is touched only by the committer thread.
  typealias Progress = CommitterState.Progress

  private let state: Locked<CommitterState>
  private let writer: LogWriter
  private let syncs: Bool
  private let window: Duration
  private let wake = DispatchSemaphore(value: 0)
  private let exited = DispatchSemaphore(value: 0)

  init(writer: LogWriter, scanned: ScannedLog, durability: Durability) {
    self.writer = writer
    var segments = scanned.segments.map(\.name)
    if segments.isEmpty || segments.last != writer.segmentName { segments.append(writer.segmentName) }
    state = Locked(
      CommitterState(
        lastSequence: writer.nextSequence - 1, frames: scanned.frames, segments: segments, cut: scanned.cut,
        chainBeforeFrames: scanned.chainBeforeFrames ?? writer.chain, unindexedBefore: scanned.unindexedBefore
      ))
    switch durability {
    case .none: (syncs, window) = (false, .zero)
    case .grouped(let window): (syncs, self.window) = (true, window)
    case .immediate: (syncs, window) = (true, .zero)
    }
  }

  func start() {
    let thread = Thread { [self] in run() }
    thread.name = "RewindLog committer"
    thread.start()
  }

  // MARK: Reading the state

  /// Runs `body` on the state under the lock; for reads only (the state's setters are private).
  func read<T>(_ body: (CommitterState) -> T) -> T { state.withLock { body($0) } }

  /// Adds the frames before the one the open started at (see ``CommitterState/indexPrefix(_:chainBefore:)``).
  func indexPrefix(_ prefix: [(FrameLocation, segment: String)], chainBefore: SHA256.Digest?) {
    state.withLock { $0.indexPrefix(prefix, chainBefore: chainBefore) }
  }

  // MARK: Transitions

  /// Appends the encoded `record` of event `sequence` (see ``CommitterState/append(_:sequence:snapshotInterval:)``).
  /// - Returns: the snapshot handler to call, outside any lock, when a snapshot is due.
  func append(_ record: [UInt8], sequence: UInt64, snapshotInterval: UInt64?) throws -> (
    @Sendable (UInt64) -> Void
  )? {
    let (needed, handler) = try state.withLock { state in
      try state.append(record, sequence: sequence, snapshotInterval: snapshotInterval)
    }
    signal(needed)
    return handler
  }

  /// Records a refused event (see ``CommitterState/refuse(_:because:)``).
  func refuse(_ sequence: UInt64, because error: FileJournalError) {
    state.withLock { $0.refuse(sequence, because: error) }
  }

  func setSnapshotHandler(_ handler: @escaping @Sendable (UInt64) -> Void) {
    state.withLock { $0.setSnapshotHandler(handler) }
  }

  /// Calls `handler` (on the committer thread, outside the lock) after each commit that rolled to a new
  /// segment; it must return at once (retention hands the cut to its own thread).
  func setRollHandler(_ handler: @escaping @Sendable () -> Void) {
    state.withLock { $0.setRollHandler(handler) }
  }

  /// Records a durable cut (see ``CommitterState/applyCut(_:removingSegments:)``).
  func applyCut(_ anchor: CutAnchor, removingSegments count: Int) {
    state.withLock { $0.applyCut(anchor, removingSegments: count) }
  }

  /// The status now, then once more if durability is lost; finished then or at close.
  func statusUpdates() -> AsyncStream<DurabilityStatus> {
    let (stream, continuation) = AsyncStream.makeStream(of: DurabilityStatus.self)
    let (status, finish) = state.withLock { $0.observe(continuation) }
    if let status { continuation.yield(status) }
    if finish { continuation.finish() }
    return stream
  }

  /// Blocks until `progress` reaches `target`.
  /// - Throws: ``FileJournalError/durabilityLost(_:)``, ``FileJournalError/closed``, or the error of a
  ///   refused event, when it never will.
  func wait(for progress: Progress, through target: UInt64) throws(FileJournalError) {
    let blocked = CommitterState.BlockedThread()
    let action = state.withLock { $0.wait(.init(progress: progress, target: target, wake: .thread(blocked))) }
    switch action {
    case .resume(_, let outcome): try outcome.get()
    case .queued(let needed):
      signal(needed)
      blocked.semaphore.wait()
      try blocked.result.get()
    }
  }

  /// Suspends until `progress` reaches `target`; throws as ``wait(for:through:)`` does.
  func waitAsync(for progress: Progress, through target: UInt64) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      let action = state.withLock {
        $0.wait(.init(progress: progress, target: target, wake: .task(continuation)))
      }
      switch action {
      case .resume(let waiter, let outcome): Self.resume(waiter, with: outcome)
      case .queued(let needed): signal(needed)
      }
    }
  }

  /// Stops the thread after it has written and synced everything, then closes the segment and ends every
  /// waiter and observer still there.
  func stop() {
    signal(state.withLock { $0.beginClose() })
    exited.wait()
    writer.close()
    perform(state.withLock { $0.finishClose() })
  }

  // MARK: The committer thread

  private func signal(_ needed: Bool) {
    if needed { wake.signal() }
  }

  private func run() {
    while true {
      wake.wait()
      if window > .zero {
        Thread.sleep(
          forTimeInterval: Double(window.components.seconds) + Double(window.components.attoseconds) / 1e18)
      }
      while let work = state.withLock({ $0.takeWork(syncsEveryCommit: syncs) }) { commit(work) }
      let (closing, failed) = state.withLock { ($0.closing, $0.failure != nil) }
      if closing {
        // Events of `.none` durability are synced once more at close; nothing is acknowledged by it. Not
        // after a failure: a sync retried after a failed one may "succeed" with the pages already dropped.
        if writer.dirty, !failed { try? writer.sync() }
        exited.signal()
        return
      }
    }
  }

  private func commit(_ work: CommitterState.Work) {
    var frames: [(FrameLocation, segment: String)] = []
    var failure: IOError?
    do {
      for group in work.groups {
        let location = try writer.write(
          records: group.records.bytes, count: group.count, firstSequence: group.first)
        frames.append((location, writer.segmentName))
      }
      if work.sync { try writer.sync() }
    } catch {
      failure = error
    }
    let synced = work.sync && failure == nil
    perform(state.withLock { $0.committed(frames, synced: synced, failure: failure) })
  }

  /// Does what a transition asked for, outside the lock.
  private func perform(_ wakeups: CommitterState.Wakeups) {
    for (waiter, outcome) in wakeups.waiters { Self.resume(waiter, with: outcome) }
    for observer in wakeups.observers {
      if let status = wakeups.status { observer.yield(status) }
      observer.finish()
    }
    wakeups.rolled?()
  }

  private static func resume(_ waiter: CommitterState.Waiter, with outcome: Result<Void, FileJournalError>) {
    switch waiter.wake {
    case .task(let continuation): continuation.resume(with: outcome.mapError { $0 as any Error })
    case .thread(let blocked):
      blocked.result = outcome
      blocked.semaphore.signal()
    }
  }
}
