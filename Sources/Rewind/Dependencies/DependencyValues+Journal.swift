extension DependencyValues {
  /// The journal of the store running the current effect, for effects that read history (the events
  /// before their cause, an audit trail); `nil` outside a store's effect or when `Action` is not the
  /// store's action type.
  ///
  /// The store installs it itself; it is not overridable. Pass the root action type of the store, even
  /// from the effect of a child reducer:
  ///
  /// ```swift
  /// return .run { send in
  ///   guard let journal = DependencyValues.current.journal(of: App.Action.self) else { return }
  ///   let last = journal.lastSequence
  ///   let recent = last == 0 ? [] : try journal.events(in: (last > 10 ? last - 9 : 1)...last)
  ///   send(.recentActivity(recent.count))
  /// }
  /// ```
  /// - Parameter action: the store's action type.
  /// - Returns: the journal, or `nil`.
  public func journal<Action: Sendable>(of action: Action.Type) -> (any Journal<Action>)? {
    services?.journal as? any Journal<Action>
  }
}
