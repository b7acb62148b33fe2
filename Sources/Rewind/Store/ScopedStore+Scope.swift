extension ScopedStore {
  /// A store for the part of the state at `toChildState`, whose actions are embedded into this store's by
  /// `toChildAction` and sent through the root.
  ///
  /// The child store is cached: scoping the same path again returns the same store while it exists, so a
  /// view holding it keeps its identity. Its observers are notified only of changes to the child's state.
  /// The cache is keyed by the state path and the child action type: scope a path with one action path.
  ///
  /// ```swift
  /// CounterView(store: store.scope(state: \.counter, action: AppFeature.counterPath))
  /// ```
  public func scope<ChildState: Sendable, ChildAction: Sendable>(
    state toChildState: KeyPath<State, ChildState> & Sendable,
    action toChildAction: ActionPath<Action, ChildAction>
  ) -> ScopedStore<ChildState, ChildAction> {
    let key = ChildKey.scope(toChildState, kind: .plain, action: ObjectIdentifier(ChildAction.self))
    let send = childSender(toChildAction)
    return observation.scope(key, get: { $0[keyPath: toChildState] }, childChanges: nil) { childObservation in
      ScopedStore<ChildState, ChildAction>(
        backing: .scope(ParentLink(send: send)), observation: childObservation)
    }
  }

  /// A store for the optional child state at `toChildState` while it is present; `nil` once it is gone.
  ///
  /// Reading it registers the child's presence: a view that shows the child is told when it appears or
  /// goes, not when it changes. The child store is cached while it exists; after the child is gone, a
  /// store still held (by a view on its way out) keeps showing the state it was last read at, and its
  /// sends reach the parent's reducer, which reports them (``Diagnostic/Kind/childStateMissing`` with
  /// `ifLet`). A child that comes back gets a new store.
  public func scope<ChildState: Sendable, ChildAction: Sendable>(
    state toChildState: KeyPath<State, ChildState?> & Sendable,
    action toChildAction: ActionPath<Action, ChildAction>
  ) -> ScopedStore<ChildState, ChildAction>? {
    let (presence, _) = observation.read(
      .presence(toChildState), alias: nil,
      make: { owner in
        TypedPathObservation(owner: owner) { old, new in
          (old[keyPath: toChildState] == nil) != (new[keyPath: toChildState] == nil)
        }
      },
      value: { _ in () })
    presence.access()
    let key = ChildKey.scope(toChildState, kind: .optional, action: ObjectIdentifier(ChildAction.self))
    let send = childSender(toChildAction)
    return observation.scope(key, extract: { $0[keyPath: toChildState] }) { childObservation in
      ScopedStore<ChildState, ChildAction>(
        backing: .scope(ParentLink(send: send)), observation: childObservation)
    }
  }

  /// How a child store's actions reach this one: embedded by `toChildAction`, sent from the same origin and
  /// with the same transaction.
  func childSender<ChildAction>(_ toChildAction: ActionPath<Action, ChildAction>)
    -> @Sendable (ChildAction, Origin, ViewTransaction?) -> StoreTask
  {
    // The child holds its parent: a view holding only a row store keeps the whole chain alive.
    { [self] action, origin, transaction in
      let parentAction = toChildAction.embed(action)
      if let transaction { return send(parentAction, from: origin, transaction: transaction) }
      return send(parentAction, from: origin)
    }
  }
}
