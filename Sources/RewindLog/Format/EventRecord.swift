import Foundation
import Rewind

/// How an event's payload is encoded.
public enum EventCodec: UInt8, Sendable, Hashable, CaseIterable {
  /// The compact, self-describing binary format of ``BinaryValue``.
  case binary = 1
  /// JSON, through Foundation's `JSONEncoder`.
  case json = 2
}

/// One event inside a frame. The envelope has a fixed layout; only the action (or history command) goes
/// through the codec:
///
/// codec (1: the ``EventCodec``, plus `0x80` when the type name is the payload's case name and so not
/// repeated, plus `0x40` when sections follow the payload), schema version (varint), timestamp (8: the
/// bits of the `Double` seconds since 2001-01-01), actor (varint: 0 for none, else 1 + its UTF-8 length,
/// then the bytes), source (1: `0` user, `1` effect followed by the cause's sequence number as a varint,
/// `2` system), correlation id (zigzag varint of the sequence number minus the id: 0 when an event starts
/// its own chain), payload kind (1: `0` action, `1` history command), payload length (varint), payload,
/// the sections when flagged (see ``RecordSections``: the values the reducer drew), type name (UTF-8, to
/// the end; empty when flagged).
///
/// The sequence number is not stored: it is the frame's first sequence number plus the record's position.
@usableFromInline
struct EventRecord {
  @usableFromInline
  enum Kind: UInt8 {
    case action = 0
    case command = 1
  }

  @usableFromInline var codec: EventCodec
  @usableFromInline var schemaVersion: UInt64
  @usableFromInline var timestamp: Date
  @usableFromInline var metadata: EventMetadata
  @usableFromInline var kind: Kind
  /// The buffer the record was read from, and where its payload lies in it.
  @usableFromInline var bytes: [UInt8]
  @usableFromInline var payloadRange: Range<Int>
  var typeNameRange: Range<Int>
  /// The values the reducer drew, from the draws section (empty without one).
  @usableFromInline var draws: [RecordedDraw]

  /// The type name is the first key of the payload (an enum's case name), not stored.
  var typeNameIsCase: Bool

  /// Set in the codec byte when the type name is the payload's case name.
  static let caseNameFlag: UInt8 = 0x80
  /// Set in the codec byte when sections (``RecordSections``) follow the payload.
  static let sectionsFlag: UInt8 = 0x40

  var payload: ArraySlice<UInt8> { bytes[payloadRange] }

  /// The recorded type name (checked to be UTF-8 when the record was parsed).
  var typeName: String {
    if typeNameIsCase { return Self.firstKey(in: bytes, payloadRange) ?? "" }
    return String(decoding: bytes[typeNameRange], as: UTF8.self)
  }

  /// Parses the record in `range` of `bytes`, the event numbered `sequence`.
  static func parse(_ bytes: [UInt8], _ range: Range<Int>, sequence: UInt64) throws(BinaryCodecError)
    -> EventRecord
  {
    var reader = ByteReader(bytes, from: range.lowerBound, end: range.upperBound)
    let start = reader.offset
    let rawCodec = try reader.u8()
    let typeNameIsCase = rawCodec & caseNameFlag != 0
    let hasSections = rawCodec & sectionsFlag != 0
    guard let codec = EventCodec(rawValue: rawCodec & ~(caseNameFlag | sectionsFlag)),
      !typeNameIsCase || codec == .binary
    else {
      throw .unknownTag(rawCodec, offset: start)
    }
    let version = try reader.varint()
    let timestamp = Date(timeIntervalSinceReferenceDate: Double(bitPattern: try reader.u64()))
    let actorOffset = reader.offset
    let actorHeader = try reader.varint()
    var actor: String?
    if actorHeader > 0 {
      guard actorHeader - 1 <= UInt64(reader.remaining) else { throw .lengthOutOfBounds(offset: actorOffset) }
      guard let text = String(validating: try reader.bytes(Int(actorHeader - 1)), as: UTF8.self) else {
        throw .invalidUTF8(offset: actorOffset)
      }
      actor = text
    }
    let sourceOffset = reader.offset
    let source: EventSource
    switch try reader.u8() {
    case 0: source = .user
    case 1: source = .effect(cause: try reader.varint())
    case 2: source = .system
    case let other: throw .unknownTag(other, offset: sourceOffset)
    }
    let delta = try reader.varint()
    let correlation = CorrelationID(
      rawValue: sequence &- UInt64(bitPattern: Int64(bitPattern: delta >> 1) ^ -Int64(bitPattern: delta & 1)))
    let kindOffset = reader.offset
    let rawKind = try reader.u8()
    guard let kind = Kind(rawValue: rawKind) else { throw .unknownTag(rawKind, offset: kindOffset) }
    let payloadLength = try reader.length()
    let payloadStart = reader.offset
    _ = try reader.bytes(payloadLength)
    let sections = hasSections ? try RecordSections.read(&reader, timestamp: timestamp) : nil
    let nameStart = reader.offset
    let nameRange = nameStart..<range.upperBound
    if !bytes[nameRange].allSatisfy({ $0 < 0x80 }), String(validating: bytes[nameRange], as: UTF8.self) == nil
    {
      throw .invalidUTF8(offset: nameStart)
    }
    if typeNameIsCase, !nameRange.isEmpty { throw .trailingBytes(offset: nameStart) }
    return EventRecord(
      codec: codec, schemaVersion: version, timestamp: timestamp,
      metadata: EventMetadata(actor: actor, source: source, correlationID: correlation), kind: kind,
      bytes: bytes,
      payloadRange: payloadStart..<(payloadStart + payloadLength), typeNameRange: nameRange,
      draws: sections?.draws ?? [], typeNameIsCase: typeNameIsCase)
  }

