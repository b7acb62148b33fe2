import Dispatch
import Observation
import Synchronization

/// Runs `apply` now and again after each change of what it read, on the main actor, until the token is
/// cancelled or released: how UIKit and AppKit code follows a store.
///
/// `apply` reads the store (or any `Observable`) as a SwiftUI body would; each read path is tracked with
/// `withObservationTracking`, and a change of any of them runs `apply` again (on the main queue, after
/// the change), which tracks what that run reads. Changes that come together run it once.
///
/// ```swift
/// token = observe { [weak self] in
///   guard let self else { return }
///   titleLabel.text = store.title
///   archiveButton.isEnabled = store.canArchive
/// }
/// ```
///
/// - Returns: a token that ends the observation when cancelled or released; keep it as long as the view.
@MainActor @discardableResult
public func observe(_ apply: @escaping @MainActor @Sendable () -> Void) -> ObservationToken {
  let token = ObservationToken()
  token.track(apply)
  return token
}

/// Ends an ``observe(_:)`` when cancelled or released.
public final class ObservationToken: Sendable {
  private let cancelled = Atomic<Bool>(false)

  init() {}

  deinit { cancel() }

  /// Stops running the observation's closure.
  public func cancel() { cancelled.store(true, ordering: .releasing) }

  /// Whether ``cancel()`` ran.
  public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

  /// Runs `apply`, tracking what it reads; a change runs this again.
  @MainActor
  func track(_ apply: @escaping @MainActor @Sendable () -> Void) {
    guard !isCancelled else { return }
    withObservationTracking {
      apply()
    } onChange: { [weak self] in
      // Not now: an `Observable` class announces a change before making it. On the main queue, after it.
      DispatchQueue.main.async {
        MainActor.assumeIsolated { self?.track(apply) }
      }
    }
  }
}
