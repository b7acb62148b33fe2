import Synchronization

/// The store's running effect tasks, by token, by cancellation id and by the child state they belong to.
final class EffectRegistry: Sendable {
  private let tasks = Locked(RunningEffects())

  /// Starts `operation` as a task marked with `ids` and belonging to the child state at `lifetime`, first
  /// cancelling the tasks marked with any of `ids` when `cancelInFlight` is set.
  /// - Returns: the task, for the ``StoreTask`` of the send that started it.
  @discardableResult
  func start(
    priority: TaskPriority?, ids: [EffectID], cancelInFlight: Bool, lifetime: [LifetimeComponent] = [],
    operation: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never> {
    startWithLiveness(priority: priority, ids: ids, cancelInFlight: cancelInFlight, lifetime: lifetime) {
      _ in await operation()
    }
  }

  /// Starts `operation` as ``start(priority:ids:cancelInFlight:lifetime:operation:)`` does, handing it
  /// the task's ``EffectLiveness``, which turns false when the task is cancelled through this registry.
  /// - Returns: the task.
  @discardableResult
  func startWithLiveness(
    priority: TaskPriority?, ids: [EffectID], cancelInFlight: Bool, lifetime: [LifetimeComponent] = [],
    operation: @escaping @Sendable (EffectLiveness) async -> Void
  ) -> Task<Void, Never> {
    if cancelInFlight, !ids.isEmpty {
      for id in ids { cancel(id: id) }
    }
    let liveness = EffectLiveness()
    return tasks.withLock { tasks in
      let token = tasks.reserveToken()
      // Created under the lock, so the task's own removal (which takes the lock) comes after this insert.
      let task = Task(priority: priority) { [weak self] in
        await operation(liveness)
        self?.remove(token)
      }
      tasks.insert(
        RunningEffects.Entry(task: task, ids: ids, lifetime: lifetime, liveness: liveness), token: token)
      return task
    }
  }

  private func remove(_ token: UInt64) {
    let idle = tasks.withLock { $0.remove(token) }
    idle.resumeAll()
  }

  /// Cancels the tasks marked with `id`. Cancellation handlers run outside the lock.
  func cancel(id: EffectID) {
    let (cancelled, idle) = tasks.withLock { $0.remove { $0.ids.contains(id) } }
    for task in cancelled { task.cancel() }
    idle.resumeAll()
  }

  /// Cancels the tasks of the children that `end` says went away.
  func end(_ end: LifetimeEnd) {
    let (cancelled, idle) = tasks.withLock { $0.removeEnded(by: end) }
    for task in cancelled { task.cancel() }
    idle.resumeAll()
  }

  /// Cancels every task.
  func cancelAll() {
    let (cancelled, idle) = tasks.withLock { $0.remove { _ in true } }
    for task in cancelled { task.cancel() }
    idle.resumeAll()
  }

  /// The number of effect tasks still running.
  var count: Int { tasks.withLock { $0.count } }

  /// The number of tasks cancelled through this registry (no longer in ``count``) whose operation has not
  /// returned yet.
  var cancelledStillRunning: Int { tasks.withLock { $0.cancelledStillRunning } }

  /// Waits until no effect task is running, including ones started while waiting; returns at once when
  /// the waiting task is cancelled.
  func waitUntilIdle() async {
    let id = tasks.withLock { $0.reserveToken() }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let resumeNow = tasks.withLock { $0.addIdleWaiter(continuation, id: id) }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      tasks.withLock { $0.removeIdleWaiter(id) }?.resume()
    }
  }
}

/// The state behind an ``EffectRegistry``'s lock: running tasks and the waiters for none to run.
///
/// Its transitions return what must happen after unlocking: tasks to cancel, waiters to resume.
struct RunningEffects {
  struct Entry {
    var task: Task<Void, Never>
    var ids: [EffectID]
    var lifetime: [LifetimeComponent]
    var liveness = EffectLiveness()
  }

  /// Waiters to resume once the lock is released.
  struct IdleWaiters {
    var continuations: [CheckedContinuation<Void, Never>] = []

    func resumeAll() {
      for continuation in continuations { continuation.resume() }
    }
  }

  private(set) var nextToken: UInt64 = 0
  private(set) var entries: [UInt64: Entry] = [:]
  private(set) var idleWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
  /// How many entries belong to a child state; mirrored into the process-wide ``childEffectCount``.
  private(set) var childEntries = 0
  /// How many tasks were removed by a cancellation and have not returned yet. Such a task can no longer
  /// send, but it may be finishing a send it started: the timer whose own send cancels it (a finished
  /// animation cancelling its timer) still processes the actions that send queued.
  private(set) var cancelledStillRunning = 0

