import Foundation

extension DependencyValues {
  /// Makes UUIDs: random live; in tests, a `TestStore` counts up from
  /// `00000000-0000-0000-0000-000000000000`, so ids are predictable.
  ///
  /// A recorded dependency: a reducer may draw from it while it reduces, and the store records each UUID
  /// with the event, so that every replay of the event draws the same one (see ``RecordedDraw``):
  ///
  /// ```swift
  /// struct Todos: Reducer {
  ///   @Dependency(\.uuid) var uuid
  ///   func reduce(into state: inout State, action: Action) -> Effect<Action> {
  ///     switch action {
  ///     case .add(let title): state.todos.append(Todo(id: uuid(), title: title))
  ///     }
  ///     return .none
  ///   }
  /// }
  /// ```
  ///
  /// An effect may call it too; a UUID it makes reaches state through an action it sends.
  public var uuid: UUIDGenerator {
    get { recordedGenerators?.uuid ?? self[UUIDGeneratorKey.self] }
    set { self[UUIDGeneratorKey.self] = newValue }
  }
}

/// Makes UUIDs; call it like a function: `uuid()`.
public struct UUIDGenerator: Sendable {
  private let generate: @Sendable () -> UUID

  /// Creates a generator that asks `generate` for each UUID.
  public init(_ generate: @escaping @Sendable () -> UUID) { self.generate = generate }

  /// A new UUID; while a store reduces, one recorded with the event (or, replaying, the recorded one).
  public func callAsFunction() -> UUID {
    if let session = DrawSession.current { return session.drawUUID(generate) }
    return generate()
  }

  /// Random UUIDs (`UUID()`).
  public static var live: UUIDGenerator { UUIDGenerator { UUID() } }

  /// A new generator of `00000000-0000-0000-0000-000000000000`, `…0001`, `…0002`, …: each access of this
  /// property starts its own count.
  public static var incrementing: UUIDGenerator {
    let counter = Locked<UInt64>(0)
    return UUIDGenerator {
      let value = counter.withLock { count in
        defer { count &+= 1 }
        return count
      }
      return UUID(counting: value)
    }
  }

  /// Always `uuid`.
  public static func constant(_ uuid: UUID) -> UUIDGenerator { UUIDGenerator { uuid } }
}

extension UUID {
  /// The UUID whose last 64 bits are `value`, big-endian, and whose first 64 bits are zero.
  init(counting value: UInt64) {
    let b = (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) }
    self.init(uuid: (0, 0, 0, 0, 0, 0, 0, 0, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]))
  }
}

/// The key of ``DependencyValues/uuid``.
public enum UUIDGeneratorKey: DependencyKey {
  /// ``UUIDGenerator/live``.
  public static var liveValue: UUIDGenerator { .live }
  /// Fails the test when called, then returns the zero UUID.
  public static var testValue: UUIDGenerator {
    UUIDGenerator {
      DependencyValues.current.reportUnimplemented(
        "Unimplemented: uuid was called; override it (a TestStore uses UUIDGenerator.incrementing)")
      return UUID(counting: 0)
    }
  }
}
