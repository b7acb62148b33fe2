/// How one store, the root or a scope, reads its state and registers what its readers observe.
///
/// A protocol (with a generic requirement) rather than a class, because a scoped store knows its own
/// state's type but not its root's: ``RootedObservation`` knows both.
protocol StoreObserving<State>: AnyObject, Sendable {
  associatedtype State

  /// Registers a read of the path `key` (made by `make` on first use) and returns the path and the
  /// store's current state.
  func read(_ key: PathKey, make: (ScopeNode<State>) -> TypedPathObservation<State>) -> (PathObservation, State)

  /// The cached child store at `key`, or one made by `makeStore` over a new child observation; `nil` when
  /// `extract` finds no child state now (an optional child that is absent).
  func scope<Child, Made: AnyObject>(
    _ key: ChildKey, extract: @escaping @Sendable (State) -> Child?,
    makeStore: (any StoreObserving<Child>) -> Made
  ) -> Made?

  /// The cached child store at `key`, or one made by `makeStore` for a child that is always present.
  func scope<Child, Made: AnyObject>(
    _ key: ChildKey, get: @escaping @Sendable (State) -> Child, makeStore: (any StoreObserving<Child>) -> Made
  ) -> Made

  /// The cached child store at `key`, or one made by `makeStore`; `seen` stands for the child's state if it
  /// is gone by now (a collection's element, seen when the view listed the collection).
  func scope<Child, Made: AnyObject>(
    _ key: ChildKey, extract: @escaping @Sendable (State) -> Child?, seen: Child,
    makeStore: (any StoreObserving<Child>) -> Made
  ) -> Made

  /// Removes this store's node from the tree (the store is gone).
  func detach()
}

/// The observation of a store whose state is `State`, under a root store whose state is `Root`.
final class RootedObservation<Root: Sendable, State>: StoreObserving, @unchecked Sendable {
  // @unchecked: the closures and the node are only used under the center's lock.
  let center: ObservationCenter<Root>
  let node: ScopeNode<State>
  /// The store's state in the root's, remembering a child's last state on the way.
  let resolve: (Root) -> State
  /// The same, remembering nothing.
  let peek: (Root) -> State
  private let onDetach: (() -> Void)?

  init(
    center: ObservationCenter<Root>, node: ScopeNode<State>, resolve: @escaping (Root) -> State,
    peek: @escaping (Root) -> State, onDetach: (() -> Void)?
  ) {
    self.center = center
    self.node = node
    self.resolve = resolve
    self.peek = peek
    self.onDetach = onDetach
  }

  func read(_ key: PathKey, make: (ScopeNode<State>) -> TypedPathObservation<State>) -> (PathObservation, State) {
    center.read(key, in: node, make: make, resolve: resolve, peek: peek) { ($0, $1) }
  }

  func scope<Child, Made: AnyObject>(
    _ key: ChildKey, extract: @escaping @Sendable (State) -> Child?,
    makeStore: (any StoreObserving<Child>) -> Made
  ) -> Made? {
    center.withCurrentState { root in
      guard let current = extract(resolve(root)) else {
        // Gone: a store still held keeps its last state, and a child that comes back gets a new store.
        if let edge = node.children[key] as? TypedChildEdge<State, Child> {
          edge.retire()
          node.remove(edge)
        }
        return nil
      }
      if let cached: Made = cachedStore(at: key, child: Child.self) { return cached }
      return makeChild(at: key, extract: extract, current: current, makeStore: makeStore)
    }
  }

  func scope<Child, Made: AnyObject>(
    _ key: ChildKey, get: @escaping @Sendable (State) -> Child, makeStore: (any StoreObserving<Child>) -> Made
  ) -> Made {
    center.withCurrentState { root in
      if let cached: Made = cachedStore(at: key, child: Child.self) { return cached }
      return makeChild(at: key, extract: { get($0) }, current: get(resolve(root)), makeStore: makeStore)
    }
  }

  func scope<Child, Made: AnyObject>(
    _ key: ChildKey, extract: @escaping @Sendable (State) -> Child?, seen: Child,
    makeStore: (any StoreObserving<Child>) -> Made
  ) -> Made {
    center.withCurrentState { root in
      if let cached: Made = cachedStore(at: key, child: Child.self) { return cached }
      let current = extract(resolve(root)) ?? seen
      return makeChild(at: key, extract: extract, current: current, makeStore: makeStore)
    }
  }

  /// The live store cached at `key`. Under the lock; the store returned is released by the caller, after
  /// the lock (a store's deinit takes the lock).
  private func cachedStore<Child, Made: AnyObject>(at key: ChildKey, child: Child.Type) -> Made? {
    (node.children[key] as? TypedChildEdge<State, Child>)?.store as? Made
  }

  /// A new edge at `key` (replacing a dead one) and the store `makeStore` makes over it. Under the lock.
  private func makeChild<Child, Made: AnyObject>(
    at key: ChildKey, extract: @escaping @Sendable (State) -> Child?, current: Child,
    makeStore: (any StoreObserving<Child>) -> Made
  ) -> Made {
    let edge = TypedChildEdge<State, Child>(parent: node, extract: extract, current: current)
    if let replaced = node.children[key] { node.remove(replaced) }
    edge.key = key
    node.children[key] = edge
    let (resolveParent, peekParent, parent) = (resolve, peek, node)
    let observation = RootedObservation<Root, Child>(
      center: center, node: edge.node, resolve: { edge.resolve(resolveParent($0)) },
      peek: { edge.peek(peekParent($0)) }, onDetach: { parent.remove(edge) })
    let store = makeStore(observation)
    edge.store = store
    return store
  }

  func detach() {
    guard let onDetach else { return }
    center.withTreeLock(onDetach)
  }
}
