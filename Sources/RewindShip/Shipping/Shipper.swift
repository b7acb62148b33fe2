import Foundation
import Rewind
import RewindLog

/// Ships a log directory to a NATS JetStream stream, exactly once and in order, in the background or
/// until caught up.
///
/// ```swift
/// let shipper = try Shipper(directory: path, configuration: ShipConfiguration(
///   servers: [try NATSServerAddress(parsing: "nats://127.0.0.1:4222")], stream: "DEVICE_42"))
/// shipper.start()
/// for await progress in shipper.progressUpdates() { print(progress.shippedThrough) }
/// ```
///
/// The stream is the only record of how far shipping got: on start and after every error the shipper
/// reads the stream's last message, checks that the log holds the same event there (the same record and
/// chain values), and continues after it; a history that diverged stops it (``ShipError/diverged(sequence:streamSequence:reason:)``).
/// Transient failures (the server unreachable, no stream leader, a lost acknowledgement) are retried
/// with ``ShipConfiguration/backoff``; ``pause()`` stops sending while the app knows it is offline.
public final class Shipper: Sendable {
  /// The log directory.
  public let directory: String
  /// Where and how it ships.
  public let configuration: ShipConfiguration
  let control = ShipControl()
  private let thread = Locked<ShipperThread?>(nil)

  /// A shipper for the log in `directory`.
  /// - Throws: ``ShipError/invalidConfiguration(_:)`` for an unusable configuration.
  public init(directory: String, configuration: ShipConfiguration) throws(ShipError) {
    if let problem = configuration.problem { throw .invalidConfiguration(problem) }
    self.directory = directory
    self.configuration = configuration
  }

  /// The latest progress.
  public var progress: ShipProgress { control.progress }

  /// Progress as it changes (the newest value is kept for a slow reader); ends when the shipper stops.
  public func progressUpdates() -> AsyncStream<ShipProgress> { control.updates() }

  /// Starts shipping on a thread of its own, until ``stop()`` or a fatal error (see
  /// ``ShipProgress/lastError``). A shipper runs once: calling it again does nothing; after ``stop()``,
  /// make a new shipper (it reads the stream to learn where to go on).
  public func start() {
    let started = thread.withLock { current -> Bool in
      guard current == nil else { return false }
      current = ShipperThread()
      return true
    }
    guard started else { return }
    let work = ShipperWork(shipper: self)
    let runner = Thread { work.run() }
    runner.name = "Rewind shipper"
    runner.start()
  }

  /// Ships everything in the log on the calling thread and returns once the stream acknowledged it.
  /// - Parameter maximumAttempts: failed attempts in a row before giving up (`nil`: retry forever).
  /// - Throws: ``ShipError``: a fatal one at once, a transient one after `maximumAttempts`.
  @discardableResult
  public func shipUntilCaughtUp(maximumAttempts: Int? = 10) throws(ShipError) -> ShipProgress {
    var session = try ShipSession(directory: directory, configuration: configuration, control: control)
    if let error = session.run(.untilCaughtUp(maximumAttempts: maximumAttempts)) { throw error }
    return control.progress
  }

  /// Stops shipping and waits for the thread to end. Events in flight are not counted as shipped; the
  /// next start reads the stream to learn which of them arrived.
  public func stop() {
    control.requestStop()
    let running = thread.withLock { $0 }
    running?.finished.wait()
    running?.finished.signal()
    control.finishUpdates()
  }

  /// Stops sending (the app is offline, or wants the network for something else); in-flight events are
  /// given up and re-read from the stream on ``resume()``.
  public func pause() { control.setPaused(true) }

  /// Resumes after ``pause()``.
  public func resume() { control.setPaused(false) }

  /// Tells a caught-up shipper that new events may be in the log, so it looks at once.
  public func wake() { control.wake() }

  /// Waits until every event through `sequence` is acknowledged, shipping stops, or `timeout` passes.
  /// - Returns: whether the events are acknowledged.
  public func waitUntilShipped(through sequence: UInt64, timeout: Duration) -> Bool {
    control.waitForProgress(timeout: timeout) { $0.shippedThrough >= sequence || $0.state == .stopped }
      .shippedThrough >= sequence
  }

  /// Whether the background thread runs.
  var isRunning: Bool { thread.withLock { $0 != nil } && control.progress.state != .stopped }

  fileprivate func finished() { thread.withLock { $0 }?.finished.signal() }
}

/// The running thread's completion signal.
private final class ShipperThread: Sendable {
  let finished = DispatchSemaphore(value: 0)
}

/// What the shipping thread runs.
private struct ShipperWork: Sendable {
  let shipper: Shipper

  func run() {
    defer { shipper.finished() }
    do {
      var session = try ShipSession(
        directory: shipper.directory, configuration: shipper.configuration, control: shipper.control)
      _ = session.run(.follow)
    } catch {
      shipper.control.update {
        $0.state = .stopped
        $0.lastError = error
      }
    }
  }
}
