/// How an event's payload is encoded.
public enum EventCodec: UInt8, Sendable, Hashable, CaseIterable {
  /// The compact, self-describing binary format of ``BinaryValue``.
  case binary = 1
  /// JSON, through Foundation's `JSONEncoder`.
  case json = 2
}

/// One event inside a frame: codec (1 byte), schema version (varint), type name (varint length, UTF-8),
/// then the encoded `Event` up to the record's end.
struct EventRecord {
  var codec: EventCodec
  var schemaVersion: UInt64
  var typeName: String
  var payload: ArraySlice<UInt8>

  static func parse(_ bytes: [UInt8], _ range: Range<Int>) throws(BinaryCodecError) -> EventRecord {
    var reader = ByteReader(bytes, from: range.lowerBound, end: range.upperBound)
    let start = reader.offset
    let rawCodec = try reader.u8()
    guard let codec = EventCodec(rawValue: rawCodec) else { throw .unknownTag(rawCodec, offset: start) }
    let version = try reader.varint()
    let name = try reader.string()
    return EventRecord(codec: codec, schemaVersion: version, typeName: name, payload: try reader.bytes(reader.remaining))
  }

  /// Appends a length-prefixed record to `writer`.
  static func append(
    codec: EventCodec, schemaVersion: UInt64, typeName: String, payload: [UInt8], to writer: inout ByteWriter
  ) {
    var header = ByteWriter(capacity: 16 + typeName.utf8.count)
    header.u8(codec.rawValue)
    header.varint(schemaVersion)
    header.string(typeName)
    writer.u32(UInt32(header.bytes.count + payload.count))
    writer.append(header.bytes)
    writer.append(payload)
  }
}
