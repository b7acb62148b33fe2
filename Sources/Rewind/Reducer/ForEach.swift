/// An action for one element of an identified collection, addressed by the element's id.
public struct IdentifiedAction<ID: Hashable & Sendable, Action: Sendable>: Sendable {
  /// The element the action is for.
  public var id: ID
  /// The element's action.
  public var action: Action

  /// Addresses `action` to the element with `id`.
  @inlinable
  public init(id: ID, action: Action) {
    self.id = id
    self.action = action
  }
}

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}
extension IdentifiedAction: Codable where ID: Codable, Action: Codable {}

extension Reducer {
  /// Runs `element` on the element of an identified collection that an action addresses, before this reducer.
  ///
  /// An action for an id that is not in the collection changes nothing; it is reported as a ``Diagnostic``
  /// (kind ``Diagnostic/Kind/elementMissing``) through the store's diagnostics hook, never a crash.
  ///
  /// An element's effects belong to it: when an action this reducer runs removes the element (or
  /// replaces it with another of a different id), its running effects are cancelled, including those of
  /// reducers nested inside the element. While element effects run under this key path, each action this
  /// reducer sees looks their element ids up in the collection (a lock and a lookup per running element),
  /// and returns a cancellation only when one is gone.
  ///
  /// - Complexity: O(log n) to find the element and change it in place.
  @inlinable
  public func forEach<
    ElementState: Identifiable, ElementAction, Element: Reducer<ElementState, ElementAction>
  >(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ElementState>> & Sendable,
    action toElementAction: ActionPath<Action, IdentifiedAction<ElementState.ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element
  ) -> ForEachReducer<Self, Element> where ElementState.ID: Sendable {
    ForEachReducer(parent: self, toElements: toElements, toElementAction: toElementAction, element: element())
  }
}

/// A parent reducer with a reducer for each element of a collection; made by ``Reducer/forEach(_:action:element:)``.
public struct ForEachReducer<Parent: Reducer, Element: Reducer>: Reducer
where Element.State: Identifiable, Element.State.ID: Sendable {
  @usableFromInline let parent: Parent
  @usableFromInline let toElements: WritableKeyPath<Parent.State, IdentifiedArray<Element.State>> & Sendable
  @usableFromInline
  let toElementAction: ActionPath<Parent.Action, IdentifiedAction<Element.State.ID, Element.Action>>
  @usableFromInline let element: Element

  @inlinable
  init(
    parent: Parent, toElements: WritableKeyPath<Parent.State, IdentifiedArray<Element.State>> & Sendable,
    toElementAction: ActionPath<Parent.Action, IdentifiedAction<Element.State.ID, Element.Action>>,
    element: Element
  ) {
    self.parent = parent
    self.toElements = toElements
    self.toElementAction = toElementAction
    self.element = element
  }

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    var elementEffect = Effect<Parent.Action>.none
    if let addressed = toElementAction.extract(action) {
      let id = addressed.id
      let embed = toElementAction.embed
      if let effect = state[keyPath: toElements].updateElement(
        id: id, { element.reduce(into: &$0, action: addressed.action) })
      {
        elementEffect = effect.map { embed(IdentifiedAction(id: id, action: $0)) }
          .inLifetime(LifetimeComponent(scope: toElements, element: EffectID(id)))
      } else {
        elementEffect = .diagnostic(
          Diagnostic(
            kind: .elementMissing,
            message: "\(Element.self) received \(addressed.action) for id \(addressed.id), "
              + "which is not in the collection"
          ))
      }
    }
    let effect = elementEffect.merge(with: parent.reduce(into: &state, action: action))
    guard Effect.mayHaveChildWork(besides: elementEffect) else { return effect }
    let remaining = state[keyPath: toElements]
    // Unless this action started element work (which may belong to an element it also removed), look for
    // an element with running work that is gone before asking the store to end anything.
    if elementEffect.isNone {
      let hasGone = runningElements.hasGoneElement(under: toElements) { id in
        guard let id = id.base as? Element.State.ID else { return true }
        return remaining.contains(id: id)
      }
      if !hasGone { return effect }
    }
    // End the work of the elements no longer in the collection.
    return effect.merge(
      with: .endLifetimes(under: toElements) { id in
        guard let id = id?.base as? Element.State.ID else { return false }
        return remaining.contains(id: id)
      })
  }
}
