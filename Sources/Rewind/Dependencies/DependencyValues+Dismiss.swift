extension DependencyValues {
  /// Dismisses the screen whose effect calls it: a presented child
  /// (``Reducer/presentation(_:action:child:)``) or a navigation stack element
  /// (``Reducer/navigationStack(_:action:element:)``), by sending its parent's dismiss or pop action.
  ///
  /// The dismissed screen's effects are then cancelled, the calling one included.
  ///
  /// ```swift
  /// return .run { send in
  ///   @Dependency(\.dismiss) var dismiss
  ///   try await mailServer.send(draft)
  ///   dismiss()
  /// }
  /// ```
  public var dismiss: DismissEffect {
    get { self[DismissKey.self] }
    set { self[DismissKey.self] = newValue }
  }
}

/// Dismisses the screen whose effect calls it; call it like a function: `dismiss()`.
public struct DismissEffect: Sendable {
  private let dismiss: @Sendable () -> Void

  /// Creates a dismiss that calls `dismiss`.
  public init(_ dismiss: @escaping @Sendable () -> Void) { self.dismiss = dismiss }

  /// Dismisses the screen.
  public func callAsFunction() { dismiss() }
}

/// The key of ``DependencyValues/dismiss``.
public enum DismissKey: DependencyKey {
  /// Reports a ``Diagnostic/Kind/dependencyUnimplemented`` diagnostic: there is no screen to dismiss.
  public static var liveValue: DismissEffect {
    DismissEffect {
      DependencyValues.current.reportUnimplemented(
        "dismiss was called by an effect that does not belong to a presented child or a stack element")
    }
  }
  /// The same as the live value: the navigation reducers install the real one.
  public static var testValue: DismissEffect { liveValue }
}
