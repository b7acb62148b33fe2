extension ScopedStore {
  /// One store per element of the collection at `toElements`, addressed by id: what a list's rows hold.
  ///
  /// Reading the collection (iterating it, its count) registers its ids, in order: the list's view is told
  /// when rows are inserted, removed or moved, not when a row changes. Each element's store is told only
  /// when its own element changes, keeps its identity across reorders (it is cached by id), and sends
  /// through `toElementAction` and the root.
  ///
  /// ```swift
  /// ForEach(store.scope(state: \.rows, action: Inbox.rowPath)) { row in RowView(store: row) }
  /// ```
  ///
  /// Elements that are `Equatable` are compared with `==` after a send; others by the identity of their
  /// storage, so their views may be told of an element that was rewritten with equal contents.
  ///
  /// - Complexity: after a send that changed the collection, one pass over it (specialized for `Element`
  ///   where this is called) to find the elements that differ, then work for those only.
  @inlinable
  public func scope<Element: Identifiable & Sendable, ElementAction: Sendable>(
    state toElements: KeyPath<State, IdentifiedArray<Element>> & Sendable,
    action toElementAction: ActionPath<Action, IdentifiedAction<Element.ID, ElementAction>>
  ) -> StoreCollection<Element, ElementAction> where Element.ID: Sendable {
    scopeCollection(
      toElements, action: toElementAction, element: { $0[id: $1] },
      changes: { CollectionChange(from: $0, to: $1, equal: nil) })
  }

  /// One store per `Equatable` element of the collection at `toElements`, addressed by id (see the
  /// general overload).
  @inlinable
  public func scope<Element: Identifiable & Equatable & Sendable, ElementAction: Sendable>(
    state toElements: KeyPath<State, IdentifiedArray<Element>> & Sendable,
    action toElementAction: ActionPath<Action, IdentifiedAction<Element.ID, ElementAction>>
  ) -> StoreCollection<Element, ElementAction> where Element.ID: Sendable {
    scopeCollection(
      toElements, action: toElementAction, element: { $0[id: $1] },
      changes: { CollectionChange(from: $0, to: $1, equal: ==) })
  }

  /// The collection scope at `toElements`, whose element stores find their element with `element` and
  /// whose flushes find changed elements with `changes`: closures made where the app scopes, so that they
  /// are specialized for the element's type.
  @usableFromInline
  func scopeCollection<Element: Identifiable & Sendable, ElementAction: Sendable>(
    _ toElements: KeyPath<State, IdentifiedArray<Element>> & Sendable,
    action toElementAction: ActionPath<Action, IdentifiedAction<Element.ID, ElementAction>>,
    element: @escaping @Sendable (IdentifiedArray<Element>, Element.ID) -> Element?,
    changes: @escaping (IdentifiedArray<Element>, IdentifiedArray<Element>) -> CollectionChange<Element>
  ) -> StoreCollection<Element, ElementAction> where Element.ID: Sendable {
    let key = ChildKey.scope(toElements, kind: .collection, action: ObjectIdentifier(ElementAction.self))
    let send = childSender(toElementAction)
    let childChanges = CollectionScope<Element, ElementAction>.childChanges(using: changes)
    let scope = observation.scope(key, get: { $0[keyPath: toElements] }, childChanges: childChanges) {
      collectionObservation in
      CollectionScope<Element, ElementAction>(
        observation: collectionObservation, element: element, send: send)
    }
    return StoreCollection(scope: scope)
  }
}

/// What differs between two states of a collection, as a collection scope's flush needs to know it.
@usableFromInline
enum CollectionChange<Element: Identifiable> {
  /// Nothing: the same elements.
  case none
  /// Elements were inserted, removed or moved.
  case ids
  /// The same ids in the same order; these elements differ (their old and new states).
  case elements([(old: Element, new: Element)])

  /// Compares `old` with `new` in one pass: element by element, by id, then by identity of their storage,
  /// then with `equal` when given; subtrees the two versions share are stepped over without a look.
  /// - Complexity: O(log n) plus the elements outside shared subtrees: for a one-row change of a version
  ///   of the same collection, O(log n + leaf size); O(n) when the two share nothing. Inlined where the app
  ///   scopes, so specialized for `Element`.
  @inlinable
  init(
    from old: IdentifiedArray<Element>, to new: IdentifiedArray<Element>, equal: ((Element, Element) -> Bool)?
  ) {
    guard old.count == new.count else {
      self = .ids
      return
    }
    var changed: [(old: Element, new: Element)] = []
    let sameIDs = old.tree.sharedRun(with: new.tree, forward: true, limit: old.count) { before, after, _ in
      guard before.id == after.id else { return false }
      if !ValueIdentity.isIdentical(before, after), equal?(before, after) != true {
        changed.append((before, after))
      }
      return true
    }
    if sameIDs != old.count {
      self = .ids
      return
    }
    self = changed.isEmpty ? .none : .elements(changed)
  }
}

