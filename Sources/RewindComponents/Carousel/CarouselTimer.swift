import Rewind

/// The carousel's one timer: it sleeps on the clock dependency (``DependencyValues/clock``) until the
/// running scroll animation or fling ends, then sends ``CarouselAction/animationFinished(id:)``.
///
/// Reducers never read a clock; this effect does, live, and is never replayed: the action it sends is
/// recorded as an event caused by the event whose reduction started the motion.
enum CarouselTimer {
  /// The longest the timer sleeps in one go (about 31 years); a longer motion is finished by a sample
  /// or an action after its end instead.
  static let longestSleep = 1e9

  /// Sends `.animationFinished(id:)` after `seconds`; replaces the timer running under `name`.
  static func finish(id: Int, after seconds: Double, name: String) -> Effect<CarouselAction> {
    let seconds = seconds.isFinite ? min(max(0, seconds), longestSleep) : 0
    return Effect<CarouselAction>.run { send in
      @Dependency(\.clock) var clock
      try await clock.sleep(for: .seconds(seconds))
      send(.animationFinished(id: id))
    }
    .cancellable(id: CarouselTimerID(name: name), cancelInFlight: true)
  }

  /// Stops the timer running under `name`.
  static func cancel(name: String) -> Effect<CarouselAction> { .cancel(id: CarouselTimerID(name: name)) }
}

/// Names a carousel's timer among a store's effects.
struct CarouselTimerID: Hashable, Sendable {
  var name: String
}
