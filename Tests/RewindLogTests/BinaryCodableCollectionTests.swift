import Foundation
import Rewind
import RewindTesting
import Testing

@testable import RewindLog

/// The `BinaryCodable` conformances of the standard values and of Rewind's state collections: each writes
/// what `Codable` writes through `BinaryEncoder`, reads back what it wrote and what `Codable` wrote, and
/// refuses what its `Codable` decoding refuses.
@Suite struct BinaryCodableCollectionTests {
  /// `value` writes the bytes `Codable` writes, and both readers read them back.
  func expectInterchangeable<T: BinaryCodable & Codable & Equatable>(
    _ value: T, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let binary = value.binaryEncoded
    #expect(binary == (try BinaryEncoder().encode(value)), "\(T.self)", sourceLocation: sourceLocation)
    #expect(try T(binaryEncoded: binary) == value, "\(T.self)", sourceLocation: sourceLocation)
    #expect(
      try BinaryDecoder().decode(T.self, from: binary) == value, "\(T.self)", sourceLocation: sourceLocation)
  }

  @Test func standardValues() throws {
    try expectInterchangeable(true)
    try expectInterchangeable(-42)
    try expectInterchangeable(Int64.min)
    try expectInterchangeable(Int32.max)
    try expectInterchangeable(UInt64.max)
    try expectInterchangeable(UInt32(7))
    try expectInterchangeable(UInt(9))
    try expectInterchangeable(3.25)
    try expectInterchangeable(Float(1.5))
    try expectInterchangeable("a title longer than fifteen bytes, é ✓")
    try expectInterchangeable(Date(timeIntervalSinceReferenceDate: 12_345.5))
    try expectInterchangeable(UUID())
    try expectInterchangeable([1, 2, 3])
    try expectInterchangeable([[String]]([["a"], [], ["b", "c"]]))
    try expectInterchangeable([String?]([nil, "x"]))
  }

  @Test func persistentCollectionsOfEverySize() throws {
    for count in [0, 1, 2, 31, 32, 33, 64, 65, 1_000, 5_000] {
      let rows = (0..<count).map { ListRow(id: $0 * 3 - 7, title: "row \($0)", done: $0 % 2 == 0) }
      let identified = IdentifiedArray(uniqueElements: rows)
      try expectInterchangeable(identified)
      // Built bottom-up, the same collection: every id found, every position right.
      let decoded = try IdentifiedArray<ListRow>(binaryEncoded: identified.binaryEncoded)
      for (position, row) in rows.enumerated() {
        #expect(decoded.index(id: row.id) == position && decoded[id: row.id] == row)
      }
      #expect(decoded.index(id: 1 << 40) == nil)
      let array = PersistentArray(rows.map(\.title))
      try expectInterchangeable(array)
    }
  }

  /// Ids in any order (the id index is then sorted), as `Codable` decoding builds them.
  @Test func idsOutOfOrder() throws {
    var random = SplitMix64(seed: 12)
    var ids = Array(0..<3_000)
    ids.shuffle(using: &random)
    let rows = ids.map { ListRow(id: $0, title: "\($0)") }
    let decoded = try IdentifiedArray<ListRow>(
      binaryEncoded: IdentifiedArray(uniqueElements: rows).binaryEncoded)
    #expect(Array(decoded) == rows)
    for (position, id) in ids.enumerated() where position % 7 == 0 {
      #expect(decoded.index(id: id) == position)
    }
    // String ids, ordered by hash.
    let names = IdentifiedArray(uniqueElements: (0..<500).map { Named(id: "name \($0)") })
    #expect(try IdentifiedArray<Named>(binaryEncoded: names.binaryEncoded) == names)
  }

  @Test func aRepeatedIdIsRefused() throws {
    let rows = [ListRow(id: 1, title: "a"), ListRow(id: 2, title: "b"), ListRow(id: 1, title: "c")]
    let bytes = try BinaryEncoder().encode(rows)
    #expect(throws: BinaryCodecError.self) { _ = try IdentifiedArray<ListRow>(binaryEncoded: bytes) }
    #expect(throws: DecodingError.self) {
      _ = try BinaryDecoder().decode(IdentifiedArray<ListRow>.self, from: bytes)
    }
  }

  /// A count claiming more rows than the bytes hold is refused before any row is read.
  @Test func aCountPastTheBytesIsRefused() throws {
    var bytes = IdentifiedArray(uniqueElements: [ListRow(id: 1, title: "a")]).binaryEncoded
    var huge = ByteWriter()
    huge.varint(1 << 50)
    bytes.replaceSubrange(1..<2, with: huge.bytes)
    #expect(throws: BinaryCodecError.lengthOutOfBounds(offset: 1)) {
      _ = try IdentifiedArray<ListRow>(binaryEncoded: bytes)
    }
  }

  @Test func navigationStates() throws {
    var stack = StackState<ListRow>()
    try expectInterchangeable(stack)
    for id in 0..<5 { stack.push(ListRow(id: id, title: "screen \(id)")) }
    stack.popLast()
    stack.push(ListRow(id: 9, title: "last"))
    try expectInterchangeable(stack)

    var sheet = PresentationState<ListRow>()
    try expectInterchangeable(sheet)
    sheet.present(ListRow(id: 1, title: "one"))
    sheet.present(ListRow(id: 2, title: "two"))
    try expectInterchangeable(sheet)
    sheet.dismiss()
    try expectInterchangeable(sheet)
    try expectInterchangeable(PresentationState<ListRow>?.none)
  }

  /// What `Codable` decoding refuses of navigation state, reading it directly refuses too.
  @Test func inconsistentNavigationStateIsRefused() throws {
    var writer = BinaryWriter()
    writer.keyed(count: 2)
    writer.key("entries")
    writer.array(count: 2)
    for id in [3, 2] as [UInt64] {
      writer.keyed(count: 2)
      writer.key("id")
      writer.encode(StackElementID(rawValue: id))
      writer.key("element")
      writer.encode(ListRow(id: Int(id), title: ""))
    }
    writer.key("nextID")
    writer.encode(StackElementID(rawValue: 9))
    let bytes = writer.bytes
    #expect(throws: BinaryCodecError.self) { _ = try StackState<ListRow>(binaryEncoded: bytes) }
    #expect(throws: DecodingError.self) {
      _ = try BinaryDecoder().decode(StackState<ListRow>.self, from: bytes)
    }

    var sheet = BinaryWriter()
    sheet.keyed(count: 3)
    sheet.key("presentationCount")
    sheet.uint(1)
    sheet.key("id")
    sheet.encode(PresentationID(rawValue: 4))
    sheet.key("presented")
    sheet.encode(ListRow(id: 1, title: ""))
    #expect(throws: BinaryCodecError.self) { _ = try PresentationState<ListRow>(binaryEncoded: sheet.bytes) }
    #expect(throws: DecodingError.self) {
      _ = try BinaryDecoder().decode(PresentationState<ListRow>.self, from: sheet.bytes)
    }
  }
}

/// A row whose id is a string.
private struct Named: Identifiable, Codable, Equatable, BinaryCodable {
  var id: String

  func encode(to writer: inout BinaryWriter) { writer.string(id) }
  init(id: String) { self.id = id }
  init(from reader: inout BinaryReader) throws { id = try reader.string() }
  init(from decoder: any Decoder) throws { id = try String(from: decoder) }
  func encode(to encoder: any Encoder) throws { try id.encode(to: encoder) }
}
