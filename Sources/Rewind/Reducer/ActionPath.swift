/// How a child action sits inside a parent action: embed it, or extract it back out.
///
/// Without macros, an enum case is addressed by a pair of closures:
///
/// ```swift
/// enum AppAction { case counter(Counter.Action), other }
/// let counterPath = ActionPath<AppAction, Counter.Action>(
///   embed: AppAction.counter,
///   extract: { if case .counter(let action) = $0 { action } else { nil } }
/// )
/// ```
public struct ActionPath<Root: Sendable, Value: Sendable>: Sendable {
  /// Wraps a child action in the parent action.
  public let embed: @Sendable (Value) -> Root
  /// Returns the child action when `root` carries one.
  public let extract: @Sendable (Root) -> Value?

  /// Creates a path from the two directions.
  @inlinable
  public init(embed: @escaping @Sendable (Value) -> Root, extract: @escaping @Sendable (Root) -> Value?) {
    self.embed = embed
    self.extract = extract
  }
}

extension ActionPath where Root == Value {
  /// The path from an action to itself.
  public static var identity: ActionPath { ActionPath(embed: { $0 }, extract: { $0 }) }
}

extension ActionPath {
  /// The path from this path's root to an action nested inside this path's value.
  ///
  /// ```swift
  /// let rowTick = AppAction.rowsPath.appending(.element(id: 7))   // ActionPath<AppAction, Row.Action>
  /// ```
  public func appending<Child: Sendable>(_ path: ActionPath<Value, Child>) -> ActionPath<Root, Child> {
    let (embed, extract) = (self.embed, self.extract)
    return ActionPath<Root, Child>(
      embed: { embed(path.embed($0)) },
      extract: { extract($0).flatMap(path.extract) })
  }

  /// The path from an element action to the action of the element with `id`.
  public static func element<ID: Hashable & Sendable>(
    id: ID
  ) -> ActionPath where Root == IdentifiedAction<ID, Value> {
    ActionPath(
      embed: { IdentifiedAction(id: id, action: $0) },
      extract: { $0.id == id ? $0.action : nil })
  }
}
