/// What a ``ScopedStore`` sends through: the engine itself, for the root ``Store``, or a link to its parent
/// store, for a scope.
///
/// One value with two cases, so that a store is a root or a scope by construction (it cannot hold both
/// or neither) and the engine is held in one place. Both cases hold one reference, which keeps the value
/// one word: a root store's send tests the case and releases the engine it retained inline (a closure in
/// a case made the value three words, destroyed through an outlined function on every send).
@usableFromInline
enum StoreBacking<State: Sendable, Action: Sendable>: Sendable {
  /// A root store: it sends to its engine, which owns the state, the journal and the effects.
  case root(StoreEngine<State, Action>)
  /// A scope: its actions go through its parent.
  case scope(ParentLink<Action>)
}

/// How a scope's actions reach its parent store: embedded into the parent's actions and sent through the
/// parent, from the same origin and with the same transaction.
@usableFromInline
final class ParentLink<Action: Sendable>: Sendable {
  private let sendToParent: @Sendable (Action, Origin, ViewTransaction?) -> StoreTask

  init(send: @escaping @Sendable (Action, Origin, ViewTransaction?) -> StoreTask) { sendToParent = send }

  /// Sends `action` through the parent.
  ///
  /// Not inlinable: a root store's send inlines its own branch and only calls this one.
  @usableFromInline
  func send(_ action: Action, from origin: Origin, transaction: ViewTransaction?) -> StoreTask {
    sendToParent(action, origin, transaction)
  }
}
