/// Reads a dependency from the values installed for the running effect.
///
/// Use it as a local inside an effect's operation, or as a stored property of a reducer that its effects
/// read (capturing `self`); either way the value is read when the effect runs, so it is the one installed
/// for that effect:
///
/// ```swift
/// struct Search: Reducer {
///   @Dependency(\.mailServer) var mailServer
///
///   func reduce(into state: inout State, action: Action) -> Effect<Action> {
///     switch action {
///     case .search(let query):
///       return .run { send in send(.results(try await mailServer.search(query))) }
///     // …
///     }
///   }
/// }
/// ```
///
/// A reducer must not read it while reducing: reducers are pure, so replay stays exact. That includes a
/// capture list: `.run { [mailServer] send in … }` reads the property while reducing, outside the effect,
/// and gets the live default instead of the effect's value; capture `self` instead.
@propertyWrapper
public struct Dependency<Value>: Sendable {
  private let read: @Sendable (DependencyValues) -> Value

  /// Reads the dependency at `keyPath` of ``DependencyValues``.
  public init(_ keyPath: KeyPath<DependencyValues, Value> & Sendable) {
    read = { $0[keyPath: keyPath] }
  }

  /// Reads the dependency named by `key`, for keys without a ``DependencyValues`` property.
  public init<Key: DependencyKey>(_ key: Key.Type) where Key.Value == Value {
    read = { $0[Key.self] }
  }

  /// The dependency's value for the running effect.
  public var wrappedValue: Value { read(DependencyValues.current) }
}
