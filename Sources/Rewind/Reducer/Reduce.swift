/// A reducer made from a closure.
///
/// ```swift
/// Reduce<Int, Bool> { count, up in
///   count += up ? 1 : -1
///   return .none
/// }
/// ```
public struct Reduce<State, Action: Sendable>: Reducer {
  @usableFromInline
  let run: @Sendable (inout State, Action) -> Effect<Action>

  /// Creates a reducer from `reduce`.
  @inlinable
  public init(_ reduce: @escaping @Sendable (inout State, Action) -> Effect<Action>) {
    self.run = reduce
  }

  /// Erases the type of another reducer.
  @inlinable
  public init(_ reducer: some Reducer<State, Action>) {
    self.run = { reducer.reduce(into: &$0, action: $1) }
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    run(&state, action)
  }
}

/// A reducer that changes nothing.
public struct EmptyReducer<State, Action: Sendable>: Reducer {
  /// Creates a reducer that changes nothing.
  @inlinable
  public init() {}

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}
