/// The dependencies that a store's effects see, keyed by ``DependencyKey`` type.
///
/// A store installs its values (its context's defaults plus the overrides it was created with) around
/// every `.run` effect it starts, as a task-local value; ``Reducer/dependency(_:_:)`` overrides entries
/// for the effects of one part of the reducer tree, the deepest override winning. Effects read them with
/// ``Dependency`` or ``current``:
///
/// ```swift
/// return .run { send in
///   @Dependency(\.clock) var clock
///   try await clock.sleep(for: .seconds(1))
///   send(.tick)
/// }
/// ```
///
/// Child tasks an effect creates (`async let`, task groups, `Task { }`) inherit the values;
/// `Task.detached` does not.
public struct DependencyValues: Sendable {
  /// Which of each key's values is used when the key is not overridden.
  ///
  /// Set it first, before any override: it does not change overrides already made.
  public var context: DependencyContext

  /// Entries set explicitly, by key type.
  private var overrides: [ObjectIdentifier: any Sendable] = [:]
  /// Default values already read, shared by every copy made from the same store's values, so that a
  /// key's live value is made once per store.
  private let defaults: DefaultValueCache
  /// What the store that installed these values offers its effects: where to report problems, its journal.
  var services: StoreServices?
  /// The recorded generators (``uuid``, ``date``, ``random``) resolved once, set on the values a store's
  /// reducers read while they reduce: a draw then skips the lookup and the dynamic cast. Cleared by any
  /// override.
  var recordedGenerators: RecordedGenerators?

  /// Empty values in `context`: every key reads its default.
  public init(context: DependencyContext = .live) {
    self.context = context
    self.defaults = DefaultValueCache()
  }

  /// The values installed for the current task: the running effect's store values, with the overrides
  /// of the reducers above it; while a store reduces, that store's values with the overrides of the
  /// reducers around the running one. Outside any effect or reduce, the live defaults.
  public static var current: DependencyValues {
    if let session = DrawSession.current { return session.dependencies }
    return taskLocal
  }

  @TaskLocal static var taskLocal = DependencyValues(context: .live)

  /// The value for `key`: its override if one was set, otherwise its default in ``context``.
  ///
  /// - Complexity: O(1) (a dictionary lookup; the first read of a default takes a lock).
  public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
    get {
      if let value = overrides[ObjectIdentifier(key)] as? Key.Value { return value }
      return defaults.value(for: key, in: context)
    }
    set {
      overrides[ObjectIdentifier(key)] = newValue
      recordedGenerators = nil
    }
  }

  /// Whether `key` was set explicitly rather than left to its default.
  public func isOverridden<Key: DependencyKey>(_ key: Key.Type) -> Bool {
    overrides[ObjectIdentifier(key)] != nil
  }

  /// Reports that an effect used a dependency (or part of one) that has no implementation in this context.
  ///
  /// The report reaches the store's diagnostics hook as a ``Diagnostic/Kind/dependencyUnimplemented``
  /// diagnostic (a `TestStore` fails the running test with it); outside a store it is printed to standard
  /// error.
  /// - Parameter message: names the dependency and what was called.
  public func reportUnimplemented(_ message: String) {
    let diagnostic = Diagnostic(kind: .dependencyUnimplemented, message: message)
    if let services {
      services.report(diagnostic)
    } else {
      printToStandardError(diagnostic)
    }
  }
}

/// Runs `operation` with the current dependency values changed by `update`.
///
/// For effect code run outside a store (a helper under test, a preview); inside a reducer tree, use
/// ``Reducer/dependency(_:_:)`` instead.
/// - Returns: what `operation` returns.
public func withDependencies<Result>(
  _ update: (inout DependencyValues) throws -> Void,
  operation: () async throws -> Result
) async rethrows -> Result {
  var values = DependencyValues.current
  try update(&values)
  return try await DependencyValues.$taskLocal.withValue(values, operation: operation)
}

/// Runs `operation` synchronously with the current dependency values changed by `update`.
/// - Returns: what `operation` returns.
public func withDependencies<Result>(
  _ update: (inout DependencyValues) throws -> Void,
  operation: () throws -> Result
) rethrows -> Result {
  var values = DependencyValues.current
  try update(&values)
  return try DependencyValues.$taskLocal.withValue(values, operation: operation)
}

/// What a store offers the effects it starts, besides their dependencies.
struct StoreServices: Sendable {
  /// The store's diagnostics hook.
  var report: @Sendable (Diagnostic) -> Void
  /// The store's journal, as `any Journal<Action>` of the store's `Action`.
  var journal: any Sendable
  /// The store's running effects, for effect work that cancels others (``Effect/concatenate(_:)-(Effect...)``).
  var effects: EffectRegistry
}

/// Default values of keys, made on first read and kept.
final class DefaultValueCache: Sendable {
  private struct Key: Hashable {
    var key: ObjectIdentifier
    var context: DependencyContext
  }

  private let values = Locked<[Key: any Sendable]>([:])

  func value<K: DependencyKey>(for key: K.Type, in context: DependencyContext) -> K.Value {
    let cacheKey = Key(key: ObjectIdentifier(key), context: context)
    if let cached = values.withLock({ $0[cacheKey] }) as? K.Value { return cached }
    // Made outside the lock: a default may itself read dependencies (or report, for a missing test value).
    let made = context == .live ? K.liveValue : K.testValue
    return values.withLock { values in
      if let raced = values[cacheKey] as? K.Value { return raced }
      values[cacheKey] = made
      return made
    }
  }
}
