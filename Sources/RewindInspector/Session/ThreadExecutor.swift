import Foundation

/// A task executor that runs its jobs on one thread of its own.
///
/// The session's wake-up task waits on the store's subscriber wake-up (an async call); running it here
/// rather than on the shared cooperative pool means the inspector keeps streaming when an app (or a test)
/// blocks the pool's few threads.
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
  // @unchecked: `jobs` and `isStopping` are only touched while `condition` is locked.
  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var isStopping = false

  /// Starts the thread.
  init(name: String) {
    let thread = Thread { [self] in run() }
    thread.name = name
    thread.start()
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let unowned = UnownedJob(job)
    condition.lock()
    jobs.append(unowned)
    condition.signal()
    condition.unlock()
  }

  /// Ends the thread once no job is left.
  func stop() {
    condition.lock()
    isStopping = true
    condition.signal()
    condition.unlock()
  }

  private func run() {
    while true {
      condition.lock()
      while jobs.isEmpty && !isStopping { condition.wait() }
      if jobs.isEmpty {
        condition.unlock()
        return
      }
      let job = jobs.removeFirst()
      condition.unlock()
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}
