import Synchronization

/// The store's running effect tasks, by token and by cancellation id.
final class EffectRegistry: Sendable {
  private struct Entry {
    var task: Task<Void, Never>
    var ids: [EffectID]
  }

  private struct Tasks {
    var nextToken: UInt64 = 0
    var entries: [UInt64: Entry] = [:]
  }

  private let tasks = Locked(Tasks())

  /// Starts `operation` as a task marked with `ids`, first cancelling the tasks marked with any of them
  /// when `cancelInFlight` is set.
  /// - Returns: the task, for the ``StoreTask`` of the send that started it.
  @discardableResult
  func start(
    priority: TaskPriority?, ids: [EffectID], cancelInFlight: Bool,
    operation: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never> {
    if cancelInFlight, !ids.isEmpty {
      for id in ids { cancel(id: id) }
    }
    return tasks.withLock { tasks in
      let token = tasks.nextToken
      tasks.nextToken += 1
      // Created under the lock, so the task's own removal (which takes the lock) comes after this insert.
      let task = Task(priority: priority) { [weak self] in
        await operation()
        self?.remove(token)
      }
      tasks.entries[token] = Entry(task: task, ids: ids)
      return task
    }
  }

  private func remove(_ token: UInt64) {
    _ = tasks.withLock { $0.entries.removeValue(forKey: token) }
  }

  /// Cancels the tasks marked with `id`. Cancellation handlers run outside the lock.
  func cancel(id: EffectID) {
    let cancelled: [Task<Void, Never>] = tasks.withLock { tasks in
      let tokens = tasks.entries.filter { $0.value.ids.contains(id) }.map(\.key)
      return tokens.compactMap { tasks.entries.removeValue(forKey: $0)?.task }
    }
    for task in cancelled { task.cancel() }
  }

  /// Cancels every task.
  func cancelAll() {
    let cancelled: [Task<Void, Never>] = tasks.withLock { tasks in
      defer { tasks.entries.removeAll() }
      return tasks.entries.values.map(\.task)
    }
    for task in cancelled { task.cancel() }
  }

  /// The number of effect tasks still running.
  var count: Int { tasks.withLock { $0.entries.count } }

  /// Waits until no effect task is running, including ones started while waiting.
  func waitUntilIdle() async {
    while true {
      let running = tasks.withLock { $0.entries.values.map(\.task) }
      if running.isEmpty { return }
      for task in running { await task.value }
    }
  }
}
