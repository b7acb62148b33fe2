import Rewind

extension Reducer {
  /// The reducer with every effect it returns dropped: how a recorded session is replayed, since what its
  /// effects sent is in the log as events of their own (generated replay tests send those too).
  public func droppingEffects() -> DroppingEffects<Self> { DroppingEffects(base: self) }
}

/// A reducer whose effects are dropped (see `Reducer.droppingEffects()`).
public struct DroppingEffects<Base: Reducer>: Reducer {
  /// The reducer whose state changes are kept.
  public let base: Base

  /// Applies `action` through the base reducer and drops its effect.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    _ = base.reduce(into: &state, action: action)
    return .none
  }
}

extension DroppingEffects: Sendable where Base: Sendable {}
