import Foundation

/// What the app asks of a running shipper and what it reports back, behind one lock: the shipping
/// thread waits here (for a wake, a resume, a stop, or the next attempt) and publishes its progress here.
final class ShipControl: @unchecked Sendable {
  // @unchecked: every stored property is read and written only while `condition` is locked.
  private let condition = NSCondition()
  private var stopRequested = false
  private var paused = false
  private var wakes = 0
  private var lameDuck = false
  private var current = ShipProgress()
  private var observers: [UUID: AsyncStream<ShipProgress>.Continuation] = [:]
  /// When the stream was first known to hold events: (shipped through, monotonic time), oldest first.
  private var shippedAt: [(sequence: UInt64, at: ContinuousClock.Instant)] = []

  private func locked<T>(_ body: () -> T) -> T {
    condition.lock()
    defer { condition.unlock() }
    return body()
  }

  /// Asks the shipping thread to stop.
  func requestStop() {
    locked {
      stopRequested = true
      condition.broadcast()
    }
  }

  /// Pauses or resumes shipping.
  func setPaused(_ value: Bool) {
    locked {
      paused = value
      condition.broadcast()
    }
  }

  /// New events may be in the log.
  func wake() {
    locked {
      wakes += 1
      condition.broadcast()
    }
  }

  /// The server the shipper is connected to is shutting down.
  func noteLameDuck() {
    locked {
      lameDuck = true
      condition.broadcast()
    }
  }

  /// Whether a lame-duck notice arrived, clearing it.
  func takeLameDuck() -> Bool {
    locked {
      defer { lameDuck = false }
      return lameDuck
    }
  }

  /// What the app asked for, in one look: stop, pause, and a lame-duck notice (cleared).
  func takeRequests() -> (stop: Bool, paused: Bool, lameDuck: Bool) {
    locked {
      defer { lameDuck = false }
      return (stopRequested, paused, lameDuck)
    }
  }

  var isStopRequested: Bool { locked { stopRequested } }
  var isPaused: Bool { locked { paused } }

  /// Waits up to `timeout` for a wake, a stop, a pause change or a lame-duck notice; returns at once when
  /// one came since the last call.
  func waitForWake(timeout: Duration) {
    locked {
      let deadline = Date().addingTimeInterval(timeout.seconds)
      while wakes == 0, !stopRequested, !lameDuck {
        if !condition.wait(until: deadline) { break }
      }
      wakes = 0
    }
  }

  /// Waits up to `timeout` unless stopped or resumed; returns whether to go on (not stopped).
  func sleep(_ timeout: Duration) -> Bool {
    locked {
      let deadline = Date().addingTimeInterval(timeout.seconds)
      while !stopRequested {
        if !condition.wait(until: deadline) { break }
      }
      return !stopRequested
    }
  }

  /// Waits while paused; returns whether to go on (not stopped).
  func waitWhilePaused() -> Bool {
    locked {
      while paused, !stopRequested { condition.wait() }
      return !stopRequested
    }
  }

  /// The latest progress.
  var progress: ShipProgress { locked { current } }

  /// Records that the stream holds every event through `sequence` (known now).
  func noteShipped(through sequence: UInt64) {
    locked { recordShipped(sequence) }
  }

  /// Records `sequence` as shipped now; the lock is held. Entries stay about a second apart (the newest
  /// one moves forward, sequence and time together, which only ever understates how long events were
  /// held), and those older than ten minutes are dropped but the newest of them.
  private func recordShipped(_ sequence: UInt64) {
    let now = ContinuousClock().now
    guard sequence > (shippedAt.last?.sequence ?? 0) else { return }
    if shippedAt.count >= 2, now - shippedAt[shippedAt.count - 2].at < .seconds(1) {
      shippedAt[shippedAt.count - 1] = (sequence, now)
    } else {
      shippedAt.append((sequence, now))
    }
    if let old = shippedAt.lastIndex(where: { now - $0.at > .seconds(600) }), old > 0 {
      shippedAt.removeFirst(old)
    }
  }

  /// The newest event the stream has held for at least `interval`, by this process's clock (0: none).
  func shipped(heldFor interval: Duration) -> UInt64 {
    let now = ContinuousClock().now
    return locked { shippedAt.last { now - $0.at >= interval }?.sequence ?? 0 }
  }

  /// Changes the progress and tells the observers; `shippedThrough` also records when the stream was
  /// known to hold those events (``shipped(heldFor:)``).
  func update(shippedThrough: UInt64? = nil, _ change: (inout ShipProgress) -> Void) {
    let (value, continuations) = locked { () -> (ShipProgress, [AsyncStream<ShipProgress>.Continuation]) in
      if let shippedThrough { recordShipped(shippedThrough) }
      change(&current)
      condition.broadcast()
      return (current, observers.isEmpty ? [] : Array(observers.values))
    }
    for continuation in continuations { continuation.yield(value) }
  }

  /// Waits until `condition` holds for the progress, or `timeout`; returns the progress then.
  func waitForProgress(timeout: Duration, until predicate: (ShipProgress) -> Bool) -> ShipProgress {
    locked {
      let deadline = Date().addingTimeInterval(timeout.seconds)
      while !predicate(current) {
        if !condition.wait(until: deadline) { break }
      }
      return current
    }
  }

  /// A stream of progress values, the newest kept when the reader is slow.
  func updates() -> AsyncStream<ShipProgress> {
    let (stream, continuation) = AsyncStream<ShipProgress>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let id = UUID()
    let first = locked { () -> ShipProgress in
      observers[id] = continuation
      return current
    }
    continuation.yield(first)
    continuation.onTermination = { [weak self] _ in
      guard let self else { return }
      _ = self.locked { self.observers.removeValue(forKey: id) }
    }
    return stream
  }

  /// Ends every progress stream.
  func finishUpdates() {
    let continuations = locked { () -> [AsyncStream<ShipProgress>.Continuation] in
      defer { observers = [:] }
      return Array(observers.values)
    }
    for continuation in continuations { continuation.finish() }
  }
}

/// The acknowledgements (or failures) that arrive on the reader thread, for the shipping thread.
final class AcknowledgementQueue: @unchecked Sendable {
  // @unchecked: `items` is touched only while `condition` is locked.
  private let condition = NSCondition()
  private var items: [(sequence: UInt64, result: Result<NATSMessage, NATSError>)] = []

  func push(_ sequence: UInt64, _ result: Result<NATSMessage, NATSError>) {
    condition.lock()
    items.append((sequence, result))
    condition.signal()
    condition.unlock()
  }

  /// Everything that arrived, waiting up to `timeout` for the first.
  func take(timeout: Duration) -> [(sequence: UInt64, result: Result<NATSMessage, NATSError>)] {
    condition.lock()
    defer { condition.unlock() }
    let deadline = Date().addingTimeInterval(timeout.seconds)
    while items.isEmpty {
      if !condition.wait(until: deadline) { break }
    }
    defer { items.removeAll() }
    return items
  }

  func clear() {
    condition.lock()
    items.removeAll()
    condition.unlock()
  }
}

extension Duration {
  /// The duration in seconds.
  var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
