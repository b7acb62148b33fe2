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
  public func scope<Element: Identifiable & Sendable, ElementAction: Sendable>(
    state toElements: KeyPath<State, IdentifiedArray<Element>> & Sendable,
    action toElementAction: ActionPath<Action, IdentifiedAction<Element.ID, ElementAction>>
  ) -> StoreCollection<Element, ElementAction> where Element.ID: Sendable {
    let key = ChildKey.scope(toElements, kind: .collection, action: ObjectIdentifier(ElementAction.self))
    let send = childSender(toElementAction)
    let scope = observation.scope(key, get: { $0[keyPath: toElements] }) { collectionObservation in
      CollectionScope<Element, ElementAction>(observation: collectionObservation, send: send)
    }
    return StoreCollection(scope: scope)
  }
}

/// The stores of a collection's elements, in the collection's order, as a view lists them.
///
/// A snapshot of the collection's elements when it was made by `scope(state:action:)`; each element's
/// store reads the live state, by id.
public struct StoreCollection<Element: Identifiable & Sendable, ElementAction: Sendable>: RandomAccessCollection,
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
  let send: @Sendable (IdentifiedAction<Element.ID, ElementAction>, Origin, ViewTransaction?) -> StoreTask

  init(
    observation: any StoreObserving<IdentifiedArray<Element>>,
    send: @escaping @Sendable (IdentifiedAction<Element.ID, ElementAction>, Origin, ViewTransaction?) -> StoreTask
  ) {
    self.observation = observation
    self.send = send
  }

  deinit { observation.detach() }

  /// The current elements, registering their ids.
  func readElements() -> IdentifiedArray<Element> {
    let (path, elements) = observation.read(.ids) { owner in
      TypedPathObservation(owner: owner) { old, new in
        if ValueIdentity.isIdentical(old, new) { return false }
        guard old.count == new.count else { return true }
        return !zip(old, new).allSatisfy { $0.id == $1.id }
      }
    }
    path.access()
    return elements
  }

  /// The store of `element`, by its id; `element` stands for its state if it is gone by now.
  func store(for element: Element) -> ScopedStore<Element, ElementAction> {
    let id = element.id
    // The element store holds this scope, which keeps the collection's node in the tree while rows live.
    let send: @Sendable (ElementAction, Origin, ViewTransaction?) -> StoreTask = { [self] action, origin, transaction in
      self.send(IdentifiedAction(id: id, action: action), origin, transaction)
    }
    return observation.scope(.element(AnyHashable(id)), extract: { $0[id: id] }, seen: element) { elementObservation in
      ScopedStore<Element, ElementAction>(rootEngine: nil, observation: elementObservation, sendToParent: send)
    }
  }
}
