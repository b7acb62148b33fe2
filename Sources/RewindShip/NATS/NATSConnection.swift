import Dispatch
import Foundation
import Rewind

/// One connection to a NATS server: the handshake, a reader thread that answers `PING`s, delivers
/// messages and replies, and a writer that sends whole operations.
///
/// Handlers run on the reader thread: they must return quickly and must not wait for anything this
/// connection delivers. Every wait has a timeout, and a connection that fails ends every wait with the
/// failure.
package final class NATSConnection: Sendable {
  /// Something the owner of a connection is told about, on the reader thread.
  package enum Event: Sendable {
    /// The server sent a new `INFO` (cluster URLs may have changed).
    case info(NATSServerInfo)
    /// The server entered lame-duck mode: it will close this connection soon; move to another server.
    case lameDuck(NATSServerInfo)
    /// A reply arrived for an inbox nobody waits on (a late answer to a request that timed out, or a
    /// server's mistake); it was dropped.
    case unknownInbox(NATSError)
    /// A `-ERR` that does not close the connection (a permissions violation).
    case serverError(NATSError)
    /// The connection ended, with why.
    case closed(NATSError)
  }

  /// The server this connection goes to.
  package let server: NATSServerAddress
  /// The `INFO` the server sent when the connection was made.
  package let info: NATSServerInfo

  private let transport: any NATSTransport
  private let options: NATSConnectionOptions
  private let state: Locked<ConnectionState>
  private let writing = Locked<Void>(())
  private let readerDone = DispatchSemaphore(value: 0)
  private let onEvent: @Sendable (Event) -> Void
  /// The prefix of this connection's reply subjects: `_INBOX.<random>.`.
  private let inboxPrefix: String

  private init(
    server: NATSServerAddress, info: NATSServerInfo, transport: any NATSTransport,
    options: NATSConnectionOptions,
    parser: NATSProtocolParser, onEvent: @escaping @Sendable (Event) -> Void
  ) {
    self.server = server
    self.info = info
    self.transport = transport
    self.options = options
    self.onEvent = onEvent
    inboxPrefix = "_INBOX." + Self.randomToken() + "."
    state = Locked(ConnectionState(info: info, parser: parser))
  }

  /// Connects to `server`: reads `INFO`, sends `CONNECT` and a `PING`, and waits for the `PONG` that says
  /// the server accepted it.
  /// - Throws: ``NATSError``: the connect failed or timed out, the server broke the protocol, refused the
  ///   credentials (`-ERR 'Authorization Violation'`) or requires TLS this platform does not have.
  package static func connect(
    to server: NATSServerAddress, options: NATSConnectionOptions,
    onEvent: @escaping @Sendable (Event) -> Void = { _ in }
  ) throws(NATSError) -> NATSConnection {
    let timeout = options.connectTimeout.pollMilliseconds
    let transport: any NATSTransport
    #if canImport(Network)
      if server.requiresTLS {
        transport = try NetworkTransport.connect(host: server.host, port: server.port, timeout: timeout)
      } else {
        transport = try TCPTransport.connect(host: server.host, port: server.port, timeout: timeout)
      }
    #else
      guard !server.requiresTLS else { throw .tlsRequired(server: server.description) }
      transport = try TCPTransport.connect(host: server.host, port: server.port, timeout: timeout)
    #endif
    do throws(NATSError) {
      var handshake = Handshake(server: server, transport: transport, timeout: options.connectTimeout)
      let info = try handshake.readInfo()
      #if !canImport(Network)
        if info.tlsRequired { throw NATSError.tlsRequired(server: server.description) }
      #endif
      try transport.send(Self.connectCommand(options: options, info: info) + Array("PING\r\n".utf8))
      try handshake.waitForPong()
      let connection = NATSConnection(
        server: server, info: info, transport: transport, options: options, parser: handshake.parser,
        onEvent: onEvent)
      try connection.send(Array("SUB \(connection.inboxPrefix)* 1\r\n".utf8))
      connection.startReader()
      return connection
    } catch {
      transport.shutdown()
      transport.close()
      throw error
    }
  }

  /// The `CONNECT` line: headers and no-responders on (JetStream needs both), protocol 1 so the server
  /// sends `INFO` updates (lame-duck mode among them), and the credentials.
  private static func connectCommand(options: NATSConnectionOptions, info: NATSServerInfo) -> [UInt8] {
    var fields: [String: JSONText] = [
      "verbose": .bool(false), "pedantic": .bool(false), "tls_required": .bool(false),
      "name": .string(options.name), "lang": .string("swift"), "version": .string("rewind"),
      "protocol": .number(1), "headers": .bool(true), "no_responders": .bool(true),
    ]
    switch options.credentials {
    case .userPassword(let user, let password)?:
      fields["user"] = .string(user)
      fields["pass"] = .string(password)
    case .token(let token)?: fields["auth_token"] = .string(token)
    case nil: break
    }
    let body = fields.sorted { $0.key < $1.key }.map { "\(JSONText.quoted($0.key)):\($0.value.text)" }
    return Array(("CONNECT {" + body.joined(separator: ",") + "}\r\n").utf8)
  }

  // MARK: Sending

  /// The most bytes of headers and payload one message may have on this connection.
  package var maxPayload: Int { state.withLock { $0.info.maxPayload } }

  /// Publishes one message.
  /// - Throws: ``NATSError/payloadTooLarge(size:maxPayload:)`` before sending anything when it is over the
  ///   server's `max_payload`; the connection's failure otherwise.
  package func publish(_ message: NATSOutboundMessage) throws(NATSError) {
    try publish([message])
  }

  /// Publishes messages in order with one write.
  /// - Throws: ``NATSError/payloadTooLarge(size:maxPayload:)`` before sending anything when one of them is
  ///   over the server's `max_payload`, ``NATSError/invalidSubject(_:)`` when its subject or reply subject
  ///   cannot be sent; the connection's failure otherwise.
  package func publish(_ messages: [NATSOutboundMessage]) throws(NATSError) {
    let limit = maxPayload
    var bytes: [UInt8] = []
    bytes.reserveCapacity(messages.reduce(0) { $0 + $1.size + 128 })
    for message in messages {
      if let problem = NATSName.subjectProblem(message.subject)
        ?? message.reply.flatMap(NATSName.subjectProblem)
      {
        throw .invalidSubject(problem)
      }
      guard message.size <= limit else { throw .payloadTooLarge(size: message.size, maxPayload: limit) }
      message.encode(into: &bytes)
    }
    rememberRequestSubjects(messages)
    try send(bytes)
  }

  private func send(_ bytes: [UInt8]) throws(NATSError) {
    if let failure = state.withLock({ $0.failure }) { throw failure }
    do {
      try writing.withLock { (_: inout Void) throws(NATSError) in try transport.send(bytes) }
    } catch {
      fail(error)
      throw error
    }
  }

  // MARK: Replies

  /// Remembers which subject each awaited reply answers, so a permissions violation for publishing to that
  /// subject ends the wait at once (the server sends no reply, only the `-ERR`).
  private func rememberRequestSubjects(_ messages: [NATSOutboundMessage]) {
    let pairs = messages.compactMap { message in
      message.reply.flatMap(replyToken).map { ($0, message.subject) }
    }
    guard !pairs.isEmpty else { return }
    state.withLock { state in
      for (token, subject) in pairs where state.replies[token] != nil {
        state.requestSubjects[token] = subject
      }
    }
  }

  /// Ends every wait for a reply to a message published to `subject` with `error`.
  private func failRequests(to subject: String, with error: NATSError) {
    let handlers = state.withLock { state -> [@Sendable (Result<NATSMessage, NATSError>) -> Void] in
      let tokens = state.requestSubjects.filter { $0.value == subject }.map(\.key)
      return tokens.compactMap { token in
        state.requestSubjects.removeValue(forKey: token)
        return state.replies.removeValue(forKey: token)
      }
    }
    for handler in handlers { handler(.failure(error)) }
  }

  /// Ends the wait for the reply on `reply`, one of this connection's inboxes, with `error`.
  private func failRequest(replyingTo reply: String, with error: NATSError) {
    guard let token = replyToken(reply) else { return }
    let handler = state.withLock { state in
      state.requestSubjects.removeValue(forKey: token)
      return state.replies.removeValue(forKey: token)
    }
    handler?(.failure(error))
  }

  /// The subject a `-ERR 'Permissions Violation for Publish to "SUBJECT"'` names, if it is one.
  static func deniedPublishSubject(_ text: String) -> String? {
    subject(after: "permissions violation for publish to ", in: text)
  }

  /// The reply subject a `-ERR 'Permissions Violation for Publish with Reply of "INBOX"'` names (the
  /// client may not ask for replies there), if it is one.
  static func deniedReplySubject(_ text: String) -> String? {
    subject(after: "permissions violation for publish with reply of ", in: text)
  }

  /// The subject after `prefix` (lowercase) in a server's error text: quoted, or up to the next space.
  private static func subject(after prefix: String, in text: String) -> String? {
    guard text.lowercased().hasPrefix(prefix) else { return nil }
    var subject = text.dropFirst(prefix.count)
    // Servers quote it ("..."); some versions add the reply subject after it.
    if subject.first == "\"" {
      subject = subject.dropFirst()
      guard let end = subject.firstIndex(of: "\"") else { return nil }
      return String(subject[..<end])
    }
    return subject.split(separator: " ").first.map(String.init)
  }

  /// A reply subject on this connection's inbox; `handler` gets the reply (or the connection's failure)
  /// once, on the reader thread, unless ``cancelReply(_:)`` removed it first.
  package func makeReplySubject(_ handler: @escaping @Sendable (Result<NATSMessage, NATSError>) -> Void)
    -> String
  {
    let (token, failure) = state.withLock { state -> (UInt64, NATSError?) in
      state.nextToken += 1
      if state.failure == nil { state.replies[state.nextToken] = handler }
      return (state.nextToken, state.failure)
    }
    if let failure { handler(.failure(failure)) }
    return inboxPrefix + String(token)
  }

  /// Stops waiting for a reply on `subject`; a reply arriving later is an unknown inbox.
  package func cancelReply(_ subject: String) {
    guard let token = replyToken(subject) else { return }
    state.withLock {
      $0.replies.removeValue(forKey: token)
      $0.requestSubjects.removeValue(forKey: token)
    }
  }

  private func replyToken(_ subject: String) -> UInt64? {
    guard subject.hasPrefix(inboxPrefix) else { return nil }
    return UInt64(subject.dropFirst(inboxPrefix.count))
  }

  /// Publishes a request and waits for its reply.
  /// - Throws: ``NATSError/timeout(_:)``; ``NATSError/noResponders(subject:)`` when nobody listens (a
  ///   JetStream stream without a leader); the connection's failure.
  package func request(
    _ subject: String, headers: NATSHeaders? = nil, payload: [UInt8], timeout: Duration
  ) throws(NATSError) -> NATSMessage {
    let waiter = ReplyWaiter()
    let reply = makeReplySubject { waiter.resolve($0) }
    do {
      try publish(NATSOutboundMessage(subject: subject, reply: reply, headers: headers, payload: payload))
    } catch {
      cancelReply(reply)
      throw error
    }
    guard let result = waiter.wait(timeout: timeout) else {
      cancelReply(reply)
      throw .timeout("no reply on \(subject) within \(timeout)")
    }
    let message = try result.get()
    if message.status == 503 { throw .noResponders(subject: subject) }
    return message
  }

  /// Subscribes `handler` to `subject`; returns the subscription id.
  package func subscribe(_ subject: String, _ handler: @escaping @Sendable (NATSMessage) -> Void)
    throws(NATSError)
    -> UInt64
  {
    if let problem = NATSName.subjectProblem(subject) { throw .invalidSubject(problem) }
    let sid = state.withLock { state -> UInt64 in
      state.nextSID += 1
      state.subscriptions[state.nextSID] = handler
      return state.nextSID
    }
    try send(Array("SUB \(subject) \(sid)\r\n".utf8))
    return sid
  }

  /// Ends subscription `sid`.
  package func unsubscribe(_ sid: UInt64) throws(NATSError) {
    _ = state.withLock { $0.subscriptions.removeValue(forKey: sid) }
    try send(Array("UNSUB \(sid)\r\n".utf8))
  }

  /// Sends a `PING` and waits for its `PONG`: everything sent before has been processed by the server.
  /// - Throws: ``NATSError/timeout(_:)`` or the connection's failure.
  package func roundTrip(timeout: Duration) throws(NATSError) {
    let waiter = ReplyWaiter()
    let failure = state.withLock { state -> NATSError? in
      if state.failure == nil { state.pings.append(waiter) }
      return state.failure
    }
    if let failure { throw failure }
    try send(Array("PING\r\n".utf8))
    guard let result = waiter.wait(timeout: timeout) else { throw .timeout("no PONG within \(timeout)") }
    _ = try result.get()
  }

  /// The failure that ended the connection, if it has ended.
  package var failure: NATSError? { state.withLock { $0.failure } }

  /// Closes the connection: every wait ends with ``NATSError/closed``.
  package func close() {
    fail(.closed)
    transport.shutdown()
    if !Thread.current.isNATSReader {
      readerDone.wait()
      readerDone.signal()
    }
    transport.close()
  }

  // MARK: Reading

  private func startReader() {
    let thread = Thread { [self] in
      Thread.current.isNATSReader = true
      readLoop()
      readerDone.signal()
    }
    thread.name = "NATS reader \(server)"
    thread.start()
  }

  private func readLoop() {
    let ping = options.pingInterval
    let clock = ContinuousClock()
    var lastPing = clock.now
    while state.withLock({ $0.failure == nil }) {
      do {
        let bytes = try transport.receive(
          maximum: 64 << 10, timeout: min(ping, .milliseconds(250)).pollMilliseconds)
        if bytes.isEmpty {
          if clock.now - lastPing >= ping {
            lastPing = clock.now
            try keepAlive()
          }
          continue
        }
        let operations = try state.withLock { (state: inout ConnectionState) throws(NATSError) in
          state.parser.feed(bytes)
          var operations: [NATSServerOperation] = []
          do throws(NATSProtocolError) {
            while let operation = try state.parser.next() { operations.append(operation) }
          } catch {
            throw NATSError.protocolViolation(server: server.description, error)
          }
          return operations
        }
        for operation in operations { try handle(operation) }
      } catch {
        if case .connectionClosed(let server, _) = error, state.withLock({ $0.parser.isMidOperation }) {
          fail(.connectionClosed(server: server, midMessage: true))
        } else {
          fail(error)
        }
      }
    }
  }

  private func keepAlive() throws(NATSError) {
    let stale = state.withLock { state -> Bool in
      guard state.outstandingKeepAlives < options.maximumOutstandingPings else { return true }
      state.outstandingKeepAlives += 1
      state.pings.append(nil)
      return false
    }
    if stale { throw .timeout("stale connection: \(options.maximumOutstandingPings) PINGs without a PONG") }
    try send(Array("PING\r\n".utf8))
  }

  private func handle(_ operation: NATSServerOperation) throws(NATSError) {
    switch operation {
    case .ping: try send(Array("PONG\r\n".utf8))
    case .pong:
      let waiter = state.withLock { state -> ReplyWaiter? in
        guard !state.pings.isEmpty else { return nil }
        let first = state.pings.removeFirst()
        if first == nil { state.outstandingKeepAlives = 0 }
        return first ?? nil
      }
      waiter?.resolve(.success(NATSMessage(subject: "", sid: 0, payload: [])))
    case .ok: break
    case .info(let info):
      state.withLock {
        $0.info = info
        $0.parser.maximumMessage = info.maxPayload
      }
      onEvent(info.lameDuck ? .lameDuck(info) : .info(info))
    case .error(let text):
      let error = NATSError.serverError(server: server.description, message: text)
      if text.lowercased().hasPrefix("permissions violation") {
        if let subject = Self.deniedPublishSubject(text) {
          failRequests(to: subject, with: error)
        } else if let reply = Self.deniedReplySubject(text) {
          failRequest(replyingTo: reply, with: error)
        }
        onEvent(.serverError(error))
      } else {
        throw error
      }
    case .message(let message):
      if message.sid == 1 {
        let handler = replyToken(message.subject).flatMap { token in
          state.withLock {
            $0.requestSubjects.removeValue(forKey: token)
            return $0.replies.removeValue(forKey: token)
          }
        }
        if let handler {
          handler(.success(message))
        } else {
          onEvent(.unknownInbox(.unknownInbox(subject: message.subject)))
        }
      } else if let handler = state.withLock({ $0.subscriptions[message.sid] }) {
        handler(message)
      }
    }
  }

  /// Ends the connection with `error` (the first failure wins) and every wait with it.
  private func fail(_ error: NATSError) {
    let (replies, pings, first) = state.withLock {
      state -> ([@Sendable (Result<NATSMessage, NATSError>) -> Void], [ReplyWaiter?], Bool) in
      guard state.failure == nil else { return ([], [], false) }
      state.failure = error
      defer {
        state.replies = [:]
        state.requestSubjects = [:]
        state.pings = []
        state.subscriptions = [:]
      }
      return (Array(state.replies.values), state.pings, true)
    }
    guard first else { return }
    transport.shutdown()
    for reply in replies { reply(.failure(error)) }
    for ping in pings { ping?.resolve(.failure(error)) }
    onEvent(.closed(error))
  }

  private static func randomToken() -> String {
    let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    var generator = SystemRandomNumberGenerator()
    return String((0..<22).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
  }
}

/// The state of a connection behind its lock.
private struct ConnectionState {
  var info: NATSServerInfo
  var parser: NATSProtocolParser
  var subscriptions: [UInt64: @Sendable (NATSMessage) -> Void] = [:]
  /// Subscription 1 is the inbox.
  var nextSID: UInt64 = 1
  var replies: [UInt64: @Sendable (Result<NATSMessage, NATSError>) -> Void] = [:]
  var nextToken: UInt64 = 0
  /// The subject each awaited reply answers (see `rememberRequestSubjects`).
  var requestSubjects: [UInt64: String] = [:]
  /// One entry per `PING` sent, answered in order: `nil` for a keep-alive.
  var pings: [ReplyWaiter?] = []
  var outstandingKeepAlives = 0
  var failure: NATSError?
}

/// The first exchange, before the reader thread runs: read `INFO`, then wait for the `PONG`.
private struct Handshake {
  let server: NATSServerAddress
  let transport: any NATSTransport
  let deadline: ContinuousClock.Instant
  var parser = NATSProtocolParser()

  init(server: NATSServerAddress, transport: any NATSTransport, timeout: Duration) {
    self.server = server
    self.transport = transport
    deadline = ContinuousClock().now + timeout
  }

  mutating func readInfo() throws(NATSError) -> NATSServerInfo {
    switch try next("INFO") {
    case .info(let info):
      parser.maximumMessage = info.maxPayload
      return info
    case .error(let text): throw .serverError(server: server.description, message: text)
    default:
      throw .protocolViolation(
        server: server.description, .malformedInfo("the server did not start with INFO"))
    }
  }

  mutating func waitForPong() throws(NATSError) {
    while true {
      switch try next("PONG") {
      case .pong: return
      case .error(let text): throw .serverError(server: server.description, message: text)
      case .info(let info): parser.maximumMessage = info.maxPayload
      case .ping: try transport.send(Array("PONG\r\n".utf8))
      case .ok: continue
      case .message:
        throw .protocolViolation(
          server: server.description, .malformedControlLine("a message before CONNECT was accepted"))
      }
    }
  }

  private mutating func next(_ what: String) throws(NATSError) -> NATSServerOperation {
    let clock = ContinuousClock()
    while true {
      do {
        if let operation = try parser.next() { return operation }
      } catch {
        throw .protocolViolation(server: server.description, error)
      }
      let left = deadline - clock.now
      guard left > .zero else { throw .timeout("\(server) sent no \(what) during the handshake") }
      let bytes: [UInt8]
      do {
        bytes = try transport.receive(maximum: 64 << 10, timeout: left.pollMilliseconds)
      } catch {
        if case .connectionClosed(let name, _) = error, parser.isMidOperation {
          throw .connectionClosed(server: name, midMessage: true)
        }
        throw error
      }
      parser.feed(bytes)
    }
  }
}

/// A one-time result a thread waits for, with a timeout.
final class ReplyWaiter: Sendable {
  private let semaphore = DispatchSemaphore(value: 0)
  private let result = Locked<Result<NATSMessage, NATSError>?>(nil)

  /// Sets the result (the first one wins) and wakes the waiter.
  func resolve(_ value: Result<NATSMessage, NATSError>) {
    let first = result.withLock { current -> Bool in
      guard current == nil else { return false }
      current = value
      return true
    }
    if first { semaphore.signal() }
  }

  /// The result, or `nil` after `timeout`.
  func wait(timeout: Duration) -> Result<NATSMessage, NATSError>? {
    let nanoseconds = Int(
      clamping: timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
    _ = semaphore.wait(timeout: .now() + .nanoseconds(nanoseconds))
    return result.withLock { $0 }
  }
}

extension Thread {
  private static let readerKey = "RewindShip.NATSReader"

  /// Whether this is a connection's reader thread (which must not wait for itself).
  fileprivate var isNATSReader: Bool {
    get { threadDictionary[Self.readerKey] as? Bool ?? false }
    set { threadDictionary[Self.readerKey] = newValue }
  }
}
