import RewindLog

/// How an event travels: one NATS message per event, a CloudEvent in binary mode (NATS binding: the
/// attributes are `ce-` headers, the data is the payload).
///
/// The payload is the event's record exactly as the log holds it (``ShippedFrame``'s records), so a
/// verifier can rebuild the frame's bytes and recompute the hash chain, which the log computes per frame
/// (group commit), not per event. Every message names its frame (`ce-rewindframe`, `ce-rewindcount`,
/// `ce-rewindcommit`); the frame's first message carries the chain value before the frame
/// (`ce-rewindprev`), its last one the value after (`ce-rewindchain`). `Nats-Msg-Id` is the log id and the
/// sequence number; `Nats-Expected-Last-Sequence` makes the server store each event only right after the
/// one before it. Docs/Shipping.md lists every header.
package enum ShipFormat {
  package static let messageID = "Nats-Msg-Id"
  package static let expectedLastSequence = "Nats-Expected-Last-Sequence"
  package static let contentType = "content-type"
  package static let specVersion = "ce-specversion"
  package static let id = "ce-id"
  package static let source = "ce-source"
  package static let type = "ce-type"
  package static let subject = "ce-subject"
  package static let time = "ce-time"
  package static let sequence = "ce-sequence"
  package static let schemaVersion = "ce-schemaversion"
  package static let frame = "ce-rewindframe"
  package static let count = "ce-rewindcount"
  package static let commit = "ce-rewindcommit"
  package static let chainType = "ce-rewindchaintype"
  package static let previousChain = "ce-rewindprev"
  package static let chain = "ce-rewindchain"
  /// The media type of the payload: one event record of a Rewind log (Docs/Persistence.md).
  package static let recordMediaType = "application/vnd.rewind.event-record"

  /// The subject a log ships to when none is configured.
  package static func defaultSubject(logID: String) -> String { "rewind.log." + logID }

  /// `Nats-Msg-Id` of an event: `<log id>:<sequence>`.
  package static func messageID(logID: String, sequence: UInt64) -> String { logID + ":" + String(sequence) }

  /// 20 digits, so that the text sorts like the number (the CloudEvents `sequence` extension is text).
  package static func padded(_ value: UInt64) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, 20 - digits.count)) + digits
  }

  /// The header block and payload of the event at `index` of `frame`, stored at stream sequence
  /// `position`. Written straight into bytes: this runs for every event shipped.
  package static func message(
    logID: String, frame: ShippedFrame, index: Int, position: UInt64, keyed: Bool, typePrefix: String
  ) -> (headers: [UInt8], payload: [UInt8]) {
    let sequence = frame.firstSequence + UInt64(index)
    let record = frame.records[index]
    let summary =
      index < frame.summaries.count
      ? frame.summaries[index] : try? ShippedFrame.summary(ofRecord: record, sequence: sequence)
    var out = HeaderWriter(capacity: 640 + typePrefix.utf8.count + 2 * (summary?.typeName.utf8.count ?? 0))
    out.append("NATS/1.0\r\n")
    out.field(Self.messageID) {
      $0.append(logID)
      $0.append(":")
      $0.decimal(sequence)
    }
    out.field(Self.expectedLastSequence) { $0.decimal(position - 1) }
    out.field(Self.specVersion) { $0.append("1.0") }
    out.field(Self.id) {
      $0.append(logID)
      $0.append("-")
      $0.padded(sequence)
    }
    out.field(Self.source) {
      $0.append("urn:rewind:log:")
      $0.append(logID)
    }
    out.field(Self.type) {
      $0.append(typePrefix)
      $0.append(summary?.typeName ?? "unknown")
    }
    if let summary {
      out.field(Self.subject) { $0.append(summary.typeName) }
      if let timestamp = RFC3339.format(sinceReferenceDate: summary.timestamp) {
        out.field(Self.time) { $0.append(timestamp) }
      }
      out.field(Self.schemaVersion) { $0.decimal(summary.schemaVersion) }
    }
    out.field(Self.contentType) { $0.append(Self.recordMediaType) }
    out.field(Self.sequence) { $0.padded(sequence) }
    out.field(Self.frame) { $0.decimal(frame.firstSequence) }
    out.field(Self.count) { $0.decimal(UInt64(frame.records.count)) }
    out.field(Self.commit) { $0.signed(frame.commitTime) }
    out.field(Self.chainType) { $0.append(keyed ? "hmac-sha256" : "sha256") }
    if index == 0 { out.field(Self.previousChain) { $0.hex(frame.previousChain) } }
    if index == frame.records.count - 1 { out.field(Self.chain) { $0.hex(frame.chain) } }
    out.append("\r\n")
    return (out.bytes, record)
  }
}

/// Appends header text as bytes, numbers and hexadecimal without intermediate strings.
private struct HeaderWriter {
  var bytes: [UInt8]

  init(capacity: Int) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  mutating func field(_ name: String, _ value: (inout HeaderWriter) -> Void) {
    append(name)
    bytes.append(58)
    bytes.append(32)
    value(&self)
    bytes.append(13)
    bytes.append(10)
  }

  mutating func decimal(_ value: UInt64) {
    guard value > 0 else {
      bytes.append(48)
      return
    }
    var digits: [UInt8] = []
    var rest = value
    while rest > 0 {
      digits.append(48 + UInt8(rest % 10))
      rest /= 10
    }
    bytes.append(contentsOf: digits.reversed())
  }

