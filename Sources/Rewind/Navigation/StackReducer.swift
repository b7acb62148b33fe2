extension Reducer {
  /// Runs `element` on the screens of the navigation stack at `toStack`, and pushes and pops them, before
  /// this reducer.
  ///
  /// - `.element(id:action:)` runs the screen's reducer; for an id not in the stack it changes nothing
  ///   and reports a ``Diagnostic/Kind/elementMissing`` diagnostic.
  /// - `.push(state)` pushes a screen; `.popFrom(id:)` and `.popTo(id:)` pop (an unknown id is reported
  ///   the same way).
  ///
  /// A screen's effects belong to it: when it leaves the stack, by one of these actions or by this
  /// reducer changing the stack, they are cancelled. Its effects can pop it with
  /// ``DependencyValues/dismiss``.
  @inlinable
  public func navigationStack<ElementState, ElementAction, Element: Reducer<ElementState, ElementAction>>(
    _ toStack: WritableKeyPath<State, StackState<ElementState>> & Sendable,
    action toStackAction: ActionPath<Action, StackAction<ElementState, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element
  ) -> StackReducer<Self, Element> where ElementState: Sendable {
    StackReducer(parent: self, toStack: toStack, toStackAction: toStackAction, element: element())
  }
}

/// A parent reducer with a navigation stack of screens; made by
/// ``Reducer/navigationStack(_:action:element:)``.
public struct StackReducer<Parent: Reducer, Element: Reducer>: Reducer where Element.State: Sendable {
  @usableFromInline let parent: Parent
  @usableFromInline let toStack: WritableKeyPath<Parent.State, StackState<Element.State>> & Sendable
  @usableFromInline
  let toStackAction: ActionPath<Parent.Action, StackAction<Element.State, Element.Action>>
  @usableFromInline let element: Element

  @inlinable
  init(
    parent: Parent, toStack: WritableKeyPath<Parent.State, StackState<Element.State>> & Sendable,
    toStackAction: ActionPath<Parent.Action, StackAction<Element.State, Element.Action>>, element: Element
  ) {
    self.parent = parent
    self.toStack = toStack
    self.toStackAction = toStackAction
    self.element = element
  }

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    var stackEffect = Effect<Parent.Action>.none
    if let stackAction = toStackAction.extract(action) {
      stackEffect = reduceStack(into: &state[keyPath: toStack], action: stackAction)
    }
    let effect = stackEffect.merge(with: parent.reduce(into: &state, action: action))
    guard Effect.mayHaveChildWork(besides: stackEffect) else { return effect }
    let remaining = state[keyPath: toStack].ids
    return effect.merge(
      with: .endLifetimes(under: toStack) { id in
        guard let id = id?.base as? StackElementID else { return false }
        return remaining.contains(id)
      })
  }

  @usableFromInline
  func reduceStack(
    into stack: inout StackState<Element.State>, action: StackAction<Element.State, Element.Action>
  ) -> Effect<Parent.Action> {
    switch action {
    case .element(let id, let elementAction):
      guard let index = stack.entries.firstIndex(where: { $0.id == id }) else {
        return missing(id, "\(elementAction)")
      }
      let embed = toStackAction.embed
      let effect = element.reduce(into: &stack.entries[index].element, action: elementAction)
      if effect.isNone { return .none }
      return effect.map { embed(.element(id: id, action: $0)) }
        .providingDismiss { send in send(embed(.popFrom(id: id))) }
        .inLifetime(LifetimeComponent(scope: toStack, element: EffectID(id)))
    case .push(let elementState):
      stack.push(elementState)
    case .popFrom(let id):
      if !stack.pop(from: id) { return missing(id, "popFrom") }
    case .popTo(let id):
      if !stack.pop(to: id) { return missing(id, "popTo") }
    }
    return .none
  }

  @usableFromInline
  func missing(_ id: StackElementID, _ what: String) -> Effect<Parent.Action> {
    .diagnostic(
      Diagnostic(
        kind: .elementMissing,
        message: "\(Element.self) stack received \(what) for id \(id), which is not in the stack"))
  }
}

extension Effect {
  /// The same effect, its work run with ``DependencyValues/dismiss`` sending what `dismiss` sends.
  @usableFromInline
  func providingDismiss(_ dismiss: @escaping @Sendable (Send<Action>) -> Void) -> Effect {
    mapRuns { run in
      var run = run
      let operation = run.operation
      run.operation = { send in
        var values = DependencyValues.current
        values.dismiss = DismissEffect { dismiss(send) }
        try await DependencyValues.$taskLocal.withValue(values) { try await operation(send) }
      }
      return run
    }
  }
}
