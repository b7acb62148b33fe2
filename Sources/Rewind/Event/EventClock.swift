import Foundation

/// Where the store reads event timestamps from. Inject one to make timestamps deterministic in tests.
///
/// Reducers never read a clock; only the store does, to stamp events.
public protocol EventClock: Sendable {
  /// The current wall-clock time.
  func timestamp() -> Date
}

/// The system's wall clock.
public struct SystemEventClock: EventClock {
  /// Creates the system clock.
  public init() {}

  public func timestamp() -> Date { Date() }
}

extension EventClock where Self == SystemEventClock {
  /// The system's wall clock.
  public static var system: SystemEventClock { SystemEventClock() }
}