  mutating func signed(_ value: Int64) {
    if value < 0 { bytes.append(45) }
    decimal(value.magnitude)
  }

  /// 20 digits, zero-padded.
  mutating func padded(_ value: UInt64) {
    var digits = [UInt8](repeating: 48, count: 20)
    var rest = value
    var index = 19
    while rest > 0, index >= 0 {
      digits[index] = 48 + UInt8(rest % 10)
      rest /= 10
      index -= 1
    }
    bytes.append(contentsOf: digits)
  }

  mutating func hex(_ digest: SHA256.Digest) { digest.withUnsafeBytes { hex($0) } }

  mutating func hex(_ value: some Sequence<UInt8>) {
    for byte in value {
      bytes.append(Self.digits[Int(byte >> 4)])
      bytes.append(Self.digits[Int(byte & 0x0F)])
    }
  }

  private static let digits = Array("0123456789abcdef".utf8)
}

/// An event read back from a stream: the fields a verifier and a resuming shipper check.
package struct ReceivedEvent: Sendable, Hashable {
  /// The log id, from `Nats-Msg-Id`.
  package var logID: String
  /// The event's sequence number.
  package var sequence: UInt64
  /// The first event of its frame.
  package var frameFirst: UInt64
  /// How many events its frame holds.
  package var frameCount: UInt64
  /// The frame's commit time.
  package var commitTime: Int64
  /// Whether the chain is keyed (HMAC-SHA-256).
  package var keyed: Bool
  /// The chain value before the frame (its first event only).
  package var previousChain: SHA256.Digest?
  /// The chain value after the frame (its last event only).
  package var chain: SHA256.Digest?
  /// `Nats-Expected-Last-Sequence`, if present.
  package var expectedLastSequence: UInt64?
  /// The event record.
  package var record: [UInt8]

  /// Whether it is its frame's first event.
  package var isFrameStart: Bool { sequence == frameFirst }
  /// Whether it is its frame's last event.
  package var isFrameEnd: Bool { sequence == frameFirst + frameCount - 1 }

  /// Reads an event from a message's headers and payload.
  /// - Throws: ``ReceivedEvent/Problem`` naming the first header that is missing or wrong.
  package init(headers: NATSHeaders?, payload: [UInt8]) throws(Problem) {
    guard let headers else { throw Problem("no headers: not a shipped Rewind event") }
    func required(_ name: String) throws(Problem) -> String {
      guard let value = headers[name] else { throw Problem("no \(name) header") }
      return value
    }
    func number(_ name: String) throws(Problem) -> UInt64 {
      guard let value = UInt64(try required(name)) else { throw Problem("\(name) is not a number") }
      return value
    }
    let id = try required(ShipFormat.messageID)
    guard let colon = id.lastIndex(of: ":"), let idSequence = UInt64(id[id.index(after: colon)...]) else {
      throw Problem("\(ShipFormat.messageID) is not <log id>:<sequence>")
    }
    logID = String(id[..<colon])
    guard logID.count == 32, logID.allSatisfy(\.isHexDigit) else {
      throw Problem("\(ShipFormat.messageID) does not start with a 32-digit log id")
    }
    sequence = try number(ShipFormat.sequence)
    guard sequence == idSequence else { throw Problem("ce-sequence and Nats-Msg-Id name different events") }
    guard try required(ShipFormat.source) == "urn:rewind:log:" + logID else {
      throw Problem("ce-source names another log than Nats-Msg-Id")
    }
    frameFirst = try number(ShipFormat.frame)
    frameCount = try number(ShipFormat.count)
    guard frameCount > 0, frameFirst <= sequence, sequence - frameFirst < frameCount else {
      throw Problem("the event is not inside the frame its headers name")
    }
    // Events are numbered from 1, and the one after a frame's last must be a number too: a message in the
    // stream is untrusted, and the walk does arithmetic on these.
    guard frameFirst >= 1, frameCount <= UInt64.max - frameFirst else {
      throw Problem("the frame's events are numbered outside 1...\(UInt64.max - 1)")
    }
    guard let commit = Int64(try required(ShipFormat.commit)) else {
      throw Problem("ce-rewindcommit is not a number")
    }
    commitTime = commit
    switch try required(ShipFormat.chainType) {
    case "sha256": keyed = false
    case "hmac-sha256": keyed = true
    default: throw Problem("ce-rewindchaintype is neither sha256 nor hmac-sha256")
    }
    expectedLastSequence = headers[ShipFormat.expectedLastSequence].flatMap { UInt64($0) }
    record = payload
    if sequence == frameFirst {
      guard let value = SHA256.Digest(hexadecimal: try required(ShipFormat.previousChain)) else {
        throw Problem("ce-rewindprev is not 64 hexadecimal digits")
      }
      previousChain = value
    }
    if sequence == frameFirst + frameCount - 1 {
      guard let value = SHA256.Digest(hexadecimal: try required(ShipFormat.chain)) else {
        throw Problem("ce-rewindchain is not 64 hexadecimal digits")
      }
      chain = value
    }
  }

  /// Why a message is not a shipped event.
  package struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    package var description: String
    init(_ description: String) { self.description = description }
  }

  /// Whether two copies of an event say the same thing (the bookkeeping header
  /// `Nats-Expected-Last-Sequence` aside, which the stream position decides).
  package func sameEvent(as other: ReceivedEvent) -> Bool {
    var left = self
    var right = other
    left.expectedLastSequence = nil
    right.expectedLastSequence = nil
    return left == right
  }
}
