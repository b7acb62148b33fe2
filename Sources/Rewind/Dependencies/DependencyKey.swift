/// Names a dependency and gives its live and test values: the key of a ``DependencyValues`` entry.
///
/// A dependency is whatever an effect needs from the outside world: a clock, a network client, a UUID
/// source. Declare a key, then a computed property on ``DependencyValues`` so effects can read it by key
/// path:
///
/// ```swift
/// struct MailServer: Sendable {
///   var fetch: @Sendable (_ folder: String) async throws -> [Mail]
/// }
///
/// enum MailServerKey: DependencyKey {
///   static let liveValue = MailServer(fetch: { folder in try await HTTPMailServer.shared.fetch(folder) })
///   static let testValue = MailServer(fetch: unimplemented("MailServer.fetch"))
/// }
///
/// extension DependencyValues {
///   var mailServer: MailServer {
///     get { self[MailServerKey.self] }
///     set { self[MailServerKey.self] = newValue }
///   }
/// }
/// ```
///
/// Reducers never read dependencies: only effects do, inside `.run` (see ``Dependency``), so that replay
/// stays exact.
public protocol DependencyKey: Sendable {
  /// The type of the dependency.
  associatedtype Value: Sendable

  /// The value used by a store in the ``DependencyContext/live`` context (an app's stores).
  ///
  /// Read at most once per store, the first time an effect of that store asks for it.
  static var liveValue: Value { get }

  /// The value used by a store in the ``DependencyContext/test`` context (a `TestStore`).
  ///
  /// A key that does not declare one reports the dependency as unimplemented when a test reads it (a
  /// ``Diagnostic/Kind/dependencyUnimplemented`` diagnostic, which fails a `TestStore`'s test) and
  /// then falls back to ``liveValue``.
  static var testValue: Value { get }
}

extension DependencyKey {
  /// Reports that the key has no test value, then returns ``liveValue``.
  public static var testValue: Value {
    DependencyValues.current.reportUnimplemented(
      "\(Self.self) has no testValue; override it in the test (TestStore(…, dependencies:)) or declare one")
    return liveValue
  }
}

/// Which of a key's values a store's dependencies start from.
public enum DependencyContext: Sendable, Hashable {
  /// An app's store: each key's ``DependencyKey/liveValue``.
  case live
  /// A test's store: each key's ``DependencyKey/testValue``.
  case test
}
