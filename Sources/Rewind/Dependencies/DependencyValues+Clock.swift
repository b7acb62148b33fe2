extension DependencyValues {
  /// The clock effects sleep on and measure with: `ContinuousClock` live; in tests, a `TestStore`
  /// installs its `ManualClock`, so time moves only when the test advances it.
  ///
  /// ```swift
  /// return .run { send in
  ///   @Dependency(\.clock) var clock
  ///   try await clock.sleep(for: .milliseconds(300))
  ///   send(.searchDelayElapsed)
  /// }
  /// ```
  public var clock: any Clock<Duration> {
    get { self[ClockKey.self] }
    set { self[ClockKey.self] = newValue }
  }
}

/// The key of ``DependencyValues/clock``.
public enum ClockKey: DependencyKey {
  /// `ContinuousClock()`.
  public static var liveValue: any Clock<Duration> { ContinuousClock() }
  /// A clock that fails the test when an effect sleeps on it.
  public static var testValue: any Clock<Duration> { UnimplementedClock() }
}

/// A clock that reports itself unimplemented when slept on: the test value of ``DependencyValues/clock``.
struct UnimplementedClock: Clock {
  var now: ContinuousClock.Instant { ContinuousClock.now }
  var minimumResolution: Duration { .zero }

  func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
    DependencyValues.current.reportUnimplemented(
      "Unimplemented: clock was slept on; give the test a clock (a TestStore installs its ManualClock)")
    throw UnimplementedDependencyError(name: "clock")
  }
}
