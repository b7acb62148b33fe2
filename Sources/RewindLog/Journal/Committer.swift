import Rewind
import Dispatch
import Foundation


/// The one thread that writes and syncs frames, and the state it shares with appenders and waiters.
///
/// Appenders add encoded records to the open group; the committer takes every group at once, writes one
/// frame per group, syncs once, then publishes the new durable sequence number and wakes its waiters.
/// Nothing is published as durable before the sync returned.
final class Committer: @unchecked Sendable {  // `writer` is touched only by the committer thread.
  struct Group {
    var records = ByteWriter(capacity: 4096)
    var count: UInt32 = 0
    var first: UInt64 = 0
  }

  enum Progress { case written, durable }

  struct Waiter {
    var progress: Progress
    var target: UInt64
    var continuation: CheckedContinuation<Void, any Error>?
    var semaphore: DispatchSemaphore?
  }

  struct Shared {
    var open = Group()
    var ready: [Group] = []
    var lastAppended: UInt64
    var written: UInt64
    var durable: UInt64
    var syncRequested: UInt64 = 0
    var failure: IOError?
    var closing = false
    var idle = true
    var waiters: [Waiter] = []
    var frames: [FrameLocation]
    var segments: [String]
    var snapshotHandler: (@Sendable (UInt64) -> Void)?
    /// Told once when durability is lost, then finished; finished at close.
    var statusObservers: [AsyncStream<DurabilityStatus>.Continuation] = []

    func isSatisfied(_ progress: Progress, _ target: UInt64) -> Bool {
      progress == .written ? written >= target : durable >= target
    }
  }

  let shared: Locked<Shared>
  private let writer: LogWriter
  private let syncs: Bool
  private let window: Duration
  private let wake = DispatchSemaphore(value: 0)
  private let exited = DispatchSemaphore(value: 0)

