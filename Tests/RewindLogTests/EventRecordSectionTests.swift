import Foundation
import Rewind
import RewindTesting
import Testing

@testable import RewindLog

/// The record format's sections: the draws an event carries, laid out as Docs/Persistence.md says, and
/// every malformed section refused with a typed error, never a trap.
@Suite struct EventRecordSectionTests {
  private let timestamp = Date(timeIntervalSinceReferenceDate: 1.5)
  private let metadata = EventMetadata(actor: nil, source: .user, correlationID: CorrelationID(rawValue: 1))
  private let uuid = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))

  /// A record of event 1 with payload `[0]` (null) and type name "x", with `draws`; the length prefix removed.
  private func record(draws: [RecordedDraw] = []) -> [UInt8] {
    var writer = ByteWriter()
    EventRecord.append(
      codec: .binary, schemaVersion: 1, sequence: 1, timestamp: timestamp, metadata: metadata, kind: .action,
      draws: draws, to: &writer,
      payload: { writer in
        writer.u8(0)
        return nil
      },
      typeName: { _ in "x" })
    return Array(writer.bytes.dropFirst())
  }

  /// The envelope of ``record(draws:)`` up to the payload: codec `codecByte`, version 1, the timestamp,
  /// no actor, a user, its own correlation, an action, payload length 1, the payload.
  private func envelope(codecByte: UInt8) -> [UInt8] {
    [codecByte, 1] + withUnsafeBytes(of: (1.5 as Double).bitPattern.littleEndian) { Array($0) } + [
      0, 0, 0, 0, 1, 0,
    ]
  }

  private func parse(_ bytes: [UInt8]) throws(BinaryCodecError) -> EventRecord {
    try EventRecord.parse(bytes, 0..<bytes.count, sequence: 1)
  }

  @Test func aRecordWithoutDrawsIsLaidOutAsBefore() throws {
    let bytes = record()
    #expect(bytes == envelope(codecByte: 1) + Array("x".utf8))
    #expect(try parse(bytes).draws.isEmpty)
  }

  @Test func drawsFollowThePayloadInASectionFlaggedInTheCodecByte() throws {
    let draws: [RecordedDraw] = [
      .uuid(uuid), .date(timestamp), .date(Date(timeIntervalSinceReferenceDate: 2)), .random(0x0102_0304),
    ]
    let bytes = record(draws: draws)
    let section: [UInt8] =
      [4, 1] + (1...16).map { UInt8($0) } + [3, 2]
      + withUnsafeBytes(of: (2.0 as Double).bitPattern.littleEndian) { Array($0) } + [
        4, 4, 3, 2, 1, 0, 0, 0, 0,
      ]
    let expected =
      envelope(codecByte: 1 | EventRecord.sectionsFlag) + [1, 2, UInt8(section.count)] + section
      + Array("x".utf8)
    #expect(bytes == expected)
    let parsed = try parse(bytes)
    #expect(parsed.draws == draws)
    #expect(parsed.typeName == "x")
    #expect(parsed.payload == [0])
  }

  @Test func aDateDrawnAsTheEventsTimestampTakesOneByte() {
    #expect(record(draws: [.date(timestamp)]).count == record().count + 5)
    #expect(record(draws: [.date(Date(timeIntervalSinceReferenceDate: 0))]).count == record().count + 13)
  }

  /// The record with `sections` (each a tag and its bytes) written after the payload.
  private func withSections(_ sections: [(tag: UInt8, bytes: [UInt8])], count: UInt8? = nil) -> [UInt8] {
    var body: [UInt8] = [count ?? UInt8(sections.count)]
    for section in sections { body += [section.tag, UInt8(section.bytes.count)] + section.bytes }
    return envelope(codecByte: 1 | EventRecord.sectionsFlag) + body + Array("x".utf8)
  }

  @Test func aSectionALaterBuildMarksSkippableIsSkipped() throws {
    let parsed = try parse(withSections([(3, [0xAA, 0xBB]), (2, [1, 4, 1, 0, 0, 0, 0, 0, 0, 0])]))
    #expect(parsed.draws == [.random(1)])
    #expect(parsed.typeName == "x")
  }

  /// Each way a record's sections can be malformed.
  enum Refusal: String, CaseIterable, CustomTestStringConvertible {
    case unknownEvenSection = "an even section this build does not know"
    case drawsTwice = "the draws section twice"
    case moreSectionsThanBytes = "more sections than bytes"
    case unknownDrawKind = "an unknown kind of draw"
    case uuidCutShort = "a UUID cut short"
    case moreDrawsThanBytes = "more draws than bytes"
    case bytesAfterTheDraws = "bytes after the draws"
    case sectionLongerThanTheRecord = "a section longer than the record"
    case unknownCodecFlag = "an unknown codec flag"

    var testDescription: String { rawValue }
  }

  /// The malformed record of `refusal`, and the errors (by case name) that refuse it.
  private func malformed(_ refusal: Refusal) -> (bytes: [UInt8], errors: Set<String>) {
    switch refusal {
    case .unknownEvenSection: (withSections([(4, [0])]), ["mismatch"])
    case .drawsTwice: (withSections([(2, [0]), (2, [0])]), ["mismatch"])
    case .moreSectionsThanBytes: (withSections([], count: 40), ["lengthOutOfBounds"])
    case .unknownDrawKind: (withSections([(2, [1, 9])]), ["unknownTag"])
    case .uuidCutShort: (withSections([(2, [1, 1, 1, 2, 3])]), ["truncated", "lengthOutOfBounds"])
    case .moreDrawsThanBytes: (withSections([(2, [30, 4])]), ["truncated", "lengthOutOfBounds"])
    case .bytesAfterTheDraws: (withSections([(2, [0, 7])]), ["trailingBytes"])
    case .sectionLongerThanTheRecord: (envelope(codecByte: 0x41) + [1, 2, 90, 0], ["lengthOutOfBounds"])
    case .unknownCodecFlag: ([0x21] + envelope(codecByte: 1).dropFirst() + Array("x".utf8), ["unknownTag"])
    }
  }

  @Test(arguments: Refusal.allCases)
  func aMalformedSectionIsRefusedWithATypedError(_ refusal: Refusal) {
    let (bytes, errors) = malformed(refusal)
    do {
      let parsed = try parse(bytes)
      Issue.record("\(refusal.rawValue): read as \(parsed.draws.count) draws")
    } catch {
      let name = Mirror(reflecting: error).children.first?.label ?? "\(error)"
      #expect(errors.contains(name), "\(refusal.rawValue): \(error)")
    }
  }

  /// Every truncation and thousands of random byte changes of a record with draws are read or refused,
  /// never trapped on; what reads has at most as many draws as bytes.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func damagedRecordsNeverTrap(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let valid = record(draws: [.uuid(uuid), .date(timestamp), .random(7), .date(.distantPast)])
    for length in 0..<valid.count {
      _ = try? parse(Array(valid[..<length]))
    }
    for _ in 0..<3_000 {
      var bytes = valid
      for _ in 0...Int.random(in: 0..<3, using: &random) {
        bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
      }
      if let parsed = try? parse(bytes) {
        #expect(parsed.draws.count <= bytes.count, "seed \(seed)")
      }
    }
  }

  @Test func theTreeOfARecordShowsItsDraws() throws {
    let parsed = try parse(record(draws: [.uuid(uuid), .random(3)]))
    let tree = try parsed.tree(sequence: 1)
    #expect(
      tree["draws"]
        == .array([
          .keyed([.init(key: "uuid", value: .string(uuid.uuidString))]),
          .keyed([.init(key: "random", value: .uint(3))]),
        ]))
    #expect(try parse(record()).tree(sequence: 1)["draws"] == nil)
  }
}
