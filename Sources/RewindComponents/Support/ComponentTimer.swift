import Rewind

/// The components' timer effects: sleep on the clock dependency (`DependencyValues.clock`), then send
/// the one action that matters (an animation ended, an auto-save is due).
///
/// Reducers never read a clock; these effects do, live, and are never replayed: the actions they send are
/// recorded as events caused by the event whose reduction started the timer. A `TestStore` installs its
/// `ManualClock`; a store can install any clock with `Reducer.dependency(\.clock, clock)`.
enum ComponentTimer {
  /// The longest a timer sleeps in one go (about 31 years); longer durations are capped.
  static let longestSleep: Double = 1e9

  /// Sends `action` when `run` ends, `run.end − now` seconds from now (`now` being the display time of the
  /// action that starts the timer); cancellable by `id`, replacing the timer already running under it.
  static func finish<Action: Sendable>(
    _ run: SwipeAnimationRun, at now: Double, send action: Action, id: some Hashable & Sendable
  ) -> Effect<Action> {
    // From the start the remaining time is exactly the duration (no rounding through `end`).
    let seconds = capped(now == run.start || !now.isFinite ? run.duration : run.end - now)
    return Effect<Action>.run { send in
      @Dependency(\.clock) var clock
      try await clock.sleep(for: .seconds(seconds))
      send(action)
    }
    .cancellable(id: id, cancelInFlight: true)
  }

  /// Sends `action` every `interval` seconds, at start + k·interval (no drift), until cancelled by `id`;
  /// replaces the timer already running under it.
  static func repeating<Action: Sendable>(
    every interval: Double, send action: Action, id: some Hashable & Sendable
  ) -> Effect<Action> {
    // Foundation's timers clamp their interval to 0.1 ms; so does this one, or a tiny interval would
    // never advance the deadline and send without pause.
    let interval = Swift.max(shortestInterval, capped(interval))
    return Effect<Action>.run { send in
      @Dependency(\.clock) var clock
      let opened: any Clock<Duration> = clock
      try await repeatOn(opened, every: .seconds(interval)) { send(action) }
    }
    .cancellable(id: id, cancelInFlight: true)
  }

  /// Opens the clock's type so deadlines are its own instants.
  private static func repeatOn<C: Clock<Duration>>(
    _ clock: C, every interval: Duration, _ body: () -> Void
  ) async throws {
    var deadline = clock.now
    while true {
      deadline = deadline.advanced(by: interval)
      try await clock.sleep(until: deadline, tolerance: nil)
      body()
    }
  }

  /// The shortest interval of a repeating timer, as Foundation's timers: 0.1 ms.
  static let shortestInterval: Double = 1e-4

  static func capped(_ seconds: Double) -> Double {
    seconds.isFinite ? Swift.min(Swift.max(0, seconds), longestSleep) : 0
  }
}
