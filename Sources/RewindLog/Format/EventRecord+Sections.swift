import Foundation
import Rewind

/// The optional sections of an event record: what an event carries besides its envelope and payload.
///
/// A record has sections only when its codec byte has ``EventRecord/sectionsFlag`` (`0x40`); records
/// without it (every record written before sections existed, and every event that has nothing to put in
/// one) are laid out and cost exactly as before. The sections sit between the payload and the type name:
///
/// count (varint), then per section: tag (varint), length (varint), that many bytes.
///
/// A reader must understand a section whose tag is even: a record with an even tag it does not know is
/// refused. A section whose tag is odd may be skipped by a reader that does not know it, so a later
/// build can add what older readers may ignore. Tags:
///
/// - `2`, draws: the values the reducer drew (``RecordedDraw``), see ``RecordSections/appendDraws(_:timestamp:to:)``.
enum RecordSections {
  /// The tag of the draws section.
  static let drawsTag: UInt64 = 2

  /// What the sections of one record hold.
  struct Contents {
    var draws: [RecordedDraw] = []
  }

  /// Kinds of draw in the draws section.
  private enum DrawTag: UInt8 {
    /// 16 bytes: the UUID.
    case uuid = 1
    /// 8 bytes: the little-endian bits of the `Double` seconds since 2001-01-01.
    case date = 2
    /// No bytes: a date equal to the record's timestamp (the usual `date()` in a reducer).
    case dateOfEvent = 3
    /// 8 bytes: the little-endian random bits.
    case random = 4
  }

  /// Writes the sections of an event that drew `draws` (not empty), stamped `timestamp`.
  static func append(draws: [RecordedDraw], timestamp: Date, to writer: inout ByteWriter) {
    writer.varint(1)
    writer.varint(drawsTag)
    let lengthAt = writer.reserveVarint()
    let start = writer.bytes.count
    appendDraws(draws, timestamp: timestamp, to: &writer)
    writer.patchVarint(UInt64(writer.bytes.count - start), reservedAt: lengthAt)
  }

  /// The draws section: count (varint), then per draw a kind byte (`1` UUID, `2` date, `3` the event's
  /// timestamp as the date, `4` random bits) and its bytes.
  static func appendDraws(_ draws: [RecordedDraw], timestamp: Date, to writer: inout ByteWriter) {
    writer.varint(UInt64(draws.count))
    for draw in draws {
      switch draw {
      case .uuid(let uuid):
        writer.u8(DrawTag.uuid.rawValue)
        withUnsafeBytes(of: uuid.uuid) { writer.append($0) }
      case .date(let date) where date == timestamp:
        writer.u8(DrawTag.dateOfEvent.rawValue)
      case .date(let date):
        writer.u8(DrawTag.date.rawValue)
        writer.u64(date.timeIntervalSinceReferenceDate.bitPattern)
      case .random(let bits):
        writer.u8(DrawTag.random.rawValue)
        writer.u64(bits)
      }
    }
  }

  /// Reads the sections at `reader`'s position, in a record stamped `timestamp`.
  /// - Throws: ``BinaryCodecError`` for a truncated or malformed section, or an even tag not known here.
  static func read(_ reader: inout ByteReader, timestamp: Date) throws(BinaryCodecError) -> Contents {
    var contents = Contents()
    // A section takes at least two bytes, which bounds the count.
    let count = try reader.length(unit: 2)
    var seen: Set<UInt64> = []
    for _ in 0..<count {
      let tagOffset = reader.offset
      let tag = try reader.varint()
      let length = try reader.length()
      let start = reader.offset
      var section = ByteReader(reader.bytes, from: start, end: start + length)
      _ = try reader.bytes(length)
      guard seen.insert(tag).inserted else {
        throw .mismatch(expected: "each section once", found: "section \(tag) again", offset: tagOffset)
      }
      switch tag {
      case drawsTag:
        contents.draws = try readDraws(&section, timestamp: timestamp)
        guard section.isAtEnd else { throw .trailingBytes(offset: section.offset) }
      case let unknown where unknown & 1 == 1:
        continue  // a section this build does not know and may skip
      default:
        throw .mismatch(
          expected: "a record section this build knows", found: "required section \(tag)", offset: tagOffset)
      }
    }
    return contents
  }

  private static func readDraws(_ reader: inout ByteReader, timestamp: Date) throws(BinaryCodecError)
    -> [RecordedDraw]
  {
    let count = try reader.length()
    var draws: [RecordedDraw] = []
    draws.reserveCapacity(count)
    for _ in 0..<count {
      let offset = reader.offset
      let raw = try reader.u8()
      switch DrawTag(rawValue: raw) {
      case .uuid:
        let bytes = Array(try reader.bytes(16))
        draws.append(
          .uuid(
            UUID(
              uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
                bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
              ))))
      case .date:
        draws.append(.date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: try reader.u64()))))
      case .dateOfEvent:
        draws.append(.date(timestamp))
      case .random:
        draws.append(.random(try reader.u64()))
      case nil:
        throw .unknownTag(raw, offset: offset)
      }
    }
    return draws
  }

  /// The draws as the tree of `Event`'s encoding shows them: `[{"uuid": "…"}, {"date": 1.5}, …]`.
  static func tree(of draws: [RecordedDraw]) -> BinaryValue {
    .array(
      draws.map { draw in
        switch draw {
        case .uuid(let uuid): .keyed([.init(key: "uuid", value: .string(uuid.uuidString))])
        case .date(let date):
          .keyed([.init(key: "date", value: .double(date.timeIntervalSinceReferenceDate))])
        case .random(let bits): .keyed([.init(key: "random", value: .uint(bits))])
        }
      })
  }
}