  var count: Int { entries.count }
  var hasChildWork: Bool { childEntries > 0 }

  mutating func reserveToken() -> UInt64 {
    defer {
      nextToken += 1
      checkInvariantsIfEnabled()
    }
    return nextToken
  }

  mutating func insert(_ entry: Entry, token: UInt64) {
    entries[token] = entry
    if !entry.lifetime.isEmpty {
      childEntries += 1
      childEffectCount.add(1, ordering: .relaxed)
      runningElements.add(entry.lifetime)
    }
    checkInvariantsIfEnabled()
  }

  /// Removes the task `token` (it finished).
  /// - Returns: the idle waiters to resume, if that was the last task.
  mutating func remove(_ token: UInt64) -> IdleWaiters {
    if let entry = entries.removeValue(forKey: token) {
      forget(entry)
    } else {
      cancelledStillRunning -= 1  // removed when it was cancelled: every task's token is inserted first
    }
    defer { checkInvariantsIfEnabled() }
    return takeIdleWaitersIfIdle()
  }

  /// Removes the tasks `matching` selects.
  /// - Returns: their tasks, to cancel, and the idle waiters to resume.
  mutating func remove(
    matching: (Entry) -> Bool
  ) -> (cancelled: [Task<Void, Never>], idle: IdleWaiters) {
    remove(tokens: entries.compactMap { matching($0.value) ? $0.key : nil })
  }

  /// Removes the tasks `tokens` names.
  /// - Returns: their tasks, to cancel, and the idle waiters to resume.
  private mutating func remove(tokens: [UInt64]) -> (cancelled: [Task<Void, Never>], idle: IdleWaiters) {
    let removed = tokens.compactMap { entries.removeValue(forKey: $0) }
    cancelledStillRunning += removed.count
    for entry in removed {
      entry.liveness.cancel()
      forget(entry)
    }
    defer { checkInvariantsIfEnabled() }
    return (removed.map(\.task), removed.isEmpty ? IdleWaiters() : takeIdleWaitersIfIdle())
  }

  /// Removes the tasks of the children `end` says are gone. Called on every send that may have ended a
  /// child while child work runs, so it walks only the child tasks, with no allocation when none ends.
  /// - Returns: their tasks, to cancel, and the idle waiters to resume.
  mutating func removeEnded(by end: LifetimeEnd) -> (cancelled: [Task<Void, Never>], idle: IdleWaiters) {
    guard childEntries > 0 else { return ([], IdleWaiters()) }
    var ended: [UInt64] = []
    for (token, entry) in entries where !entry.lifetime.isEmpty && end.ends(entry.lifetime) {
      ended.append(token)
    }
    guard !ended.isEmpty else { return ([], IdleWaiters()) }
    return remove(tokens: ended)
  }

  /// Registers a waiter for no task to run.
  /// - Returns: true when none runs now: the caller resumes it at once and it is not kept.
  mutating func addIdleWaiter(_ continuation: CheckedContinuation<Void, Never>, id: UInt64) -> Bool {
    if entries.isEmpty { return true }
    idleWaiters[id] = continuation
    checkInvariantsIfEnabled()
    return false
  }

  /// Takes back waiter `id`, if it is still waiting, to resume it (its task was cancelled).
  mutating func removeIdleWaiter(_ id: UInt64) -> CheckedContinuation<Void, Never>? {
    defer { checkInvariantsIfEnabled() }
    return idleWaiters.removeValue(forKey: id)
  }

  private mutating func forget(_ entry: Entry) {
    guard !entry.lifetime.isEmpty else { return }
    childEntries -= 1
    childEffectCount.subtract(1, ordering: .relaxed)
    runningElements.remove(entry.lifetime)
  }

  private mutating func takeIdleWaitersIfIdle() -> IdleWaiters {
    guard entries.isEmpty, !idleWaiters.isEmpty else { return IdleWaiters() }
    defer { idleWaiters.removeAll() }
    return IdleWaiters(continuations: Array(idleWaiters.values))
  }
}

/// Whether an effect task may still send: false once it was cancelled through the store's registry.
///
/// The store reads it while holding its dispatch gate, and effects are cancelled by sends that hold the
/// gate too, so an action never slips in after the send that ended its effect. Work that finished is not
/// cancelled: an unstructured task it left behind may still send.
final class EffectLiveness: Sendable {
  private let cancelled = Atomic<Bool>(false)

  var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

  func cancel() { cancelled.store(true, ordering: .releasing) }
}