  init(writer: LogWriter, scanned: ScannedLog, durability: Durability) {
    self.writer = writer
    let last = writer.nextSequence - 1
    var segments = scanned.segments.map(\.name)
    if segments.isEmpty || segments.last != writer.segmentName { segments.append(writer.segmentName) }
    shared = Locked(Shared(lastAppended: last, written: last, durable: last, frames: scanned.frames, segments: segments))
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

  /// Wakes the committer if it sleeps. Call with the result of ``Shared/claimWake()``.
  func signal(_ needed: Bool) {
    if needed { wake.signal() }
  }

  /// Stops the thread after it has written and synced everything, then closes the segment.
  func stop() {
    let needed = shared.withLock { shared in
      shared.closing = true
      return shared.takeIdle()
    }
    signal(needed)
    exited.wait()
    writer.close()
    let orphans = shared.withLock { shared in
      defer { shared.waiters.removeAll() }
      return shared.waiters
    }
    for waiter in orphans { Self.resume(waiter, with: FileJournalError.closed) }
    let observers = shared.withLock { shared in
      defer { shared.statusObservers.removeAll() }
      return shared.statusObservers
    }
    for observer in observers { observer.finish() }
  }

  private func run() {
    while true {
      wake.wait()
      if window > .zero { Thread.sleep(forTimeInterval: Double(window.components.seconds) + Double(window.components.attoseconds) / 1e18) }
      while true {
        let work = shared.withLock { shared -> (groups: [Group], sync: Bool)? in
          if shared.open.count > 0 {
            shared.ready.append(shared.open)
            shared.open = Group()
          }
          if shared.failure != nil { shared.ready.removeAll() }
          let wantsSync = shared.failure == nil && (syncs || shared.syncRequested > shared.durable)
          let needsSync = wantsSync && shared.written > shared.durable
          if shared.ready.isEmpty && !needsSync {
            shared.idle = true
            return nil
          }
          defer { shared.ready.removeAll() }
          return (shared.ready, wantsSync)
        }
        guard let work else { break }
        commit(work.groups, sync: work.sync)
      }
      if shared.withLock({ $0.closing }) {
        if writer.dirty { try? writer.sync() }
        exited.signal()
        return
      }
    }
  }

  private func commit(_ groups: [Group], sync: Bool) {
    var locations: [FrameLocation] = []
    do {
      for group in groups {
        locations.append(try writer.write(records: group.records.bytes, count: group.count, firstSequence: group.first))
      }
      if sync { try writer.sync() }
      publish(locations, segment: writer.segmentName, synced: sync, failure: nil)
    } catch {
      publish(locations, segment: writer.segmentName, synced: false, failure: error)
    }
  }

  private func publish(_ locations: [FrameLocation], segment: String, synced: Bool, failure: IOError?) {
    let woken = shared.withLock { shared -> [(Waiter, (any Error)?)] in
      if let last = locations.last {
        if shared.segments.count <= last.segment { shared.segments.append(segment) }
        shared.frames.append(contentsOf: locations)
        shared.written = last.lastSequence
      }
      if synced { shared.durable = shared.written }
      if let failure, shared.failure == nil { shared.failure = failure }
      var woken: [(Waiter, (any Error)?)] = []
      var waiting: [Waiter] = []
      for waiter in shared.waiters {
        if shared.isSatisfied(waiter.progress, waiter.target) {
          woken.append((waiter, nil))
        } else if let error = shared.failure {
          woken.append((waiter, waiter.progress == .durable ? FileJournalError.durabilityLost(error) : nil))
        } else {
          waiting.append(waiter)
        }
      }
      shared.waiters = waiting
      return woken
    }
    for (waiter, error) in woken { Self.resume(waiter, with: error) }
    if let failure {
      let (observers, durable) = shared.withLock { shared in
        defer { shared.statusObservers.removeAll() }
        return (shared.statusObservers, shared.durable)
      }
      for observer in observers {
        observer.yield(.lost(failure, durableThrough: durable))
        observer.finish()
      }
    }
  }

  static func resume(_ waiter: Waiter, with error: (any Error)?) {
    if let continuation = waiter.continuation {
      if let error { continuation.resume(throwing: error) } else { continuation.resume() }
    }
    waiter.semaphore?.signal()
  }

  /// Blocks until `progress` reaches `target`.
  /// - Throws: ``FileJournalError/durabilityLost(_:)`` or ``FileJournalError/closed`` when it never will.
  func wait(for progress: Progress, through target: UInt64) throws(FileJournalError) {
    let semaphore = DispatchSemaphore(value: 0)
    let (queued, needed) = shared.withLock { shared -> (Bool, Bool) in
      guard let wake = shared.enqueue(Waiter(progress: progress, target: target, semaphore: semaphore)) else {
        return (false, false)
      }
      return (true, wake)
    }
    signal(needed)
    if queued { semaphore.wait() }
    try shared.withLock { shared throws(FileJournalError) in try shared.check(progress, target) }
  }

  /// Suspends until `progress` reaches `target`.
  func waitAsync(for progress: Progress, through target: UInt64) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      let outcome = shared.withLock { shared -> Result<Bool, FileJournalError>? in
        if let wake = shared.enqueue(Waiter(progress: progress, target: target, continuation: continuation)) {
          return .success(wake)
        }
        do throws(FileJournalError) {
          try shared.check(progress, target)
          return nil
        } catch {
          return .failure(error)
        }
      }
      switch outcome {
      case nil: continuation.resume()
      case .success(let needed): signal(needed)
      case .failure(let error): continuation.resume(throwing: error)
      }
    }
  }
}

extension Committer.Shared {
  /// Marks the committer busy and says whether it must be woken.
  mutating func takeIdle() -> Bool {
    guard idle else { return false }
    idle = false
    return true
  }

  /// Queues `waiter` unless it is already satisfied or can never be; returns whether to wake the committer.
  mutating func enqueue(_ waiter: Committer.Waiter) -> Bool? {
    let target = min(waiter.target, lastAppended)
    if isSatisfied(waiter.progress, target) { return nil }
    if failure != nil, waiter.progress == .durable { return nil }
    if closing { return nil }
    var waiter = waiter
    waiter.target = target
    waiters.append(waiter)
    if waiter.progress == .durable { syncRequested = max(syncRequested, target) }
    return takeIdle()
  }

  func check(_ progress: Committer.Progress, _ target: UInt64) throws(FileJournalError) {
    let target = min(target, lastAppended)
    if isSatisfied(progress, target) { return }
    if let failure { if progress == .durable { throw .durabilityLost(failure) } else { return } }
    throw .closed
  }
}
