import RewindLog

/// The shipping loop, on one thread: connect, read what the stream holds and compare it with the log,
/// publish up to a window of events, account for each acknowledgement, and start over from the stream
/// after any error.
///
/// Each event has exactly one place in the stream: the one after the stream sequence it names in
/// `Nats-Expected-Last-Sequence`, which the server enforces on every replica. So an event can be stored
/// at most once, whatever is retried, and an event counts as shipped only when an acknowledgement names
/// that place.
struct ShipSession {
  /// How a run ends.
  enum Mode {
    /// Keep shipping new events until stopped.
    case follow
    /// Return once everything in the log is acknowledged; give up after this many failed attempts in a
    /// row (`nil`: never).
    case untilCaughtUp(maximumAttempts: Int?)
  }

  private enum PumpOutcome { case caughtUp, stop, paused, lameDuck }

  /// An event waiting to be sent.
  private struct Pending {
    var sequence: UInt64
    var headers: [UInt8]
    var payload: [UInt8]
  }

  /// An event sent and not yet acknowledged.
  private struct InFlight {
    var pending: Pending
    var position: UInt64
    var reply: String
    var sentAt: ContinuousClock.Instant
    var acknowledged = false
  }

  let configuration: ShipConfiguration
  let control: ShipControl
  private let client: NATSClient
  private let directory: String
  private let acknowledgements = AcknowledgementQueue()
  private let clock = ContinuousClock()
  private var tail: LogTail
  private var logID = ""
  private var subject = ""
  private var connection: NATSConnection?
  /// The stream sequence of event `e` is `e - positionOffset`.
  private var positionOffset: UInt64 = 0
  private var pending: [Pending] = []
  private var pendingIndex = 0
  private var heldFrame: ShippedFrame?
  private var inFlight: [InFlight] = []
  private var shippedThrough: UInt64 = 0
  private var madeProgress = false
  /// A problem with the log found while filling the window: raised once what was read before it is
  /// acknowledged, so the stream holds everything up to the damage.
  private var deferredFailure: ShipError?
  private var random = SystemRandomNumberGenerator()

  init(directory: String, configuration: ShipConfiguration, control: ShipControl) throws(ShipError) {
    if let problem = configuration.problem { throw .invalidConfiguration(problem) }
    self.directory = directory
    self.configuration = configuration
    self.control = control
    do {
      client = try NATSClient(
        servers: configuration.servers, options: configuration.connection, backoff: configuration.backoff)
    } catch {
      throw .nats(error)
    }
    tail = LogTail(directory: directory, key: configuration.chainKey)
  }

  /// Runs until stopped, caught up (``Mode/untilCaughtUp(maximumAttempts:)``), or a fatal error; returns
  /// the error that ended it, if any.
  mutating func run(_ mode: Mode) -> ShipError? {
    defer { disconnect() }
    do { try openLog() } catch { return stop(with: error) }
    var failures = 0
    while true {
      if control.isStopRequested {
        control.update { $0.state = .stopped }
        if case .untilCaughtUp = mode { return .stopped }
        return nil
      }
      if control.isPaused {
        disconnect()
        control.update { $0.state = .paused }
        _ = control.waitWhilePaused()
        continue
      }
      do {
        madeProgress = false
        try connect()
        try resynchronize()
        switch try pump(mode) {
        case .caughtUp: return nil
        case .stop, .paused: continue
        case .lameDuck:
          disconnect()
          continue
        }
      } catch {
        if error.isFatal { return stop(with: error) }
        failures = madeProgress ? 1 : failures + 1
        dropInFlight()
        control.update {
          $0.lastError = error
          $0.inFlight = 0
        }
        if Self.closesConnection(error) { disconnect() }
        if case .untilCaughtUp(let maximum?) = mode, failures >= maximum { return stop(with: error) }
        // A stream that moved is read again at once, the first times.
        if case .streamMoved = error, failures <= 2 { continue }
        control.update { $0.state = .waitingToRetry }
        _ = control.sleep(configuration.backoff.delay(afterFailures: failures, using: &random))
      }
    }
  }

  private func stop(with error: ShipError) -> ShipError {
    control.update {
      $0.state = .stopped
      $0.lastError = error
      $0.inFlight = 0
    }
    return error
  }

  private static func closesConnection(_ error: ShipError) -> Bool {
    switch error {
    case .streamMoved, .jetStream(.api), .jetStream(.nats(.noResponders)), .nats(.noResponders): false
    default: true
    }
  }

  // MARK: The log

