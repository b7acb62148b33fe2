import Foundation
import RewindLog

/// What a verifier reads and where it records how far it got.
public struct RemoteVerifyConfiguration: Sendable {
  /// The servers to connect to.
  public var servers: [NATSServerAddress]
  /// Credentials and timeouts.
  public var connection: NATSConnectionOptions
  /// The stream to verify.
  public var stream: String
  /// The durable pull consumer that records how far verification got (its acknowledged floor).
  public var durableName: String
  /// The chain key of a keyed log.
  public var chainKey: ChainKey?
  /// Messages asked for per pull.
  public var batch: Int
  /// How long each request may take.
  public var requestTimeout: Duration

  /// Creates a configuration.
  public init(
    servers: [NATSServerAddress], stream: String, connection: NATSConnectionOptions = NATSConnectionOptions(),
    durableName: String = "rewind-verify", chainKey: ChainKey? = nil, batch: Int = 256,
    requestTimeout: Duration = .seconds(5)
  ) {
    self.servers = servers
    self.stream = stream
    self.connection = connection
    self.durableName = durableName
    self.chainKey = chainKey
    self.batch = max(1, batch)
    self.requestTimeout = requestTimeout
  }
}

/// What a verification found.
public struct RemoteVerifyReport: Sendable, Hashable {
  /// The stream.
  public var stream: String
  /// The log the stream holds (hexadecimal id), once a message was read.
  public var logID: String?
  /// Whether its chain is keyed.
  public var isKeyed: Bool
  /// The event at stream sequence 1 (0 for an empty stream).
  public var firstEvent: UInt64
  /// Whether the first event's chain value before it is the log's genesis value (it was shipped from its
  /// first event), rather than taken from the first message (shipped after a retention cut).
  public var startsAtGenesis: Bool
  /// The stream sequence verified before this run (the consumer's acknowledged floor then).
  public var resumedAfter: UInt64
  /// Everything through this stream sequence is verified and recorded in the consumer.
  public var verifiedThrough: UInt64
  /// The event at ``verifiedThrough``.
  public var verifiedEvent: UInt64
  /// The stream's last sequence when this run started.
  public var streamLastSequence: UInt64
  /// Messages checked in this run.
  public var messagesChecked: Int
  /// A frame still being shipped at the end of the stream (events first...first+count-1, received so far).
  public var openFrame: OpenFrame?
  /// The first problem, if any.
  public var firstProblem: RemoteFinding?

  /// A frame of which only the first events are in the stream.
  public struct OpenFrame: Sendable, Hashable {
    /// Its first event.
    public var firstEvent: UInt64
    /// How many events it has.
    public var count: UInt64
    /// How many of them the stream holds.
    public var received: Int
  }

  /// Whether everything read is what the shipper wrote.
  public var isIntact: Bool { firstProblem == nil }
}

/// Why a verification could not run.
public enum RemoteVerifyError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Talking to the server failed.
  case nats(NATSError)
  /// JetStream refused or answered nonsense.
  case jetStream(JetStreamError)
  /// There is no such stream.
  case noStream(String)
  /// The stream holds a keyed log and no key was given.
  case keyRequired
  /// A key was given and the stream's log is not keyed.
  case notKeyed
  /// The configuration is unusable.
  case invalidConfiguration(String)

  /// Whether the server refused this client access (credentials, permissions, JetStream for the account).
  public var isAccessRefused: Bool {
    switch self {
    case .nats(let error): error.isAccessRefused
    case .jetStream(let error): error.isAccessRefused
    default: false
    }
  }

  public var description: String {
    switch self {
    case .nats(let error): error.description
    case .jetStream(let error): error.description
    case .noStream(let name): "there is no stream '\(name)'"
    case .keyRequired: "the stream holds a keyed log: its chain can only be checked with the key (--key-file)"
    case .notKeyed: "a key was given but the stream's log is not keyed"
    case .invalidConfiguration(let why): "invalid configuration: \(why)"
    }
  }
}

