/// The effects a send started: await them, or cancel them.
///
/// Returned by `send`, so that a view can tie a send's effects to its own lifetime:
///
/// ```swift
/// .task { await store.send(.appeared).finish() }  // SwiftUI cancels the task when the view goes away
/// ```
///
/// It holds the async effect work started by the action and by the actions sent synchronously because of
/// it (``Effect/send(_:)``), not work started later by actions those effects send. A send that started no
/// async work returns an empty task, which costs nothing to make; so does a send made while the same
/// thread is inside another send (it is queued behind it, and its effects belong to that outer send).
public struct StoreTask: Sendable {
  /// The started tasks; `nil` when there are none, so that a plain send makes nothing.
  @usableFromInline let effects: Effects?

  @inlinable
  init(effects: Effects?) { self.effects = effects }

  /// Whether the send started no async work.
  public var isEmpty: Bool { effects == nil }

  /// Waits until every effect the send started has ended. When the waiting task is cancelled, the effects
  /// are cancelled, and this returns once they have ended.
  public func finish() async {
    guard let effects else { return }
    await withTaskCancellationHandler {
      for task in effects.tasks { await task.value }
    } onCancel: {
      effects.cancel()
    }
  }

  /// Cancels every effect the send started. Actions they send afterwards are dropped (see ``Send``).
  public func cancel() { effects?.cancel() }

  /// Whether every effect the send started was cancelled (true for an empty task only if `cancel` ran).
  public var isCancelled: Bool { effects?.tasks.allSatisfy(\.isCancelled) ?? false }

  /// The tasks a send started, collected while it is processed.
  @usableFromInline
  final class Effects: Sendable {
    let tasks: [Task<Void, Never>]

    init(_ tasks: [Task<Void, Never>]) { self.tasks = tasks }

    /// Adds `task` to `effects`, making the collection on the first task.
    static func add(_ task: Task<Void, Never>, to effects: inout Effects?) {
      effects = Effects((effects?.tasks ?? []) + [task])
    }

    func cancel() { for task in tasks { task.cancel() } }
  }
}
