extension Reducer {
  /// Runs `child` on the presented child state at `toPresentation`, and dismisses it, before this reducer.
  ///
  /// - `.presented(action)` runs the child's reducer; while nothing is presented it changes nothing and
  ///   reports a ``Diagnostic/Kind/childStateMissing`` diagnostic.
  /// - `.dismiss` dismisses the child.
  ///
  /// The child's effects belong to its presentation: when it is dismissed or replaced by another (by one
  /// of these actions or by this reducer), they are cancelled. The child's effects can dismiss it with
  /// ``DependencyValues/dismiss``.
  @inlinable
  public func presentation<ChildState, ChildAction, Child: Reducer<ChildState, ChildAction>>(
    _ toPresentation: WritableKeyPath<State, PresentationState<ChildState>> & Sendable,
    action toPresentationAction: ActionPath<Action, PresentationAction<ChildAction>>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) -> PresentationReducer<Self, Child> {
    PresentationReducer(
      parent: self, toPresentation: toPresentation, toPresentationAction: toPresentationAction,
      child: child())
  }
}

/// A parent reducer with a presented child; made by ``Reducer/presentation(_:action:child:)``.
public struct PresentationReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let toPresentation:
    WritableKeyPath<Parent.State, PresentationState<Child.State>> & Sendable
  @usableFromInline let toPresentationAction: ActionPath<Parent.Action, PresentationAction<Child.Action>>
  @usableFromInline let child: Child

  @inlinable
  init(
    parent: Parent, toPresentation: WritableKeyPath<Parent.State, PresentationState<Child.State>> & Sendable,
    toPresentationAction: ActionPath<Parent.Action, PresentationAction<Child.Action>>, child: Child
  ) {
    self.parent = parent
    self.toPresentation = toPresentation
    self.toPresentationAction = toPresentationAction
    self.child = child
  }

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    // The presentation before the action, looked at only when some child work may be running or this
    // action starts some: otherwise nothing can need ending.
    let before = Effect<Parent.Action>.childWorkMayRun ? state[keyPath: toPresentation].id : nil
    var childEffect = Effect<Parent.Action>.none
    var presentedID: PresentationID?
    switch toPresentationAction.extract(action) {
    case .presented(let childAction):
      (childEffect, presentedID) = reduceChild(into: &state[keyPath: toPresentation], action: childAction)
    case .dismiss:
      state[keyPath: toPresentation].dismiss()
    case nil:
      break
    }
    let effect = childEffect.merge(with: parent.reduce(into: &state, action: action))
    guard let ended = before ?? (childEffect.isNone ? nil : presentedID) else { return effect }
    let current = state[keyPath: toPresentation].id
    if current == ended { return effect }
    return effect.merge(
      with: .endLifetimes(under: toPresentation) { id in
        current.map { EffectID($0) } == id
      })
  }

  @usableFromInline
  func reduceChild(
    into presentation: inout PresentationState<Child.State>, action: Child.Action
  ) -> (Effect<Parent.Action>, PresentationID?) {
    guard var current = presentation.current else {
      let diagnostic = Diagnostic(
        kind: .childStateMissing,
        message: "\(Child.self) received \(action) while nothing was presented in \(Parent.State.self)")
      return (.diagnostic(diagnostic), nil)
    }
    // Moved out and back so the child state stays uniquely referenced and is mutated without a copy.
    presentation.current = nil
    let effect = child.reduce(into: &current.child, action: action)
    presentation.current = current
    if effect.isNone { return (.none, current.id) }
    let embed = toPresentationAction.embed
    let mapped = effect.map { embed(.presented($0)) }
      .providingDismiss { send in send(embed(.dismiss)) }
      .inLifetime(LifetimeComponent(scope: toPresentation, element: EffectID(current.id)))
    return (mapped, current.id)
  }
}