  private mutating func openLog() throws(ShipError) {
    do { try tail.open() } catch { throw .localLog(ShipLogProblem(error)) }
    logID = tail.logID.lowercaseHex
    subject = configuration.subject ?? ShipFormat.defaultSubject(logID: logID)
  }

  private mutating func nextFrame() throws(ShipError) -> ShippedFrame? {
    if heldFrame == nil {
      do { heldFrame = try tail.next() } catch { throw .localLog(ShipLogProblem(error)) }
    }
    guard let frame = heldFrame else { return nil }
    if let limit = configuration.shipsThrough?(), frame.lastSequence > limit { return nil }
    heldFrame = nil
    control.update { $0.readThrough = frame.lastSequence }
    return frame
  }

  private func message(_ frame: ShippedFrame, index: Int) -> Pending {
    let sequence = frame.firstSequence + UInt64(index)
    let (headers, payload) = ShipFormat.message(
      logID: logID, frame: frame, index: index, position: sequence - positionOffset, keyed: tail.isKeyed,
      typePrefix: configuration.typePrefix)
    return Pending(sequence: sequence, headers: headers, payload: payload)
  }

  private mutating func queue(_ frame: ShippedFrame, after sequence: UInt64) {
    pending = frame.records.indices.filter { frame.firstSequence + UInt64($0) > sequence }.map {
      message(frame, index: $0)
    }
    pendingIndex = 0
  }

  // MARK: The connection

  private mutating func connect() throws(ShipError) {
    if let connection, connection.failure == nil { return }
    disconnect()
    control.update { $0.state = .connecting }
    let control = control
    do {
      connection = try client.connect { event in
        switch event {
        case .lameDuck: control.noteLameDuck()
        case .unknownInbox: control.update { $0.ignoredReplies += 1 }
        case .closed: control.wake()
        case .info, .serverError: break
        }
      }
    } catch {
      throw .nats(error)
    }
  }

  private mutating func disconnect() {
    connection?.close()
    connection = nil
  }

  private mutating func dropInFlight() {
    for entry in inFlight { connection?.cancelReply(entry.reply) }
    inFlight = []
    pending = []
    pendingIndex = 0
    heldFrame = nil
    deferredFailure = nil
    acknowledgements.clear()
  }

  private func jetStream() throws(ShipError) -> JetStream {
    guard let connection else { throw .nats(.closed) }
    return JetStream(connection: connection, timeout: configuration.requestTimeout)
  }

  // MARK: Reading the stream

  /// Reads the stream's last message, checks that the log holds the same history up to it, and positions
  /// the log right after it.
  private mutating func resynchronize() throws(ShipError) {
    control.update {
      $0.state = .resynchronizing
      $0.resynchronizations += 1
    }
    dropInFlight()
    let api = try jetStream()
    let info = try streamInfo(api)
    let last = info.state.lastSequence
    guard last > 0 else {
      let first: UInt64
      do { first = try tail.open() } catch { throw .localLog(ShipLogProblem(error)) }
      positionOffset = first - 1
      shippedThrough = first - 1
      control.update {
        $0.firstShipped = first
        $0.shippedThrough = first - 1
        $0.streamSequence = 0
      }
      return
    }
    let stored = try storedEvent(api, at: last)
    guard stored.sequence >= last else {
      throw .foreignStream("event \(stored.sequence) at stream sequence \(last): more messages than events")
    }
    positionOffset = stored.sequence - last
    control.update { $0.firstShipped = positionOffset + 1 }
    do {
      try tail.seek(toFrameContaining: stored.sequence)
    } catch .eventsCut(let requested, let firstAvailable) {
      // The log was cut right after the last shipped event: the cut's chain value must be the stream's.
      guard stored.sequence + 1 == firstAvailable, stored.isFrameEnd,
        stored.chain == tail.chainBeforeFirstEvent
      else {
        throw .localLog(.eventsCut(requested: requested, firstAvailable: firstAvailable))
      }
      do { try tail.open() } catch { throw .localLog(ShipLogProblem(error)) }
      record(shipped: stored.sequence, at: last)
      return
    } catch {
      throw .localLog(ShipLogProblem(error))
    }
    let frame: ShippedFrame?
    do { frame = try tail.next() } catch { throw .localLog(ShipLogProblem(error)) }
    guard let frame, frame.firstSequence <= stored.sequence, stored.sequence <= frame.lastSequence else {
      throw .diverged(
        sequence: stored.sequence, streamSequence: last,
        reason:
          "the stream holds event \(stored.sequence), which the local log does not (it ends at \(tail.nextSequence - 1))"
      )
    }
    for sequence in frame.firstSequence...stored.sequence {
      let position = sequence - positionOffset
      guard position >= 1 else {
        throw .foreignStream("the stream's first message is inside a frame: it was not written by a shipper")
      }
      let remote = sequence == stored.sequence ? stored : try storedEvent(api, at: position)
      let local = message(frame, index: Int(sequence - frame.firstSequence))
      guard
        let mine = try? ReceivedEvent(
          headers: try? NATSHeaders.parse(local.headers[...]), payload: local.payload)
      else {
        throw .localLog(.unshippable(segment: "", offset: 0, reason: "event \(sequence) does not read back"))
      }
      guard remote.sequence == sequence, remote.sameEvent(as: mine) else {
        throw .diverged(sequence: sequence, streamSequence: position, reason: Self.difference(remote, mine))
      }
    }
    record(shipped: stored.sequence, at: last)
    queue(frame, after: stored.sequence)
  }

