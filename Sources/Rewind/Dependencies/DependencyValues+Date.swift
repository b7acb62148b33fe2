import Foundation

extension DependencyValues {
  /// Tells the current date: `Date()` live; in tests, a `TestStore` reads its `ManualClock`.
  ///
  /// A recorded dependency: a reducer may read it while it reduces, and the store records each date with
  /// the event, so that every replay of the event reads the same one (see ``RecordedDraw``). In a
  /// reducer, the live date is the event's timestamp (read once from the store's ``EventClock``), so the
  /// dates of one action agree with each other and with its event; override `date` to draw something else.
  ///
  /// ```swift
  /// case .add(let title):
  ///   state.todos.append(Todo(id: uuid(), title: title, created: date.now))
  /// ```
  ///
  /// An effect may read it too, and send the time into the reducer as data (`send(.saved(at: date()))`).
  public var date: DateGenerator {
    get { recordedGenerators?.date ?? self[DateGeneratorKey.self] }
    set { self[DateGeneratorKey.self] = newValue }
  }
}

/// Tells the current date; call it like a function: `date()` or `date.now`.
public struct DateGenerator: Sendable {
  private let generate: @Sendable () -> Date
  /// Whether this is ``live``: a reducer then reads the event's timestamp rather than the system's date.
  private let isSystem: Bool

  /// Creates a generator that asks `generate` each time.
  public init(_ generate: @escaping @Sendable () -> Date) {
    self.generate = generate
    isSystem = false
  }

  private init(system: Void) {
    generate = { Date() }
    isSystem = true
  }

  /// The current date; while a store reduces, one recorded with the event (or, replaying, the recorded
  /// one).
  public var now: Date { draw() }

  /// The current date, as ``now``.
  public func callAsFunction() -> Date { draw() }

  private func draw() -> Date {
    if let session = DrawSession.current { return session.drawDate(isSystem: isSystem, generate) }
    return generate()
  }

  /// The system's date (in a reducer, the event's timestamp).
  public static var live: DateGenerator { DateGenerator(system: ()) }

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
