import Foundation
import Rewind
import Synchronization

/// A tool's connection to an app's inspector: the hello, a thread reading what the app sends, and commands
/// that wait for their replies.
///
/// ```swift
/// let file = try TokenFile.read(from: path)
/// let connection = try InspectorConnection(port: file.port, token: file.token) { message in ... }
/// let reply = try connection.perform(.jump(to: 1200))
/// ```
public final class InspectorConnection: Sendable {
  /// The app's welcome.
  public let welcome: InspectorJSON
  let socket: Socket
  let onMessage: @Sendable (InspectorJSON) -> Void
  let onClose: @Sendable (String) -> Void
  let pending = Locked<Pending>(Pending())
  let condition = NSCondition()
  let isClosed = Atomic<Bool>(false)

  struct Pending: @unchecked Sendable {
    var nextID: UInt64 = 1
    var replies: [UInt64: InspectorJSON] = [:]
    var closedReason: String?
  }

  /// How long ``perform(_:)`` waits for a reply, in seconds.
  public static var replyTimeout: Double { 60 }

  /// Connects to `127.0.0.1:port`, sends the hello with `token` and reads the welcome; then a thread hands
  /// every other message (events, gaps, status, bye) to `onMessage`, and `onClose` is told once when the
  /// connection ends.
  /// - Throws: ``InspectorConnectionError`` when the app refuses (with its reason) or cannot be reached.
  public init(
    port: UInt16, token: InspectorToken, from: UInt64 = 1, client: String = "rewind attach",
    onMessage: @escaping @Sendable (InspectorJSON) -> Void, onClose: @escaping @Sendable (String) -> Void
  ) throws {
    do {
      socket = try Socket.connect(loopbackPort: port)
    } catch {
      throw InspectorConnectionError.unreachable("\(error)")
    }
    do {
      try socket.writeFrame(
        Hello(token: token.hexadecimal, from: from, client: client).message, timeout: 10_000)
    } catch {
      throw InspectorConnectionError.unreachable("\(error)")
    }
    let first: InspectorJSON
    do {
      first = try socket.readFrame(limit: Frame.appLimit, idleTimeout: 10_000, timeout: 10_000)
    } catch .closed {
      throw InspectorConnectionError.refused(
        code: "closed", reason: "the app closed the connection without a reason")
    } catch {
      throw InspectorConnectionError.protocolError("\(error)")
    }
    if first["type"]?.stringValue == "bye" {
      throw InspectorConnectionError.refused(
        code: first["code"]?.stringValue ?? "?", reason: first["reason"]?.stringValue ?? "")
    }
    guard first["type"]?.stringValue == "welcome" else {
      throw InspectorConnectionError.protocolError("the app did not answer the hello with a welcome")
    }
    welcome = first
    self.onMessage = onMessage
    self.onClose = onClose
    Thread.detachNewThread { [self] in readLoop() }
  }

  /// Sends `command` and waits for its reply.
  /// - Throws: ``InspectorConnectionError`` when the connection ends first or no reply comes in time.
  @discardableResult
  public func perform(_ command: InspectorCommand) throws -> InspectorJSON {
    let id = pending.withLock { pending -> UInt64 in
      defer { pending.nextID += 1 }
      return pending.nextID
    }
    do {
      try socket.writeFrame(command.message(id: id), timeout: 10_000)
    } catch {
      throw InspectorConnectionError.closed("\(error)")
    }
    let deadline = Date(timeIntervalSinceNow: Self.replyTimeout)
    condition.lock()
    defer { condition.unlock() }
    while true {
      let (reply, closed) = pending.withLock { ($0.replies.removeValue(forKey: id), $0.closedReason) }
      if let reply { return reply }
      if let closed { throw InspectorConnectionError.closed(closed) }
      guard condition.wait(until: deadline) else {
        throw InspectorConnectionError.protocolError(
          "no reply to \(command.name) within \(Int(Self.replyTimeout)) s")
      }
    }
  }

  /// Says goodbye and closes.
  public func close() {
    try? socket.writeFrame(InspectorCommand.bye.message(id: 0), timeout: 1_000)
    socket.shutdown()
  }

  func readLoop() {
    var reason = "the app closed the connection"
    while true {
      let message: InspectorJSON
      do {
        message = try socket.readFrame(limit: Frame.appLimit)
      } catch .closed {
        break
      } catch {
        reason = "\(error)"
        break
      }
      if message["type"]?.stringValue == "reply", let id = message["id"]?.unsignedValue {
        pending.withLock { _ = $0.replies.updateValue(message, forKey: id) }
        condition.lock()
        condition.broadcast()
        condition.unlock()
        continue
      }
      if message["type"]?.stringValue == "bye" {
        reason = "the app closed the connection: \(message["reason"]?.stringValue ?? "no reason")"
      }
      onMessage(message)
    }
    pending.withLock { $0.closedReason = reason }
    condition.lock()
    condition.broadcast()
    condition.unlock()
    socket.shutdown()
    if !isClosed.exchange(true, ordering: .acquiringAndReleasing) { onClose(reason) }
  }
}

/// Why a tool's connection to an inspector failed.
public enum InspectorConnectionError: Error, Equatable, CustomStringConvertible {
  /// Nothing listens there.
  case unreachable(String)
  /// The app refused the connection: `token`, `busy`, `version`, ...
  case refused(code: String, reason: String)
  /// The app broke the protocol, or did not answer in time.
  case protocolError(String)
  /// The connection ended.
  case closed(String)

  public var description: String {
    switch self {
    case .unreachable(let detail): "cannot reach the inspector: \(detail)"
    case .refused(let code, let reason): "the app refused the connection (\(code)): \(reason)"
    case .protocolError(let detail): "protocol error: \(detail)"
    case .closed(let reason): "the connection ended: \(reason)"
    }
  }
}
