/// What a ``ScopedStore`` sends through: the engine itself, for the root ``Store``, or its parent store,
/// for a scope.
///
/// One value with two cases, so that a store is a root or a scope by construction (it cannot hold both
/// or neither) and the engine is held in one place.
@usableFromInline
enum StoreBacking<State: Sendable, Action: Sendable>: Sendable {
  /// A root store: it sends to its engine, which owns the state, the journal and the effects.
  case root(StoreEngine<State, Action>)
  /// A scope: its actions are embedded into its parent's and sent through the parent, from the same origin
  /// and with the same transaction.
  case scope(sendToParent: @Sendable (Action, Origin, ViewTransaction?) -> StoreTask)
}
