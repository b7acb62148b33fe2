import Foundation

/// What a session's writer thread has to send, behind one condition: replies to commands, the newest event
/// to stream up to, and whether to close. The reader thread adds to it; the writer waits on it.
///
/// Lock order: this lock may be taken while holding nothing, or before the inspector's view lock; never
/// while holding the view lock.
final class SessionOutbox: @unchecked Sendable {
  // @unchecked: `state` is only touched while `condition` is locked.
  struct Contents {
    var replies: [InspectorJSON] = []
    /// The newest event the store published, as the writer last read it.
    var newest: UInt64 = 0
    /// The `bye` to send last, with its code and reason.
    var closing: (code: String, reason: String)?
    /// Set once the connection is over: nothing more is sent.
    var isFinished = false
  }

  let condition = NSCondition()
  private var contents = Contents()

  /// Runs `body` on the contents under the lock, then wakes the writer.
  func update<Result>(_ body: (inout Contents) -> Result) -> Result {
    condition.lock()
    defer {
      condition.broadcast()
      condition.unlock()
    }
    return body(&contents)
  }

  /// Queues a reply.
  func reply(_ message: InspectorJSON) { update { $0.replies.append(message) } }

  /// Asks the writer to send `bye` after what is queued, then close; the first reason wins.
  func close(code: String, reason: String) {
    update { contents in
      if contents.closing == nil { contents.closing = (code, reason) }
    }
  }

  /// Ends the connection's sending at once.
  func finish() { update { $0.isFinished = true } }

  /// Waits until the reader may read the next command: fewer than `limit` replies queued, or finished.
  func waitForRoom(limit: Int) {
    condition.lock()
    while contents.replies.count >= limit && !contents.isFinished { condition.wait() }
    condition.unlock()
  }

  /// Waits until `ready` finds work (or `timeout` seconds pass, when given), and returns it.
  func next<Work>(timeout: Double?, _ ready: (inout Contents) -> Work?) -> Work? {
    condition.lock()
    defer { condition.unlock() }
    let deadline = timeout.map { Date(timeIntervalSinceNow: $0) }
    while true {
      if let work = ready(&contents) {
        condition.broadcast()
        return work
      }
      if let deadline {
        if !condition.wait(until: deadline) { return ready(&contents) }
      } else {
        condition.wait()
      }
    }
  }
}
