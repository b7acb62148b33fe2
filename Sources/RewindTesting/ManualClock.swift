import Foundation
import Rewind
import Synchronization

/// A clock that moves only when a test says so: for effects that sleep, and for event timestamps.
///
/// As a `Clock`, tasks sleeping on it wake in deadline order when ``advance(by:)`` passes their deadline.
/// As an `EventClock`, it stamps events with ``epoch`` plus the time advanced so far, so timestamps in
/// tests are deterministic.
public final class ManualClock: Clock, EventClock, Sendable {
  /// A point on a manual clock: the time advanced since it was created.
  public struct Instant: InstantProtocol, Hashable, Sendable {
    /// The time advanced since the clock was created.
    public var offset: Duration

    /// Creates an instant `offset` after the clock's start.
    public init(offset: Duration) { self.offset = offset }

    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private struct Sleeper {
    var id: UInt64
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct Timeline {
    var now = Instant(offset: .zero)
    var sleepers: [Sleeper] = []
    var nextID: UInt64 = 0
  }

  private let timeline = Locked(Timeline())

  /// Counts of the tasks that may be on their way to sleep on this clock: each test store's running
  /// effects. ``advance(by:)`` first waits for them, so that a task started just before it is not missed.
  private let pendingTasks = Locked<[@Sendable () -> Int]>([])

  /// The wall-clock time at which this clock starts; ``timestamp()`` is this plus the time advanced.
  public let epoch: Date

  /// Creates a clock at `epoch` (by default 2026-01-01 00:00:00 UTC).
  public init(epoch: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
    self.epoch = epoch
  }

  public var now: Instant { timeline.withLock { $0.now } }

  public var minimumResolution: Duration { .zero }

  /// The number of tasks sleeping on this clock.
  public var sleeperCount: Int { timeline.withLock { $0.sleepers.count } }

  public func timestamp() -> Date {
    let offset = now.offset.components
    return epoch.addingTimeInterval(Double(offset.seconds) + Double(offset.attoseconds) / 1e18)
  }

  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = timeline.withLock { timeline in
      timeline.nextID += 1
      return timeline.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let outcome: Result<Void, any Error>? = timeline.withLock { timeline in
          if deadline <= timeline.now { return .success(()) }
          if Task.isCancelled { return .failure(CancellationError()) }
          timeline.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return nil
        }
        if let outcome { continuation.resume(with: outcome) }
      }
    } onCancel: {
      let sleeper: Sleeper? = timeline.withLock { timeline in
        guard let index = timeline.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return timeline.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward by `duration`, waking the sleepers whose deadlines pass, earliest first.
  ///
  /// It first waits, up to five seconds of real time, until every effect of the test stores using this
  /// clock sleeps on it or has finished: an effect sent just before is then not missed on a loaded machine
  /// (a CI run took 15 minutes for what takes 2 here). Only an effect that waits for something other than
  /// this clock makes it wait that long.
  ///
  /// Between wake-ups it yields so that the woken tasks can run up to their next suspension.
  public func advance(by duration: Duration = .zero) async {
    await settle()
    await waitForPendingTasks(limit: .seconds(5))
    let target = now.advanced(by: duration)
    while true {
      let due: Sleeper? = timeline.withLock { timeline in
        guard
          let index = timeline.sleepers.indices.min(by: {
            timeline.sleepers[$0].deadline < timeline.sleepers[$1].deadline
          }), timeline.sleepers[index].deadline <= target
        else { return nil }
        let sleeper = timeline.sleepers.remove(at: index)
        timeline.now = max(timeline.now, sleeper.deadline)
        return sleeper
      }
      guard let due else { break }
      due.continuation.resume()
      await settle()
    }
    timeline.withLock { $0.now = max($0.now, target) }
    await settle()
  }

  /// Waits until at least `count` tasks are sleeping on this clock, so that an ``advance(by:)`` after it
  /// is sure to find them. Gives up after `limit` of real time.
  /// - Returns: whether that many sleepers arrived.
  @discardableResult
  public func waitForSleepers(_ count: Int = 1, limit: Duration = .seconds(5)) async -> Bool {
    await poll(limit: limit) { sleeperCount >= count }
  }

  /// Moves time forward until no task is sleeping on this clock.
  public func run() async {
    while let last = timeline.withLock({ $0.sleepers.map(\.deadline).max() }) {
      await advance(by: now.duration(to: last))
    }
  }

  /// Counts `tasks` among those ``advance(by:)`` waits for before it moves time.
  func awaitTasks(counted tasks: @escaping @Sendable () -> Int) {
    pendingTasks.withLock { $0.append(tasks) }
  }

  /// Waits until the tasks counted by ``awaitTasks(counted:)`` are no more than the sleepers, or `limit`
  /// of real time passes (an effect may wait for something other than this clock).
  private func waitForPendingTasks(limit: Duration) async {
    let counters = pendingTasks.withLock { $0 }
    guard !counters.isEmpty else { return }
    await poll(limit: limit) { counters.reduce(0) { $0 + $1() } <= sleeperCount }
  }

  /// Waits until `condition` holds, yielding and then sleeping 200 µs between looks, or until `limit` of
  /// real time passes.
  /// - Returns: whether `condition` held.
  @discardableResult
  private func poll(limit: Duration, until condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: limit)
    while !condition() {
      if ContinuousClock.now >= deadline { return false }
      await Task.yield()
      if !condition() { try? await Task.sleep(for: .microseconds(200)) }
    }
    return true
  }

  /// Gives woken tasks a chance to run up to their next suspension point.
  private func settle() async {
    for _ in 0..<32 { await Task.yield() }
  }
}
