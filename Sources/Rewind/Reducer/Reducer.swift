/// A pure function of (state, action) that mutates state in place and describes follow-up work.
///
/// A reducer reads no clock, random source, file or global: time and randomness enter as data in the
/// action. That is what lets a store replay its recorded events and arrive at the same state every time.
///
/// A reducer is `Sendable`: the store calls it from whichever thread sends. A struct whose stored
/// properties are `Sendable` (most reducers have none) conforms as it is, `public` or not; one that holds
/// something else (a closure that is not `@Sendable`, a class that is not `Sendable`) is refused where it
/// is declared, naming the property.
///
/// Implement either ``reduce(into:action:)`` or ``body``, which composes other reducers:
///
/// ```swift
/// struct Counter: Reducer {
///   struct State: Equatable { var count = 0 }
///   enum Action { case increment, decrement }
///   func reduce(into state: inout State, action: Action) -> Effect<Action> {
///     switch action {
///     case .increment: state.count += 1
///     case .decrement: state.count -= 1
///     }
///     return .none
///   }
/// }
/// ```
public protocol Reducer<State, Action>: Sendable {
  /// The state this reducer evolves.
  associatedtype State
  /// The actions it understands.
  associatedtype Action: Sendable
  /// The composed reducer when ``body`` is implemented; `Never` otherwise.
  associatedtype Body = Never

  /// Applies `action` to `state` and returns the effect to run afterwards.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// A reducer built from others with ``ReducerBuilder``; used when `reduce` is not implemented.
  @ReducerBuilder<State, Action>
  var body: Body { get }
}

extension Reducer where Body == Never {
  /// A reducer that implements ``reduce(into:action:)`` has no body.
  public var body: Never {
    preconditionFailure("\(Self.self) implements reduce(into:action:) and has no body")
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// Runs ``body``.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body.reduce(into: &state, action: action)
  }
}