  /// Appends a length-prefixed record to `writer`: the envelope of event `sequence`, then the payload
  /// written by `payload` (which returns the payload's case name, if any), then the sections when the
  /// event drew values (`draws`), then the type name `typeName` returns, unless it is that case name.
  static func append(
    codec: EventCodec, schemaVersion: UInt64, sequence: UInt64, timestamp: Date, metadata: EventMetadata,
    kind: Kind, draws: [RecordedDraw] = [],
    to writer: inout ByteWriter, payload: (inout ByteWriter) throws -> String?, typeName: (String?) -> String
  ) rethrows {
    let lengthAt = writer.reserveVarint()
    let codecAt = writer.bytes.count
    writer.u8(codec.rawValue)
    writer.varint(schemaVersion)
    writer.u64(timestamp.timeIntervalSinceReferenceDate.bitPattern)
    if let actor = metadata.actor {
      var actor = actor
      actor.withUTF8 { utf8 in
        writer.varint(UInt64(utf8.count) + 1)
        writer.bytes.append(contentsOf: utf8)
      }
    } else {
      writer.u8(0)
    }
    switch metadata.source {
    case .user: writer.u8(0)
    case .effect(let cause):
      writer.u8(1)
      writer.varint(cause)
    case .system: writer.u8(2)
    }
    let delta = Int64(bitPattern: sequence &- metadata.correlationID.rawValue)
    writer.varint(UInt64(bitPattern: (delta << 1) ^ (delta >> 63)))
    writer.u8(kind.rawValue)
    let payloadLengthAt = writer.reserveVarint()
    let payloadStart = writer.bytes.count
    let caseName = try payload(&writer)
    let payloadLength = writer.bytes.count - payloadStart
    if !draws.isEmpty {
      writer.bytes[codecAt] |= sectionsFlag
      RecordSections.append(draws: draws, timestamp: timestamp, to: &writer)
    }
    let name = typeName(caseName)
    if codec == .binary, let caseName, name == caseName {
      writer.bytes[codecAt] |= caseNameFlag
    } else {
      var name = name
      name.withUTF8 { writer.bytes.append(contentsOf: $0) }
    }
    // Patched back to front, so the second patch does not move the first.
    writer.patchVarint(UInt64(payloadLength), reservedAt: payloadLengthAt)
    writer.patchVarint(UInt64(writer.bytes.count - lengthAt - 1), reservedAt: lengthAt)
  }

  /// The first key of the keyed value at the start of `range` (an enum's case name in synthesized
  /// encodings), or `nil`.
  static func firstKey(in bytes: [UInt8], _ range: Range<Int>) -> String? {
    var reader = ByteReader(bytes, from: range.lowerBound, end: range.upperBound)
    guard (try? reader.u8()) == BinaryValue.Tag.keyed.rawValue, let count = try? reader.varint(), count > 0
    else {
      return nil
    }
    return try? reader.key()
  }

  /// The whole event as a tree, in the shape `Event`'s synthesized encoding has: what tools show and what
  /// upcasters work on. A JSON payload is parsed into the tree (kept as a string if it does not parse).
  func tree(sequence: UInt64) throws(BinaryCodecError) -> BinaryValue {
    let body: BinaryValue
    switch codec {
    case .binary: body = try BinaryValue.decode(Array(payload))
    case .json:
      body = (try? BinaryValue.parseJSON(payload)) ?? .string(String(decoding: payload, as: UTF8.self))
    }
    var metadataFields: [BinaryValue.Field] = []
    if let actor = metadata.actor { metadataFields.append(.init(key: "actor", value: .string(actor))) }
    let source: BinaryValue
    switch metadata.source {
    case .user: source = .keyed([.init(key: "user", value: .keyed([]))])
    case .effect(let cause):
      source = .keyed([.init(key: "effect", value: .keyed([.init(key: "cause", value: .uint(cause))]))])
    case .system: source = .keyed([.init(key: "system", value: .keyed([]))])
    }
    metadataFields.append(.init(key: "source", value: source))
    metadataFields.append(.init(key: "correlationID", value: .uint(metadata.correlationID.rawValue)))
    let kindName = kind == .action ? "action" : "command"
    var fields: [BinaryValue.Field] = [
      .init(key: "sequence", value: .uint(sequence)),
      .init(key: "timestamp", value: .double(timestamp.timeIntervalSinceReferenceDate)),
      .init(key: "metadata", value: .keyed(metadataFields)),
      .init(
        key: "payload", value: .keyed([.init(key: kindName, value: .keyed([.init(key: "_0", value: body)]))])),
    ]
    if !draws.isEmpty { fields.append(.init(key: "draws", value: RecordSections.tree(of: draws))) }
    return .keyed(fields)
  }
}