  private mutating func record(shipped sequence: UInt64, at position: UInt64) {
    shippedThrough = sequence
    control.noteShipped(through: sequence)
    control.update {
      $0.shippedThrough = sequence
      $0.streamSequence = position
    }
  }

  private static func difference(_ remote: ReceivedEvent, _ local: ReceivedEvent) -> String {
    if remote.sequence != local.sequence { return "the stream holds event \(remote.sequence) there" }
    if remote.record != local.record { return "the stream's copy of the event differs from the log's" }
    if remote.previousChain != local.previousChain || remote.chain != local.chain {
      return "the chain values differ: the log was rewritten after it was shipped"
    }
    return "the frame the event belongs to differs"
  }

  private func streamInfo(_ api: JetStream) throws(ShipError) -> JetStreamStreamInfo {
    var info: JetStreamStreamInfo?
    do { info = try api.streamInfo(configuration.stream) } catch { throw .jetStream(error) }
    if info == nil {
      guard configuration.createsStream else {
        throw .streamConfiguration("there is no stream '\(configuration.stream)' and creating it is off")
      }
      let config = JetStreamStreamConfig(
        name: configuration.stream, subjects: [subject], replicas: configuration.replicas,
        duplicateWindow: configuration.duplicateWindow, description: "Rewind log \(logID)")
      do {
        info = try api.createStream(config)
      } catch {
        switch error.apiErrorCode {
        case JetStreamAPIError.subjectsOverlap:
          throw .streamConfiguration(
            "another stream already stores \(subject): ship each log to one stream only")
        case JetStreamAPIError.streamNameInUse:
          // Another shipper created it first.
          do { info = try api.streamInfo(configuration.stream) } catch { throw .jetStream(error) }
        default: throw .jetStream(error)
        }
      }
    }
    guard let info else {
      throw .jetStream(.malformedResponse("the stream vanished while it was being created"))
    }
    guard info.config.subjects == [subject] else {
      throw .streamConfiguration(
        "it stores \(info.config.subjects); a shipped log needs a stream of its own with the one subject \(subject)"
      )
    }
    if let problem = info.config.shippingProblem { throw .streamConfiguration(problem) }
    return info
  }

  private func storedEvent(_ api: JetStream, at position: UInt64) throws(ShipError) -> ReceivedEvent {
    let stored: JetStreamStoredMessage?
    do { stored = try api.message(stream: configuration.stream, sequence: position) } catch {
      throw .jetStream(error)
    }
    guard let stored else {
      throw .jetStream(.malformedResponse("the stream has no message at sequence \(position)"))
    }
    let event: ReceivedEvent
    do { event = try ReceivedEvent(headers: stored.headers, payload: stored.payload) } catch {
      throw .foreignStream("message \(position) is not a shipped event: \(error)")
    }
    guard event.logID == logID else {
      throw .foreignStream("message \(position) belongs to log \(event.logID), not \(logID)")
    }
    return event
  }

  // MARK: Publishing

  private mutating func pump(_ mode: Mode) throws(ShipError) -> PumpOutcome {
    control.update { $0.state = .shipping }
    var lameDuck = false
    while true {
      let requests = control.takeRequests()
      if requests.stop { return .stop }
      if requests.paused { return .paused }
      if requests.lameDuck { lameDuck = true }
      var exhausted = false
      if !lameDuck { exhausted = try fill() }
      if inFlight.isEmpty {
        if let deferredFailure { throw deferredFailure }
        if lameDuck { return .lameDuck }
        guard exhausted else { continue }
        control.update {
          $0.state = .caughtUp
          $0.inFlight = 0
        }
        if case .untilCaughtUp = mode { return .caughtUp }
        control.waitForWake(timeout: configuration.pollInterval)
        control.update { $0.state = .shipping }
        continue
      }
      try awaitAcknowledgements()
    }
  }

