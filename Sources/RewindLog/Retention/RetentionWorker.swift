import Dispatch
import Synchronization

/// The thread retention cuts on, and the state it shares with the journal: whether a cut is already
/// queued, whether the journal closed, and the last failure. Appending never waits on it.
final class RetentionWorker: Sendable {
  private struct State {
    var queued = false
    var closed = false
    var failure: FileJournalError?
    var onFailure: (@Sendable (FileJournalError) -> Void)?
  }

  private let queue = DispatchQueue(label: "RewindLog retention", qos: .utility)
  private let state = Mutex(State())

  /// The failure of the newest cut attempt; `nil` once a cut succeeded.
  var failure: FileJournalError? { state.withLock { $0.failure } }

  func setFailureHandler(_ handler: @escaping @Sendable (FileJournalError) -> Void) {
    state.withLock { $0.onFailure = handler }
  }

  /// Queues `cut` on the retention thread unless one is queued already or the journal closed.
  func schedule(_ cut: @escaping @Sendable () throws(FileJournalError) -> Void) {
    let queued = state.withLock { state in
      guard !state.queued, !state.closed else { return false }
      state.queued = true
      return true
    }
    guard queued else { return }
    queue.async { [self] in
      let closed = state.withLock { state in
        state.queued = false
        return state.closed
      }
      if !closed { record(Result<Void, FileJournalError>(catching: cut)) }
    }
  }

  /// Runs `cut` on the retention thread now, after whatever is queued, and waits for it.
  func run<T: Sendable>(_ cut: () throws(FileJournalError) -> T) throws(FileJournalError) -> T {
    let result = queue.sync { () -> Result<T, FileJournalError> in
      Result<T, FileJournalError>(catching: cut)
    }
    record(result.map { _ in () })
    return try result.get()
  }

  /// Waits until every cut queued so far has run (for tests).
  func waitForQueuedCuts() { queue.sync {} }

  /// Runs a last `cut` and stops: later requests are ignored. Its failure is reported, not thrown.
  func close(_ cut: () throws(FileJournalError) -> Void) {
    queue.sync {
      guard !state.withLock({ $0.closed }) else { return }
      record(Result<Void, FileJournalError>(catching: cut))
      state.withLock { $0.closed = true }
    }
  }

  private func record(_ result: Result<Void, FileJournalError>) {
    let failure: FileJournalError?
    switch result {
    case .success: failure = nil
    case .failure(let error): failure = error
    }
    let handler = state.withLock { state -> (@Sendable (FileJournalError) -> Void)? in
      state.failure = failure
      return failure == nil ? nil : state.onFailure
    }
    if let handler, let failure { handler(failure) }
  }
}
