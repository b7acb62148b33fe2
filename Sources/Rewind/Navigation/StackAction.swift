/// An action of a navigation stack: for one of its screens, or to push or pop.
public enum StackAction<ElementState, ElementAction: Sendable> {
  /// `action` for the screen with `id`.
  case element(id: StackElementID, action: ElementAction)
  /// Pushes a screen with `state` (say, from a navigation link).
  case push(ElementState)
  /// Pops the screen with `id` and the ones above it (say, the back button or a swipe back).
  case popFrom(id: StackElementID)
  /// Pops the screens above the one with `id`.
  case popTo(id: StackElementID)
}

extension StackAction: Sendable where ElementState: Sendable {}
extension StackAction: Equatable where ElementState: Equatable, ElementAction: Equatable {}
extension StackAction: Hashable where ElementState: Hashable, ElementAction: Hashable {}
extension StackAction: Codable where ElementState: Codable, ElementAction: Codable {}

extension ActionPath {
  /// The path from a stack action to the action of its screen with `id`.
  ///
  /// ```swift
  /// await store.receive(AppAction.pathPath.appending(.element(id: id)), .loaded(mail))
  /// ```
  public static func element<ElementState: Sendable>(
    id: StackElementID
  ) -> ActionPath where Root == StackAction<ElementState, Value> {
    ActionPath(
      embed: { .element(id: id, action: $0) },
      extract: { action in
        if case .element(id, let elementAction) = action { elementAction } else { nil }
      })
  }
}