  /// Sends events until the window is full; returns whether the log had nothing more to send.
  private mutating func fill() throws(ShipError) -> Bool {
    guard let connection else { throw .nats(.closed) }
    var batch: [NATSOutboundMessage] = []
    var exhausted = false
    let now = clock.now
    while inFlight.count < configuration.window, deferredFailure == nil {
      if pendingIndex == pending.count {
        let frame: ShippedFrame?
        do { frame = try nextFrame() } catch {
          deferredFailure = error
          break
        }
        guard let frame else {
          exhausted = true
          break
        }
        queue(frame, after: shippedThrough)
        continue
      }
      let next = pending[pendingIndex]
      pendingIndex += 1
      let sequence = next.sequence
      let acknowledgements = acknowledgements
      let reply = connection.makeReplySubject { acknowledgements.push(sequence, $0) }
      batch.append(
        NATSOutboundMessage(subject: subject, reply: reply, headerBytes: next.headers, payload: next.payload))
      inFlight.append(InFlight(pending: next, position: sequence - positionOffset, reply: reply, sentAt: now))
    }
    guard !batch.isEmpty else { return exhausted }
    do {
      try connection.publish(batch)
    } catch {
      if case .payloadTooLarge(let size, let limit) = error {
        throw .invalidConfiguration(
          "an event of \(size) bytes with its headers is over the server's max_payload of \(limit)")
      }
      throw .nats(error)
    }
    let count = inFlight.count
    if count != control.progress.inFlight { control.update { $0.inFlight = count } }
    return exhausted && pendingIndex == pending.count
  }

  private mutating func awaitAcknowledgements() throws(ShipError) {
    guard let oldest = inFlight.first else { return }
    let left = oldest.sentAt + configuration.acknowledgementTimeout - clock.now
    guard left > .zero else { throw .acknowledgementTimeout(sequence: oldest.pending.sequence) }
    for (sequence, result) in acknowledgements.take(timeout: left) {
      try acknowledge(sequence, result)
    }
    advance()
  }

  private mutating func acknowledge(_ sequence: UInt64, _ result: Result<NATSMessage, NATSError>)
    throws(ShipError)
  {
    guard let index = inFlight.firstIndex(where: { $0.pending.sequence == sequence }) else { return }
    let message: NATSMessage
    switch result {
    case .success(let value): message = value
    case .failure(let error): throw .nats(error)
    }
    let ack: JetStreamPublishAck
    switch JetStream.publishAck(message) {
    case .success(let value): ack = value
    case .failure(.api(let error)) where error.errorCode == JetStreamAPIError.wrongLastSequence:
      throw .streamMoved(sequence: sequence)
    case .failure(let error): throw .jetStream(error)
    }
    let entry = inFlight[index]
    guard ack.stream == configuration.stream else {
      throw .streamConfiguration("event \(sequence) was acknowledged by stream '\(ack.stream)'")
    }
    guard ack.sequence == entry.position else {
      throw .diverged(
        sequence: sequence, streamSequence: ack.sequence,
        reason: ack.duplicate
          ? "the stream already holds this event id at sequence \(ack.sequence), not \(entry.position)"
          : "the stream stored it at sequence \(ack.sequence), not \(entry.position)")
    }
    if ack.duplicate {
      // Stored before (a retry within the duplicate window): it counts only if the stored copy is this event.
      let stored = try storedEvent(try jetStream(), at: entry.position)
      guard
        let mine = try? ReceivedEvent(
          headers: try? NATSHeaders.parse(entry.pending.headers[...]), payload: entry.pending.payload),
        stored.sameEvent(as: mine)
      else {
        throw .diverged(
          sequence: sequence, streamSequence: entry.position,
          reason: "the copy stored under this event's id differs from the log's")
      }
    }
    inFlight[index].acknowledged = true
  }

  /// Counts the acknowledged events at the front of the window as shipped.
  private mutating func advance() {
    var count = 0
    while count < inFlight.count, inFlight[count].acknowledged { count += 1 }
    guard count > 0 else { return }
    let last = inFlight[count - 1]
    inFlight.removeFirst(count)
    madeProgress = true
    shippedThrough = last.pending.sequence
    let remaining = inFlight.count
    control.update(shippedThrough: shippedThrough) {
      $0.shippedThrough = last.pending.sequence
      $0.streamSequence = last.position
      $0.inFlight = remaining
    }
  }
}
