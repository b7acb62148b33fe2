/// Runs a child reducer on a part of the parent's state, for the parent actions that carry a child action.
///
/// The child's effects are mapped back into parent actions. Effects started by an ``Reducer/ifLet(_:action:then:)``
/// or ``Reducer/forEach(_:action:element:)`` inside the child end when their own child state goes away.
///
/// ```swift
/// Scope(state: \.counter, action: counterPath) { Counter() }
/// ```
public struct Scope<ParentState, ParentAction: Sendable, Child: Reducer>: Reducer {
  @usableFromInline let toChildState: WritableKeyPath<ParentState, Child.State> & Sendable
  @usableFromInline let toChildAction: ActionPath<ParentAction, Child.Action>
  @usableFromInline let child: Child

  /// Scopes `child` to the state at `state` and the actions `action` extracts.
  @inlinable
  public init<ChildState, ChildAction>(
    state: WritableKeyPath<ParentState, ChildState> & Sendable,
    action: ActionPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = state
    self.toChildAction = action
    self.child = child()
  }

  @inlinable
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(action) else { return .none }
    let effect = child.reduce(into: &state[keyPath: toChildState], action: childAction)
    if effect.isNone { return .none }
    // The child state is always there, so its own work is never ended; its children's work is placed
    // under this scope so that it stays apart from the same children under another scope.
    return effect.map(toChildAction.embed).nestingChildLifetimes(
      in: LifetimeComponent(scope: toChildState, element: nil))
  }
}