/// The stores of a collection's elements, in the collection's order, as a view lists them.
///
/// A snapshot of the collection's elements when it was made by `scope(state:action:)`; each element's
/// store reads the live state, by id.
public struct StoreCollection<Element: Identifiable & Sendable, ElementAction: Sendable>:
  RandomAccessCollection,
  Sendable
where Element.ID: Sendable {
  let scope: CollectionScope<Element, ElementAction>
  /// The elements when the collection was read.
  public let elements: IdentifiedArray<Element>

  init(scope: CollectionScope<Element, ElementAction>) {
    self.scope = scope
    self.elements = scope.readElements()
  }

  public var startIndex: Int { elements.startIndex }
  public var endIndex: Int { elements.endIndex }

  /// The store of the element at `position`.
  public subscript(position: Int) -> ScopedStore<Element, ElementAction> {
    scope.store(for: elements[position])
  }

  /// The store of the element with `id`, if the collection held it when it was read.
  public subscript(id id: Element.ID) -> ScopedStore<Element, ElementAction>? {
    elements[id: id].map(scope.store(for:))
  }
}

/// What a collection scope's element stores share: the collection's node and the way to the root.
final class CollectionScope<Element: Identifiable & Sendable, ElementAction: Sendable>: Sendable
where Element.ID: Sendable {
  let observation: any StoreObserving<IdentifiedArray<Element>>
  /// The element with an id, specialized for `Element` where the app scoped.
  let element: @Sendable (IdentifiedArray<Element>, Element.ID) -> Element?
  let send: @Sendable (IdentifiedAction<Element.ID, ElementAction>, Origin, ViewTransaction?) -> StoreTask

  init(
    observation: any StoreObserving<IdentifiedArray<Element>>,
    element: @escaping @Sendable (IdentifiedArray<Element>, Element.ID) -> Element?,
    send:
      @escaping @Sendable (IdentifiedAction<Element.ID, ElementAction>, Origin, ViewTransaction?) -> StoreTask
  ) {
    self.observation = observation
    self.element = element
    self.send = send
  }

  deinit { observation.detach() }

  /// What a flush does below the collection's node: finds the changed elements with `changes`, then visits
  /// only their stores' nodes (all of the interesting ones, and the ids, when elements moved).
  static func childChanges(
    using changes: @escaping (IdentifiedArray<Element>, IdentifiedArray<Element>) -> CollectionChange<Element>
  ) -> ChildChanges<IdentifiedArray<Element>> {
    { old, new, node, notify in
      switch changes(old, new) {
      case .none:
        return
      case .ids:
        // Known to differ: the ids path is told without comparing again; every interesting element's node
        // is compared by id.
        if let ids = node.paths[.ids], ids.isInteresting, !ids.isQueued {
          ids.isQueued = true
          notify.append(ids)
        }
        for edge in node.interestingChildren.values {
          // The collection's node has element edges only.
          unsafe unsafeDowncast(edge, to: ChildEdge<IdentifiedArray<Element>>.self)
            .collectChanges(from: old, to: new, into: &notify)
        }
      case .elements(let changed):
        // The ids path is the only one on the collection's node, and the ids did not change.
        for (before, after) in changed {
          guard
            let edge = node.children[.element(AnyHashable(after.id))]
              as? OptionalChildEdge<IdentifiedArray<Element>, Element>,
            node.interestingChildren[ObjectIdentifier(edge)] != nil
          else { continue }
          edge.collectChanges(child: before, to: after, into: &notify)
        }
      }
    }
  }

  /// The current elements, registering their ids.
  func readElements() -> IdentifiedArray<Element> {
    let (path, elements) = observation.read(
      .ids, alias: nil,
      make: { owner in
        TypedPathObservation(owner: owner) { old, new in
          if ValueIdentity.isIdentical(old, new) { return false }
          guard old.count == new.count else { return true }
          return !zip(old, new).allSatisfy { $0.id == $1.id }
        }
      },
      value: { $0 })
    path.access()
    return elements
  }

  /// The store of `element`, by its id; `element` stands for its state if it is gone by now.
  func store(for element: Element) -> ScopedStore<Element, ElementAction> {
    let id = element.id
    // The element store holds this scope, which keeps the collection's node in the tree while rows live.
    let send: @Sendable (ElementAction, Origin, ViewTransaction?) -> StoreTask = {
      [self] action, origin, transaction in
      self.send(IdentifiedAction(id: id, action: action), origin, transaction)
    }
    let lookUp = self.element
    return observation.scope(.element(AnyHashable(id)), extract: { lookUp($0, id) }, seen: element) {
      elementObservation in
      ScopedStore<Element, ElementAction>(
        backing: .scope(ParentLink(send: send)), observation: elementObservation)
    }
  }
}
