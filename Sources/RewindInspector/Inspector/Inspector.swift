import Foundation
import Rewind
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// A store's inspector: serves the store to one tool at a time over loopback (Docs/Inspector.md).
///
/// Made by `store.inspect(_:dispatch:)`. It listens on `127.0.0.1` only, requires the per-run token
/// in its token file on every connection, and accepts the protocol's closed set of commands. It runs on its
/// own threads: the store's sends never wait for it, and while no tool is attached it costs them one relaxed
/// load.
public final class Inspector<State: Sendable, Action: Sendable>: Sendable {
  let store: Store<State, Action>
  let inspection: StoreInspection<State, Action>
  let options: InspectorOptions
  let dispatch: InspectorDispatch<Action>
  let token: InspectorToken
  let listener: Listener
  /// The port it listens on.
  public let port: UInt16
  /// Where the token file is.
  public let tokenFilePath: String
  /// The mode, the skipped events and their flags.
  let view = Locked(InspectorView())
  /// The attached session, if any: at most one.
  let attached = Locked<InspectorSession<State, Action>?>(nil)
  /// Connections accepted whose hello is not read yet: at most ``handshakeLimit``, a new one displacing the
  /// oldest, so that silent peers can neither pile up threads nor hold a real tool off.
  let handshakes = ConnectionSlots(limit: handshakeLimit)
  /// Why recent connections were closed, newest last, and how many were closed in all.
  let closings = Locked<(recent: [String], total: Int)>(([], 0))
  let isStopped = Atomic<Bool>(false)

  /// The most handshakes in progress at once; a further connection displaces the oldest.
  static var handshakeLimit: Int { 8 }

  init(store: Store<State, Action>, options: InspectorOptions, dispatch: InspectorDispatch<Action>) throws {
    self.store = store
    self.inspection = store.inspection
    self.options = options
    self.dispatch = dispatch
    token = InspectorToken.random()
    listener = try Listener(port: options.port)
    port = listener.port
    tokenFilePath = options.tokenFile ?? TokenFile.defaultPath()
    try TokenFile(port: port, token: token, processID: getpid()).write(to: tokenFilePath)
    inspection.held.limit = options.queueLimit
    inspection.held.onOverflow { [weak self] in self?.heldSendsOverflowed() }
    Thread.detachNewThread { [self] in acceptLoop() }
    options.announce("inspector on 127.0.0.1:\(port), token in \(tokenFilePath)")
  }

  /// Stops listening, closes the attached tool's connection, returns the app to live and deletes the token
  /// file. Idempotent.
  public func stop() {
    guard !isStopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
    listener.close()
    attached.withLock { $0 }?.close(code: "shutdown", reason: "the inspector stopped")
    returnToLive(reason: nil)
    inspection.held.onOverflow(nil)
    unlink(tokenFilePath)
  }

  /// What the app shows now.
  public var mode: InspectorMode { view.withLock { $0.mode } }

  /// Whether a tool is attached.
  public var isAttached: Bool { attached.withLock { $0 != nil } }

  /// The events skipped in what the app shows.
  public var skipped: Set<UInt64> { view.withLock { $0.skipped } }

  /// Records why a connection was closed (kept for the last 256).
  func noteClosed(_ reason: String) {
    closings.withLock { closings in
      closings.total += 1
      closings.recent.append(reason)
      if closings.recent.count > 256 { closings.recent.removeFirst() }
    }
  }

  /// Shows the live state and applies the held sends, unless already live.
  func returnToLive(reason: String?) {
    let wasLive = view.withLock { $0.mode == .live }
    if !wasLive || inspection.isHoldingSends { inspection.releaseHeldSends() }
    view.withLock { $0.set(.live, reason: reason) }
    attached.withLock { $0 }?.outbox.update { _ in }
  }

  /// The store returned to live by itself: its held sends filled the queue.
  func heldSendsOverflowed() {
    view.withLock { $0.set(.live, reason: "queue-full") }
    attached.withLock { $0 }?.outbox.update { _ in }
  }

  /// The status message for the current view.
  func status() -> InspectorJSON {
    let current = view.withLock { $0 }
    return .object([
      ("type", .string("status")), ("mode", .string(current.mode.name)),
      ("shown", current.mode.shown.map(InspectorJSON.unsigned) ?? .unsigned(inspection.newest)),
      ("newest", .unsigned(inspection.newest)), ("queued", .integer(Int64(inspection.held.count))),
      ("skipped", .array(current.skipped.sorted().map(InspectorJSON.unsigned))),
      ("changed", .array(current.changed.map(InspectorJSON.unsigned))),
      ("reason", current.reason.map(InspectorJSON.string) ?? .null),
    ])
  }
}

extension Store {
  /// Starts an inspector for this store, so that a tool (`rewind attach`) can watch and steer it over
  /// loopback; see Docs/Inspector.md. Call it in debug builds only:
  ///
  /// ```swift
  /// #if DEBUG
  ///   try store.inspect()
  /// #endif
  /// ```
  ///
  /// - Parameters:
  ///   - options: the port, the token file's path, the queue limit, the actor of the tool's sends.
  ///   - dispatch: which action types a tool may dispatch; by default none.
  /// - Returns: the running inspector; ``Inspector/stop()`` ends it.
  /// - Throws: ``SocketError`` when it cannot listen, ``TokenFileError`` when the token file cannot be
  ///   created.
  @discardableResult
  public func inspect(
    _ options: InspectorOptions = InspectorOptions(), dispatch: InspectorDispatch<Action> = .none
  )
    throws -> Inspector<State, Action>
  {
    try Inspector(store: self, options: options, dispatch: dispatch)
  }
}

extension Store where Action: Decodable {
  /// Starts an inspector that lets a tool dispatch the action types in `types` (full action paths or
  /// their prefixes), decoded from JSON by the action's `Decodable` conformance.
  @discardableResult
  public func inspect(_ options: InspectorOptions = InspectorOptions(), allowing types: [String]) throws
    -> Inspector<State, Action>
  {
    try Inspector(store: self, options: options, dispatch: .allowing(types))
  }
}