/// Verifies what a stream holds, through a durable pull consumer that records how far it got: each run
/// continues after the last verified message.
///
/// It checks that the messages are the events of one log in order, with no gap, duplicate or reordering,
/// that every frame is whole and its chain value is the one its records make after the previous frame's
/// (with the key for a keyed log), and names the first message that is not, by stream sequence.
public struct RemoteVerifier: Sendable {
  /// What to verify.
  public let configuration: RemoteVerifyConfiguration

  /// A verifier.
  public init(configuration: RemoteVerifyConfiguration) { self.configuration = configuration }

  /// Verifies everything the stream holds now, continuing after what earlier runs verified.
  /// - Parameter progress: called now and then with (messages verified, messages to verify).
  /// - Throws: ``RemoteVerifyError``.
  public func run(progress: ((UInt64, UInt64) -> Void)? = nil) throws(RemoteVerifyError) -> RemoteVerifyReport
  {
    guard !configuration.servers.isEmpty else { throw .invalidConfiguration("no server") }
    // Both names become part of API subjects: a dot or a space in one would change what is asked for.
    if let problem = NATSName.problem(configuration.stream, kind: "stream")
      ?? NATSName.problem(configuration.durableName, kind: "durable consumer")
    {
      throw .invalidConfiguration(problem)
    }
    let client: NATSClient
    do { client = try NATSClient(servers: configuration.servers, options: configuration.connection) } catch {
      throw .nats(error)
    }
    let connection: NATSConnection
    do { connection = try client.connect() } catch { throw .nats(error) }
    defer { connection.close() }
    var run = VerifierRun(configuration: configuration, connection: connection, progress: progress)
    return try run.verify()
  }
}

/// One verification over one connection.
private struct VerifierRun {
  let configuration: RemoteVerifyConfiguration
  let connection: NATSConnection
  let api: JetStream
  let progress: ((UInt64, UInt64) -> Void)?
  var walk: RemoteChainWalk
  /// The next stream sequence to check.
  var next: UInt64 = 1
  var report: RemoteVerifyReport
  /// Messages fetched ahead (by sequence) to tell a missing event from a reordered one.
  var lookahead: [UInt64: JetStreamStoredMessage] = [:]

  init(
    configuration: RemoteVerifyConfiguration, connection: NATSConnection,
    progress: ((UInt64, UInt64) -> Void)?
  ) {
    self.configuration = configuration
    self.connection = connection
    self.progress = progress
    api = JetStream(connection: connection, timeout: configuration.requestTimeout)
    walk = RemoteChainWalk(key: configuration.chainKey)
    report = RemoteVerifyReport(
      stream: configuration.stream, logID: nil, isKeyed: false, firstEvent: 0, startsAtGenesis: false,
      resumedAfter: 0,
      verifiedThrough: 0, verifiedEvent: 0, streamLastSequence: 0, messagesChecked: 0)
  }

