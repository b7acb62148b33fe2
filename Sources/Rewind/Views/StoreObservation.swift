import Synchronization

/// How one store, the root or a scope, reads its state and registers what its readers observe.
///
/// A protocol (with a generic requirement) rather than a class, because a scoped store knows its own
/// state's type but not its root's: ``RootedObservation`` knows both.
@usableFromInline
protocol StoreObserving<State>: AnyObject, Sendable {
  associatedtype State

  /// Registers a read of the path `key` (made by `make` on first use; found fast by `alias`, the key path
  /// object read through) and returns the path and `value` of the store's current state (`value` runs
  /// under the state lock; only its result is copied out).
  func read<Value>(
    _ key: PathKey, alias: AnyKeyPath?, make: (ScopeNode) -> TypedPathObservation<State>,
    value: (State) -> Value
  ) -> (PathObservation, Value)

  /// The cached child store at `key`, or one made by `makeStore` over a new child observation; `nil` when
  /// `extract` finds no child state now (an optional child that is absent).
  func scope<Child, Made: AnyObject>(
    _ key: ChildKey, extract: @escaping @Sendable (State) -> Child?,
    makeStore: (any StoreObserving<Child>) -> Made
  ) -> Made?

  /// The cached child store at `key`, or one made by `makeStore` for a child that is always present.
  /// `childChanges`, when given, finds what changed below the child (see ``TypedChildEdge``).
  func scope<Child, Made: AnyObject>(
    _ key: ChildKey, get: @escaping @Sendable (State) -> Child, childChanges: ChildChanges<Child>?,
    makeStore: (any StoreObserving<Child>) -> Made
  ) -> Made

  /// Whether a flush is waiting to tell observers of a change.
  var hasPendingNotifications: Bool { get }

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
  let node: ScopeNode
  /// The store's state in the root's (a child's last state seen, once it is gone). Pure: it records
  /// nothing, so it may run on any state, and keeps nothing of it.
  let resolve: (Root) -> State
  private let onDetach: (() -> Void)?

  init(
    center: ObservationCenter<Root>, node: ScopeNode, resolve: @escaping (Root) -> State,
    onDetach: (() -> Void)?
  ) {
    self.center = center
    self.node = node
    self.resolve = resolve
    self.onDetach = onDetach
  }

  func read<Value>(
    _ key: PathKey, alias: AnyKeyPath?, make: (ScopeNode) -> TypedPathObservation<State>,
    value: (State) -> Value
  ) -> (PathObservation, Value) {
    center.read(key, alias: alias, in: node, make: make, resolve: resolve, value: value)
  }

  func scope<Child, Made: AnyObject>(
    _ key: ChildKey, extract: @escaping @Sendable (State) -> Child?,
    makeStore: (any StoreObserving<Child>) -> Made
  ) -> Made? {
    center.withCurrentState { root in
      guard let current = extract(resolve(root)) else {
        // Gone: a store still held keeps its last state, and a child that comes back gets a new store.
        if let edge = node.children[key] as? OptionalChildEdge<State, Child> {
          edge.retire()
          node.remove(edge)
        }
        return nil
      }
      if let cached = (node.children[key] as? OptionalChildEdge<State, Child>)?.store as? Made {
        return cached
      }
      return makeOptionalChild(at: key, extract: extract, current: current, makeStore: makeStore)
    }
  }

  func scope<Child, Made: AnyObject>(
    _ key: ChildKey, get: @escaping @Sendable (State) -> Child, childChanges: ChildChanges<Child>?,
    makeStore: (any StoreObserving<Child>) -> Made
  ) -> Made {
    center.withTreeLock {
      if let cached = (node.children[key] as? PresentChildEdge<State, Child>)?.store as? Made {
        return cached
      }
      let edge = PresentChildEdge<State, Child>(parent: node, get: { get($0) }, childChanges: childChanges)
      let resolveParent = resolve
      let store = attach(edge, at: key, makeStore: makeStore) { edge.get(resolveParent($0)) }
      edge.store = store
      return store
    }
  }

  func scope<Child, Made: AnyObject>(
    _ key: ChildKey, extract: @escaping @Sendable (State) -> Child?, seen: Child,
    makeStore: (any StoreObserving<Child>) -> Made
  ) -> Made {
    center.withCurrentState { root in
      if let cached = (node.children[key] as? OptionalChildEdge<State, Child>)?.store as? Made {
        return cached
      }
      let current = extract(resolve(root)) ?? seen
      return makeOptionalChild(at: key, extract: extract, current: current, makeStore: makeStore)
    }
  }

  var hasPendingNotifications: Bool { center.isFlushScheduled.load(ordering: .acquiring) }

  /// A new optional edge at `key` and the store `makeStore` makes over it. Under the lock; the store is
  /// released by the caller, after the lock (a store's deinit takes the lock).
  private func makeOptionalChild<Child, Made: AnyObject>(
    at key: ChildKey, extract: @escaping @Sendable (State) -> Child?, current: Child,
    makeStore: (any StoreObserving<Child>) -> Made
  ) -> Made {
    let edge = OptionalChildEdge<State, Child>(parent: node, extract: { extract($0) }, current: current)
    let resolveParent = resolve
    let store = attach(edge, at: key, makeStore: makeStore) { edge.resolve(resolveParent($0)) }
    edge.store = store
    return store
  }

  /// Puts `edge` at `key` (replacing a dead one) and makes its store over an observation that resolves the
  /// child's state with `resolveChild`. Under the lock.
  private func attach<Child, Made: AnyObject>(
    _ edge: ChildEdgeBase, at key: ChildKey, makeStore: (any StoreObserving<Child>) -> Made,
    resolveChild: @escaping (Root) -> Child
  ) -> Made {
    if let replaced = node.children[key] { node.remove(replaced) }
    edge.key = key
    node.children[key] = edge
    let parent = node
    let observation = RootedObservation<Root, Child>(
      center: center, node: edge.node, resolve: resolveChild, onDetach: { parent.remove(edge) })
    return makeStore(observation)
  }

  func detach() {
    guard let onDetach else { return }
    center.withTreeLock(onDetach)
  }
}
