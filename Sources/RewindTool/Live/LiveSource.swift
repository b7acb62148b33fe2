import Foundation
import Rewind
import RewindInspector
import RewindLog
import Synchronization

/// Where a live timeline's events come from.
protocol LiveSource: Sendable {
  /// Carries out a command from the page; a read-only source refuses.
  func perform(_ command: InspectorCommand) throws -> InspectorJSON
  /// Stops delivering.
  func stop()
}

/// An app's inspector: events, gaps and status as it sends them; gaps fetched in the background.
final class InspectorSource: LiveSource, Sendable {
  let timeline: LiveTimeline
  /// Set once connected; read by the gap filler, which the connection's first messages may start.
  private let connected = Locked<InspectorConnection?>(nil)
  private let filling = Atomic<Bool>(false)

  /// The connection to the app, once made.
  var connection: InspectorConnection? { connected.withLock { $0 } }

  init(timeline: LiveTimeline) { self.timeline = timeline }

  /// Connects to the inspector on `port` with `token`.
  func connect(port: UInt16, token: InspectorToken) throws -> InspectorJSON {
    let timeline = timeline
    let connection = try InspectorConnection(
      port: port, token: token,
      onMessage: { [weak self] message in self?.receive(message) },
      onClose: { reason in timeline.end(reason) })
    connected.withLock { $0 = connection }
    timeline.setStatus(connection.welcome["status"] ?? .null)
    // A gap that arrived before the connection was kept is fetched now.
    if timeline.firstMissing != nil { startFilling() }
    return connection.welcome
  }

  func receive(_ message: InspectorJSON) {
    switch message["type"]?.stringValue {
    case "events": timeline.append(message["events"]?.arrayValue ?? [])
    case "gap":
      if let from = message["from"]?.unsignedValue, let to = message["to"]?.unsignedValue, from <= to {
        timeline.gap(from...to)
        startFilling()
      }
    case "status": timeline.setStatus(message)
    default: break
    }
  }

  /// Fetches the missing ranges with `events`, a page at a time, on a thread of its own.
  func startFilling() {
    guard !filling.exchange(true, ordering: .acquiringAndReleasing) else { return }
    Thread.detachNewThread { [self] in
      while let range = timeline.firstMissing, let connection {
        guard
          let reply = try? connection.perform(
            .events(from: range.lowerBound, to: range.upperBound, changes: true)),
          let events = reply["events"]?.arrayValue, !events.isEmpty
        else { break }
        timeline.fill(events)
      }
      filling.store(false, ordering: .releasing)
      if timeline.firstMissing != nil, connection != nil, timeline.withContents({ $0.ended == nil }) {
        startFilling()
      }
    }
  }

  func perform(_ command: InspectorCommand) throws -> InspectorJSON {
    guard let connection else { throw InspectorConnectionError.closed("not connected") }
    return try connection.perform(command)
  }

  func stop() { connection?.close() }
}

/// A log directory that a running app writes: read-only; the log is the protocol.
final class LogFollowSource: LiveSource, @unchecked Sendable {
  // @unchecked: `known` is only touched by the polling thread.
  let timeline: LiveTimeline
  let directory: String
  let key: ChainKey?
  private var known: UInt64 = 0
  private let isStopped = Atomic<Bool>(false)

  /// How often the log is read again, in seconds.
  static var pollInterval: Double { 0.1 }

  init(timeline: LiveTimeline, directory: String, key: ChainKey?) {
    self.timeline = timeline
    self.directory = directory
    self.key = key
  }

  /// Reads what is there, then polls for more on a thread of its own.
  func start() throws {
    try poll()
    Thread.detachNewThread { [self] in
      while !isStopped.load(ordering: .acquiring) {
        Thread.sleep(forTimeInterval: Self.pollInterval)
        do { try poll() } catch {
          // A frame half-written as it is read: the next poll reads it whole.
        }
      }
    }
  }

  func poll() throws {
    let reader = try LogReader(directory: directory, key: key)
    let last = reader.summary.lastSequence
    guard last > known else { return }
    let first = max(known + 1, reader.summary.firstSequence, 1)
    var batch: [InspectorJSON] = []
    try reader.forEachEvent(from: first, through: last) { event, committed in
      batch.append(Self.json(EventView(event, committed: committed)))
      if batch.count == 512 {
        timeline.append(batch)
        batch.removeAll(keepingCapacity: true)
      }
    }
    timeline.append(batch)
    known = last
  }

  /// An event of the log in the protocol's form (without changes: the tool has no app types to replay).
  static func json(_ view: EventView) -> InspectorJSON {
    .object([
      ("seq", .unsigned(view.sequence)), ("kind", .string(view.kind)), ("type", .string(view.actionPath)),
      ("actor", view.actor.map(InspectorJSON.string) ?? .null),
      ("source", view.source.map(InspectorJSON.string) ?? .null),
      ("cause", view.cause.map(InspectorJSON.unsigned) ?? .null),
      ("correlation", view.correlationID.map(InspectorJSON.unsigned) ?? .null),
      ("time", .string(view.timestamp.map(EventView.format) ?? EventView.format(view.committed))),
      ("payload", InspectorJSON(view.body)), ("changes", .null),
    ])
  }

  func perform(_ command: InspectorCommand) throws -> InspectorJSON {
    .object([
      ("type", .string("reply")), ("ok", .bool(false)), ("error", .string("read-only")),
      (
        "reason",
        .string("following a log is read-only: jumps, skips, dispatch and undo need the app (rewind attach)")
      ),
    ])
  }

  func stop() { isStopped.store(true, ordering: .releasing) }
}

extension InspectorJSON {
  /// The tool's JSON value as the protocol's.
  init(_ value: JSONValue) {
    switch value {
    case .null: self = .null
    case .bool(let flag): self = .bool(flag)
    case .number(let text):
      if let integer = Int64(text) { self = .integer(integer) } else { self = .double(Double(text) ?? 0) }
    case .string(let text): self = .string(text)
    case .array(let values): self = .array(values.map(InspectorJSON.init))
    case .object(let fields): self = .object(fields.map { ($0.0, InspectorJSON($0.1)) })
    }
  }
}