  mutating func verify() throws(RemoteVerifyError) -> RemoteVerifyReport {
    let info: JetStreamStreamInfo?
    do { info = try api.streamInfo(configuration.stream) } catch { throw .jetStream(error) }
    guard let info else { throw .noStream(configuration.stream) }
    let target = info.state.lastSequence
    report.streamLastSequence = target
    var consumer = try createConsumer()
    let floor = consumer.ackFloor.streamSequence
    report.resumedAfter = floor
    if target > 0 { try describeStart() }
    // Resuming: the frame holding the floor is read again from its first message, whose chain value before
    // it was checked by the run that acknowledged it.
    if floor > 0, let anchor = try fetch(floor) {
      if let event = try? ReceivedEvent(headers: anchor.headers, payload: anchor.payload),
        event.sequence - event.frameFirst < floor
      {
        next = floor - (event.sequence - event.frameFirst)
      } else {
        next = floor + 1
      }
    }
    var delivered = Deliveries(connection: connection)
    defer { delivered.close() }
    while next <= target, report.firstProblem == nil {
      let wanted = Int(min(UInt64(configuration.batch), target - next + 1))
      var messages = try delivered.pull(
        api: api, stream: configuration.stream, durable: configuration.durableName, count: wanted,
        timeout: configuration.requestTimeout)
      messages.removeAll { $0.sequence < next }
      var lastAcknowledgeable: String?
      for message in messages.sorted(by: { $0.sequence < $1.sequence }) where report.firstProblem == nil {
        // Messages delivered to an earlier run and never acknowledged are read by sequence.
        while next < message.sequence, report.firstProblem == nil {
          guard let stored = try fetch(next) else { break }
          try check(stored.sequence, stored.headers, stored.payload)
        }
        guard message.sequence == next, report.firstProblem == nil else { continue }
        try check(message.sequence, message.headers, message.payload)
        if report.firstProblem == nil { lastAcknowledgeable = message.ackSubject }
      }
      if messages.isEmpty, report.firstProblem == nil, let stored = try fetch(next) {
        try check(stored.sequence, stored.headers, stored.payload)
      }
      if let subject = lastAcknowledgeable { try acknowledge(subject) }
      progress?(next - 1, target)
    }
    if let open = walk.openFrame, report.firstProblem == nil {
      report.openFrame = .init(firstEvent: open.first, count: open.count, received: open.received)
    }
    do {
      if let refreshed = try api.consumerInfo(stream: configuration.stream, name: configuration.durableName) {
        consumer = refreshed
      }
    } catch {
      throw .jetStream(error)
    }
    report.verifiedThrough = max(walk.verifiedThrough, 0)
    report.verifiedEvent = walk.verifiedEvent
    report.logID = walk.logID ?? report.logID
    report.isKeyed = walk.keyed
    progress?(next - 1, target)
    return report
  }

  /// Creates (or finds) the durable consumer; a replicated one waits for its own election, so a timeout or
  /// a missing leader is retried a few times.
  private func createConsumer() throws(RemoteVerifyError) -> JetStreamConsumerInfo {
    let config = JetStreamConsumerConfig(
      durableName: configuration.durableName,
      description: "rewind verify-remote: verified through the ack floor")
    var attempt = 0
    while true {
      attempt += 1
      do {
        return try api.createConsumer(stream: configuration.stream, config)
      } catch {
        switch error {
        case .nats(.timeout) where attempt < 4, .nats(.noResponders) where attempt < 4: continue
        default: throw .jetStream(error)
        }
      }
    }
  }

  /// Reads the first message: which event the stream starts with and whether it starts at genesis.
  private mutating func describeStart() throws(RemoteVerifyError) {
    guard let first = try fetch(1),
      let event = try? ReceivedEvent(headers: first.headers, payload: first.payload)
    else {
      return
    }
    report.firstEvent = event.sequence
    report.logID = event.logID
    report.isKeyed = event.keyed
    if let id = [UInt8](hexDigits: event.logID), event.sequence == 1 {
      report.startsAtGenesis = event.previousChain == ShippedFrame.genesisChain(logID: id)
    }
    if event.keyed && configuration.chainKey == nil { throw .keyRequired }
    if !event.keyed && configuration.chainKey != nil { throw .notKeyed }
  }

  private mutating func check(_ position: UInt64, _ headers: NATSHeaders?, _ payload: [UInt8])
    throws(RemoteVerifyError)
  {
    let finding: RemoteFinding?
    let reader = LaterEvents(api: api, stream: configuration.stream)
    do {
      finding = try walk.accept(position: position, headers: headers, payload: payload) {
        reader.events(after: $0)
      }
    } catch {
      throw error == .keyRequired ? .keyRequired : .notKeyed
    }
    report.messagesChecked += 1
    if let finding {
      report.firstProblem = finding
    } else {
      next = position + 1
    }
  }

  private func fetch(_ sequence: UInt64) throws(RemoteVerifyError) -> JetStreamStoredMessage? {
    do { return try api.message(stream: configuration.stream, sequence: sequence) } catch {
      throw .jetStream(error)
    }
  }

  /// Acknowledges everything through the message `subject` belongs to (the consumer acknowledges all
  /// before it), and waits for the server to confirm.
  private func acknowledge(_ subject: String) throws(RemoteVerifyError) {
    do {
      _ = try connection.request(subject, payload: Array("+ACK".utf8), timeout: configuration.requestTimeout)
    } catch {
      throw .nats(error)
    }
  }
}

