extension Reducer {
  /// Runs `child` on optional child state when it is present, before this reducer.
  ///
  /// A child action that arrives while the child state is `nil` changes nothing; it is reported as a
  /// ``Diagnostic`` (kind ``Diagnostic/Kind/childStateMissing``) through the store's diagnostics hook.
  /// The child runs first so that the parent can react to it, for instance by setting the state to `nil`.
  ///
  /// The child's effects belong to the child state: when this reducer (the child or the parent) sets it to
  /// `nil`, its running effects are cancelled, including those of reducers nested inside the child. State
  /// set to `nil` by a reducer outside this one is not seen going away.
  @inlinable
  public func ifLet<ChildState, ChildAction, Child: Reducer<ChildState, ChildAction>>(
    _ toChildState: WritableKeyPath<State, ChildState?> & Sendable,
    action toChildAction: ActionPath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child
  ) -> IfLetReducer<Self, Child> {
    IfLetReducer(parent: self, toChildState: toChildState, toChildAction: toChildAction, child: child())
  }
}

/// A parent reducer with a child reducer on optional state; made by ``Reducer/ifLet(_:action:then:)``.
public struct IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let toChildState: WritableKeyPath<Parent.State, Child.State?> & Sendable
  @usableFromInline let toChildAction: ActionPath<Parent.Action, Child.Action>
  @usableFromInline let child: Child

  @inlinable
  init(
    parent: Parent, toChildState: WritableKeyPath<Parent.State, Child.State?> & Sendable,
    toChildAction: ActionPath<Parent.Action, Child.Action>, child: Child
  ) {
    self.parent = parent
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.child = child
  }

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    var childEffect = Effect<Parent.Action>.none
    // Whether the child was there with work of its own possibly running: only then can going away end
    // something. Not looked at while no child work runs anywhere, which keeps this free for most sends.
    var wasPresentWithWork = false
    if let childAction = toChildAction.extract(action) {
      if var childState = state[keyPath: toChildState] {
        wasPresentWithWork = true
        // Moved out and back, leaving nil meanwhile, so the child state stays uniquely referenced and
        // the reducer mutates it without a copy.
        state[keyPath: toChildState] = nil
        childEffect = child.reduce(into: &childState, action: childAction).map(toChildAction.embed)
          .inLifetime(LifetimeComponent(scope: toChildState, element: nil))
        state[keyPath: toChildState] = childState
      } else {
        childEffect = .diagnostic(
          Diagnostic(
            kind: .childStateMissing,
            message: "\(Child.self) received \(childAction) while its state in \(Parent.State.self) was nil"
          ))
      }
    } else if Effect<Parent.Action>.childWorkMayRun {
      wasPresentWithWork = state[keyPath: toChildState] != nil
    }
    let effect = childEffect.merge(with: parent.reduce(into: &state, action: action))
    guard wasPresentWithWork, state[keyPath: toChildState] == nil else { return effect }
    return effect.merge(with: .endLifetimes(under: toChildState) { _ in false })
  }
}
