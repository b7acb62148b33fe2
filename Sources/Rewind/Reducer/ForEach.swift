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
      if let effect = state[keyPath: toElements].updateElement(id: id, { element.reduce(into: &$0, action: addressed.action) }) {
        elementEffect = effect.map { embed(IdentifiedAction(id: id, action: $0)) }
      } else {
        elementEffect = .diagnostic(
          Diagnostic(
            kind: .elementMissing,
            message: "\(Element.self) received \(addressed.action) for id \(addressed.id), "
              + "which is not in the collection"
          ))
      }
    }
    return elementEffect.merge(with: parent.reduce(into: &state, action: action))
  }
}

extension ForEachReducer: Sendable where Parent: Sendable, Element: Sendable {}
