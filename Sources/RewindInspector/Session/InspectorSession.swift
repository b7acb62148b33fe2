import Foundation
import Rewind
import Synchronization

/// One attached tool's connection: a reader thread that runs its commands, and a writer thread that sends
/// replies, status and the live stream of events.
///
/// The writer reads the store's newest sequence number every ``pollInterval`` (an atomic load the sender
/// never waits for) and produces the next batch of events only when the previous one was written, reading
/// them from the journal: the app never buffers for a slow tool. A tool more than ``maxLag`` events behind is
/// sent a `gap` and the stream resumes at the newest event.
///
/// Not woken by the store's subscriber wake-up, on purpose: a wake-up hands the subscriber a snapshot that
/// shares the live state's storage (so the next send copies what it changes) and wakes a thread from the
/// sending one; at 100,000 rows that made a send cost 1.6-1.7x its CPU time, where reading the sequence
/// number every 2 ms costs it nothing (Docs/Performance.md, `inspect`).
final class InspectorSession<State: Sendable, Action: Sendable>: @unchecked Sendable {
  // @unchecked: `stream` is only touched by the writer thread; everything else is immutable or locked.
  let inspector: Inspector<State, Action>
  let socket: Socket
  let peer: String
  let outbox = SessionOutbox()
  /// Set by whichever thread ends the connection first.
  let isOver = Atomic<Bool>(false)
  private var stream: EventStream<State, Action>

  /// Events further behind than this are skipped with a `gap` (and fetched by the tool with `events`).
  static var maxLag: UInt64 { 2_000 }
  /// The most events, and bytes of JSON, per `events` frame.
  static var batchLimit: Int { 256 }
  static var batchBytes: Int { 1 << 20 }
  /// The most replies queued before the reader stops reading commands.
  static var replyLimit: Int { 8 }
  /// How often, in seconds, the writer reads the store's newest sequence number: 500 idle wake-ups a second
  /// of the inspector's thread while a tool is attached, and at most 2 ms added to an event's latency.
  static var pollInterval: Double { 0.002 }
  /// How long a write may wait for the tool to read, in milliseconds.
  static var writeTimeout: Int32 { 30_000 }

  init(inspector: Inspector<State, Action>, socket: Socket, peer: String, from: UInt64) {
    self.inspector = inspector
    self.socket = socket
    self.peer = peer
    stream = EventStream(
      inspection: inspector.inspection, cursor: from > 0 ? from - 1 : 0,
      firstReachable: inspector.inspection.firstReachable)
  }

  /// Sends the welcome and runs the connection until it ends; returns then.
  func run(version: UInt64) {
    let newest = inspector.inspection.newest
    outbox.noteNewestSequence(newest)
    let welcome = InspectorJSON.object([
      ("type", .string("welcome")), ("version", .unsigned(version)),
      ("state", .string(String(describing: State.self))),
      ("action", .string(String(describing: Action.self))),
      ("first", .unsigned(inspector.inspection.firstReachable + 1)), ("newest", .unsigned(newest)),
      (
        "dispatch",
        .object([
          ("enabled", .bool(inspector.dispatch.decode != nil)),
          ("allowed", .array(inspector.dispatch.allowed.map(InspectorJSON.string))),
          ("codec", .string("json")),
        ])
      ),
      ("queueLimit", .integer(Int64(inspector.options.queueLimit))),
      (
        "limits",
        .object([
          ("clientFrame", .integer(Int64(Frame.clientLimit))), ("appFrame", .integer(Int64(Frame.appLimit))),
        ])
      ),
      ("status", inspector.status()),
    ])
    do {
      try socket.writeFrame(welcome, timeout: Self.writeTimeout)
    } catch {
      end("the welcome could not be sent: \(error)")
      return
    }
    Thread.detachNewThread { [self] in writeLoop() }
    readLoop()
  }

  /// Asks the writer to send `bye` and close.
  func close(code: String, reason: String) { outbox.close(code: code, reason: reason) }

  // MARK: Reading

  func readLoop() {
    while !isOver.load(ordering: .acquiring) {
      let message: InspectorJSON
      do {
        message = try socket.readFrame(limit: Frame.clientLimit)
      } catch .closed {
        end("the tool closed the connection")
        return
      } catch {
        close(code: "protocol", reason: "\(error)")
        return
      }
      let request: InspectorRequest
      do {
        request = try InspectorRequest(message)
      } catch {
        close(code: "protocol", reason: error.reason)
        return
      }
      if request.command == .bye {
        close(code: "bye", reason: "the tool said goodbye")
        return
      }
      let reply = inspector.perform(request.command)
      var fields: [(String, InspectorJSON)] = [("type", .string("reply")), ("id", .unsigned(request.id))]
      switch reply {
      case .success(let results): fields += [("ok", .bool(true))] + results
      case .failure(let error):
        fields += [("ok", .bool(false)), ("error", .string(error.code)), ("reason", .string(error.reason))]
      }
      outbox.reply(.object(fields))
      outbox.waitForRoom(limit: Self.replyLimit)
    }
  }

  // MARK: Writing

  /// What the writer does next.
  enum Work {
    case reply(InspectorJSON)
    case status
    case events(newest: UInt64)
    case bye(code: String, reason: String)
    case stop
  }

  func writeLoop() {
    var sentVersion = inspector.view.withLock { $0.version }
    var sentQueued = 0
    // A change in the number of held sends alone is reported at most twenty times a second.
    var queuedReportedAt = Date.distantPast
    while true {
      let work = outbox.next(timeout: Self.pollInterval) { contents -> Work? in
        if contents.isFinished { return .stop }
        contents.newest = max(contents.newest, inspector.inspection.newest)
        if !contents.replies.isEmpty { return .reply(contents.replies.removeFirst()) }
        if let closing = contents.closing { return .bye(code: closing.code, reason: closing.reason) }
        let version = inspector.view.withLock { $0.version }
        if version != sentVersion { return .status }
        if inspector.inspection.isHoldingSends, inspector.inspection.held.count != sentQueued,
          queuedReportedAt.timeIntervalSinceNow < -0.05
        {
          return .status
        }
        if stream.cursor < contents.newest { return .events(newest: contents.newest) }
        return nil
      }
      do {
        switch work {
        case .reply(let message)?:
          try socket.writeFrame(message, timeout: Self.writeTimeout)
        case .status?:
          sentVersion = inspector.view.withLock { $0.version }
          sentQueued = inspector.inspection.held.count
          queuedReportedAt = Date()
          try socket.writeFrame(inspector.status(), timeout: Self.writeTimeout)
        case .events(let newest)?:
          for frame in stream.advance(to: newest, maxLag: Self.maxLag) {
            try socket.write(frame, timeout: Self.writeTimeout)
          }
        case .bye(let code, let reason)?:
          try? socket.writeFrame(Inspector<State, Action>.bye(code: code, reason: reason), timeout: 1_000)
          end("closed (\(code)): \(reason)")
          return
        case .stop?:
          return
        case nil:
          continue
        }
      } catch {
        end("the connection failed: \(error)")
        return
      }
    }
  }

  /// Ends the connection once: stops both threads and detaches from the inspector.
  func end(_ reason: String) {
    guard !isOver.exchange(true, ordering: .acquiringAndReleasing) else { return }
    outbox.finish()
    socket.shutdown()
    inspector.detach(self, reason: reason)
  }
}

extension SessionOutbox {
  /// Notes the newest sequence number (at the welcome).
  func noteNewestSequence(_ sequence: UInt64) {
    update { contents in contents.newest = max(contents.newest, sequence) }
  }
}
