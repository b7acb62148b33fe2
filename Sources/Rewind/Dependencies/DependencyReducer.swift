extension Reducer {
  /// Overrides the dependency at `keyPath` for the effects of this reducer and the reducers inside it,
  /// and for what they draw while they reduce.
  ///
  /// Overrides nest: the deepest one wins for the effects below it.
  ///
  /// ```swift
  /// Scope(state: \.search, action: AppAction.searchPath) {
  ///   Search().dependency(\.mailServer, .offline)
  /// }
  /// ```
  /// - Parameters:
  ///   - keyPath: the dependency, a property of ``DependencyValues``.
  ///   - value: its value for these effects.
  @inlinable
  public func dependency<Value: Sendable>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable, _ value: Value
  ) -> DependencyReducer<Self> {
    DependencyReducer(base: self) { $0[keyPath: keyPath] = value }
  }

  /// Changes dependencies with `update` for the effects of this reducer and the reducers inside it.
  ///
  /// `update` runs when each effect starts, on top of the values installed above it.
  @inlinable
  public func dependencies(
    _ update: @escaping @Sendable (inout DependencyValues) -> Void
  ) -> DependencyReducer<Self> {
    DependencyReducer(base: self, update: update)
  }
}

/// A reducer whose effects, and whose recorded draws, see changed dependencies; made by
/// ``Reducer/dependency(_:_:)``.
///
/// The effects it returns are wrapped, when they run; while it reduces, the dependencies its reducers
/// read (``DependencyValues/uuid``, ``DependencyValues/date``, ``DependencyValues/random``) are changed
/// too, at no cost until one is read.
public struct DependencyReducer<Base: Reducer>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let update: @Sendable (inout DependencyValues) -> Void

  @inlinable
  init(base: Base, update: @escaping @Sendable (inout DependencyValues) -> Void) {
    self.base = base
    self.update = update
  }

  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let effect: Effect<Base.Action>
    if let session = DrawSession.current {
      effect = session.withOverride(update) { base.reduce(into: &state, action: action) }
    } else {
      effect = base.reduce(into: &state, action: action)
    }
    return effect.isNone ? effect : effect.withDependencies(update)
  }
}
