import Foundation

extension DependencyValues {
  /// Tells effects the current date: `Date()` live; in tests, a `TestStore` reads its `ManualClock`.
  ///
  /// An effect that needs the time sends it into the reducer as data (`send(.saved(at: date()))`); the
  /// reducer never reads it itself.
  public var date: DateGenerator {
    get { self[DateGeneratorKey.self] }
    set { self[DateGeneratorKey.self] = newValue }
  }
}

/// Tells the current date; call it like a function: `date()` or `date.now`.
public struct DateGenerator: Sendable {
  private let generate: @Sendable () -> Date

  /// Creates a generator that asks `generate` each time.
  public init(_ generate: @escaping @Sendable () -> Date) { self.generate = generate }

  /// The current date.
  public var now: Date { generate() }

  /// The current date.
  public func callAsFunction() -> Date { generate() }

  /// The system's date.
  public static var live: DateGenerator { DateGenerator { Date() } }

  /// Always `date`.
  public static func constant(_ date: Date) -> DateGenerator { DateGenerator { date } }
}

/// The key of ``DependencyValues/date``.
public enum DateGeneratorKey: DependencyKey {
  /// ``DateGenerator/live``.
  public static var liveValue: DateGenerator { .live }
  /// Fails the test when read, then returns the reference date (2001-01-01).
  public static var testValue: DateGenerator {
    DateGenerator {
      DependencyValues.current.reportUnimplemented(
        "Unimplemented: date was read; override it (a TestStore reads its ManualClock)")
      return Date(timeIntervalSinceReferenceDate: 0)
    }
  }
}
