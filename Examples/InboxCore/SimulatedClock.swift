import Rewind

/// The scripted session's clock: simulated time that moves only when the session moves it.
///
/// The inbox's timers (the end of a swipe animation, auto-save) sleep on the store's clock. With this one,
/// the script decides when their deadlines pass, wakes them one at a time in deadline order (first come
/// first served on a tie), and lets each timer's event be recorded before the next wakes: the session is
/// deterministic and takes no real time.
public final class SimulatedClock: Clock, Sendable {
  /// A point in simulated time: the time elapsed since the clock was made.
  public struct Instant: InstantProtocol, Hashable, Sendable {
    /// Simulated time since the clock was made.
    public var offset: Duration

    /// The instant `offset` after the clock was made.
    public init(offset: Duration) { self.offset = offset }

    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private struct Sleeper {
    var ticket: UInt64
    var deadline: Instant
    var wake: CheckedContinuation<Void, any Error>
  }

  private struct Timeline {
    var now = Instant(offset: .zero)
    var sleepers: [Sleeper] = []
    var tickets: UInt64 = 0
  }

  private let timeline = Locked(Timeline())

  /// A clock at simulated time zero.
  public init() {}

  public var now: Instant { timeline.withLock { $0.now } }

  public var minimumResolution: Duration { .zero }

  /// The number of tasks asleep on this clock.
  public var sleeperCount: Int { timeline.withLock { $0.sleepers.count } }

  /// The earliest deadline a task sleeps until; `nil` when none sleeps.
  public var nextDeadline: Instant? { timeline.withLock { $0.sleepers.map(\.deadline).min() } }

  /// The simulated seconds since the clock was made.
  public var seconds: Double {
    let parts = now.offset.components
    return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
  }

  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let ticket = timeline.withLock { timeline in
      timeline.tickets += 1
      return timeline.tickets
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (wake: CheckedContinuation<Void, any Error>) in
        let immediate: Result<Void, any Error>? = timeline.withLock { timeline in
          if Task.isCancelled { return .failure(CancellationError()) }
          if deadline <= timeline.now { return .success(()) }
          timeline.sleepers.append(Sleeper(ticket: ticket, deadline: deadline, wake: wake))
          return nil
        }
        if let immediate { wake.resume(with: immediate) }
      }
    } onCancel: {
      let sleeper = timeline.withLock { timeline -> Sleeper? in
        guard let index = timeline.sleepers.firstIndex(where: { $0.ticket == ticket }) else { return nil }
        return timeline.sleepers.remove(at: index)
      }
      sleeper?.wake.resume(throwing: CancellationError())
    }
  }

  /// Wakes the sleeper with the earliest deadline at or before `limit`, moving the time to its deadline.
  /// - Returns: whether one woke.
  public func wakeNext(through limit: Instant) -> Bool {
    let due = timeline.withLock { timeline -> Sleeper? in
      let candidates = timeline.sleepers.indices.filter { timeline.sleepers[$0].deadline <= limit }
      guard
        let index = candidates.min(by: { a, b in
          let (x, y) = (timeline.sleepers[a], timeline.sleepers[b])
          return x.deadline == y.deadline ? x.ticket < y.ticket : x.deadline < y.deadline
        })
      else { return nil }
      let sleeper = timeline.sleepers.remove(at: index)
      timeline.now = Swift.max(timeline.now, sleeper.deadline)
      return sleeper
    }
    due?.wake.resume()
    return due != nil
  }

  /// Moves the time forward to `instant` (never backward) without waking anyone; call ``wakeNext(through:)``
  /// first for the sleepers due by then.
  public func move(to instant: Instant) {
    timeline.withLock { $0.now = Swift.max($0.now, instant) }
  }
}
