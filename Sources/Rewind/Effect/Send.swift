/// Sends actions from an effect's async work back into the store.
///
/// Actions sent after the effect's task was cancelled are dropped, so cancelled work cannot change state.
public struct Send<Action: Sendable>: Sendable {
  let deliver: @Sendable (Action) -> Void

  /// Creates a sender that hands each action to `deliver`.
  public init(_ deliver: @escaping @Sendable (Action) -> Void) {
    self.deliver = deliver
  }

  /// Sends `action` unless the current task is cancelled.
  public func callAsFunction(_ action: Action) {
    guard !Task.isCancelled else { return }
    deliver(action)
  }
}
