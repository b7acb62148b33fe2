/// How the view updates a send causes are applied: for instance inside SwiftUI's `withAnimation`.
///
/// Carried with a send (`send(_:transaction:)`) to the main actor, where the observers of the paths the
/// send changed are notified inside ``perform(_:)``. Platform-neutral: the SwiftUI shim makes one from an
/// `Animation` (`send(_:animation:)`); a UIKit app can wrap the updates in `UIView.animate`.
///
/// When several sends are coalesced into one notification (a burst within one turn of the main run loop),
/// the newest transaction among them applies to all of their updates.
public struct ViewTransaction: Sendable {
  private let body: @MainActor @Sendable (_ updates: () -> Void) -> Void

  /// Creates a transaction that applies view updates by calling `body` with them; `body` must call its
  /// argument exactly once.
  public init(_ body: @escaping @MainActor @Sendable (_ updates: () -> Void) -> Void) {
    self.body = body
  }

  /// Applies `updates` inside this transaction.
  @MainActor
  public func perform(_ updates: () -> Void) { body(updates) }
}