/// Reads the event numbers of the messages after one, to tell a missing event from a reordered one.
private struct LaterEvents {
  let api: JetStream
  let stream: String

  /// The event numbers of up to 64 messages after `position` (read by sequence).
  func events(after position: UInt64) -> [UInt64] {
    (1...64).compactMap { offset -> UInt64? in
      guard let stored = try? api.message(stream: stream, sequence: position + UInt64(offset)) ?? nil else {
        return nil
      }
      return try? ReceivedEvent(headers: stored.headers, payload: stored.payload).sequence
    }
  }
}

/// A message a pull consumer delivered: its stream sequence is in the acknowledgement subject.
private struct Delivered {
  var sequence: UInt64
  var ackSubject: String
  var headers: NATSHeaders?
  var payload: [UInt8]
}

/// The pull consumer's deliveries, received on a subscription of their own.
private struct Deliveries {
  let connection: NATSConnection
  let inbox = "_INBOX.verify." + UUID().uuidString.replacingOccurrences(of: "-", with: "")
  let queue = DeliveryQueue()
  var sid: UInt64?

  init(connection: NATSConnection) { self.connection = connection }

  mutating func close() {
    if let sid { try? connection.unsubscribe(sid) }
  }

  /// Asks for up to `count` messages and collects them until the batch is full, the server says there
  /// are no more, or `timeout`.
  mutating func pull(api: JetStream, stream: String, durable: String, count: Int, timeout: Duration)
    throws(RemoteVerifyError) -> [Delivered]
  {
    if sid == nil {
      let queue = queue
      do { sid = try connection.subscribe(inbox) { queue.push($0) } } catch { throw .nats(error) }
    }
    queue.clear()
    // no_wait: the server sends what it has, then a 404 or 408 status instead of waiting for more.
    let body = Array("{\"batch\":\(count),\"no_wait\":true}".utf8)
    do {
      try connection.publish(
        NATSOutboundMessage(
          subject: "$JS.API.CONSUMER.MSG.NEXT.\(stream).\(durable)", reply: inbox, headers: nil, payload: body
        ))
    } catch {
      throw .nats(error)
    }
    var collected: [Delivered] = []
    let deadline = ContinuousClock().now + timeout
    while collected.count < count {
      let left = deadline - ContinuousClock().now
      guard left > .zero, let message = queue.take(timeout: left) else { break }
      if let status = message.status, status >= 400 { break }
      guard let reply = message.reply, let sequence = Self.streamSequence(ackSubject: reply) else { continue }
      collected.append(
        Delivered(sequence: sequence, ackSubject: reply, headers: message.headers, payload: message.payload))
    }
    return collected
  }

  /// The stream sequence in `$JS.ACK.<stream>.<consumer>.<delivered>.<stream seq>.<consumer seq>.<time>.<pending>`
  /// (or the longer form with a domain and an account hash first).
  static func streamSequence(ackSubject: String) -> UInt64? {
    let tokens = ackSubject.split(separator: ".", omittingEmptySubsequences: false)
    guard tokens.count >= 9, tokens[0] == "$JS", tokens[1] == "ACK" else { return nil }
    return tokens.count == 9 ? UInt64(tokens[5]) : UInt64(tokens[7])
  }
}

/// Deliveries handed from the reader thread to the verifier.
private final class DeliveryQueue: @unchecked Sendable {
  // @unchecked: `items` is touched only while `condition` is locked.
  private let condition = NSCondition()
  private var items: [NATSMessage] = []

  func push(_ message: NATSMessage) {
    condition.lock()
    items.append(message)
    condition.signal()
    condition.unlock()
  }

  func take(timeout: Duration) -> NATSMessage? {
    condition.lock()
    defer { condition.unlock() }
    let deadline = Date().addingTimeInterval(timeout.seconds)
    while items.isEmpty {
      if !condition.wait(until: deadline) { return nil }
    }
    return items.removeFirst()
  }

  func clear() {
    condition.lock()
    items.removeAll()
    condition.unlock()
  }
}
