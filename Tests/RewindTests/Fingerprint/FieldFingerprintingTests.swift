import Foundation
import RewindTesting
import Synchronization
import Testing

@testable import Rewind

/// How many times `ListedRow.encode(to:)` ran: a fingerprint of listed rows should not run it.
private let listedRowEncodings = Atomic<Int>(0)

/// A tag of a row: a type with an `encode(to:)` of its own, listed as a nested field.
private struct Tag: Codable, Hashable, Sendable {
  var name: String
  var weight: Int16
}

/// A row that lists its fields, with every kind of field a listing takes.
private struct ListedRow: Identifiable, Codable, Equatable, Sendable, FieldFingerprinting {
  var id: Int
  var title: String
  var flag = false
  var score = 0.0
  var large: UInt64 = 0
  var small: Int64 = 0
  var note: String?
  var tags: [Tag] = []
  var counts: [String: Int] = [:]

  enum CodingKeys: String, CodingKey {
    case id, title, flag, score, large, small, note, tags, counts
  }

  func encode(to encoder: any Encoder) throws {
    listedRowEncodings.add(1, ordering: .relaxed)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(title, forKey: .title)
    try container.encode(flag, forKey: .flag)
    try container.encode(score, forKey: .score)
    try container.encode(large, forKey: .large)
    try container.encode(small, forKey: .small)
    try container.encodeIfPresent(note, forKey: .note)
    try container.encode(tags, forKey: .tags)
    try container.encode(counts, forKey: .counts)
  }

  private static let keys = (
    id: FingerprintKey("id"), title: FingerprintKey("title"), flag: FingerprintKey("flag"),
    score: FingerprintKey("score"), large: FingerprintKey("large"), small: FingerprintKey("small"),
    note: FingerprintKey("note"), tags: FingerprintKey("tags"), counts: FingerprintKey("counts")
  )

  func addFingerprintFields(to fields: inout FingerprintFields) throws {
    // Not in the encoding's order: a keyed container is digested in its keys' order.
    fields.add(Self.keys.title, title)
    fields.add(Self.keys.id, id)
    fields.add(Self.keys.flag, flag)
    fields.add(Self.keys.score, score)
    fields.add(Self.keys.large, large)
    fields.add(Self.keys.small, small)
    try fields.addIfPresent(Self.keys.note, note)
    try fields.add(Self.keys.tags, tags)
    try fields.add(Self.keys.counts, counts)
  }
}

/// The same fields as `ListedRow`, digested through `Encoder` (a synthesized encoding).
private struct EncodedRow: Identifiable, Codable, Equatable, Sendable {
  var id: Int
  var title: String
  var flag = false
  var score = 0.0
  var large: UInt64 = 0
  var small: Int64 = 0
  var note: String?
  var tags: [Tag] = []
  var counts: [String: Int] = [:]

  init(_ row: ListedRow) {
    (id, title, flag, score, large, small) = (row.id, row.title, row.flag, row.score, row.large, row.small)
    (note, tags, counts) = (row.note, row.tags, row.counts)
  }
}

/// A listing that forgets a field.
private struct ForgetfulRow: Codable, FieldFingerprinting {
  var id: Int
  var title: String

  func addFingerprintFields(to fields: inout FingerprintFields) {
    fields.add(FingerprintKey("id"), id)
  }
}

/// A listing that names a field differently from its `CodingKey`.
private struct MisnamedRow: Codable, FieldFingerprinting {
  var id: Int

  func addFingerprintFields(to fields: inout FingerprintFields) {
    fields.add(FingerprintKey("identifier"), id)
  }
}

/// A value with any number of fields, named `f0`, `f1`…: more than the stack buffer of a listing holds.
private struct ManyFieldsRow: Encodable, FieldFingerprinting {
  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  var values: [Int]

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    for (index, value) in values.enumerated() {
      try container.encode(value, forKey: Key(stringValue: "f\(index)"))
    }
  }

  func addFingerprintFields(to fields: inout FingerprintFields) {
    for (index, value) in values.enumerated().reversed() { fields.add(FingerprintKey("f\(index)"), value) }
  }
}

/// A value whose encoding fails.
private struct Unencodable: Codable, Sendable, Equatable {
  struct Refused: Error {}
  func encode(to encoder: any Encoder) throws { throw Refused() }
}

/// A listed row with a field that fails to encode when `fails`.
private struct FallibleListedRow: Identifiable, Codable, Equatable, Sendable, FieldFingerprinting {
  var id: Int
  var fails = false

  func addFingerprintFields(to fields: inout FingerprintFields) throws {
    fields.add(FingerprintKey("id"), id)
    if fails { try fields.add(FingerprintKey("value"), Unencodable()) }
  }
}

@Suite(.serialized) struct FieldFingerprintingTests {
  /// A random row: strings across the word boundaries and beyond ASCII, optionals both ways, extreme
  /// integers, signed zeros and NaN, nested values and dictionaries.
  private static func randomRow(_ id: Int, _ random: inout SplitMix64) -> ListedRow {
    let alphabet = Array("ab é😀\u{301}z")
    let length = Int.random(in: 0...40, using: &random)
    let title = String((0..<length).map { _ in alphabet.randomElement(using: &random) ?? "a" })
    let scores: [Double] = [0, -0.0, .nan, 1.5, -.infinity, .greatestFiniteMagnitude]
    var row = ListedRow(id: id, title: title)
    row.flag = Bool.random(using: &random)
    row.score = scores.randomElement(using: &random) ?? 0
    row.large = [0, 1, UInt64(Int64.max), UInt64(Int64.max) + 1, .max].randomElement(using: &random) ?? 0
    row.small = [Int64.min, -1, 0, .max].randomElement(using: &random) ?? 0
    row.note = Bool.random(using: &random) ? nil : String(title.reversed())
    row.tags = (0..<Int.random(in: 0...3, using: &random)).map {
      Tag(name: "tag \($0)", weight: Int16.random(in: .min ... .max, using: &random))
    }
    if Bool.random(using: &random) { row.counts = ["a": 1, "b": id, "c": -id] }
    return row
  }

  @Test(arguments: [1, 2, 2026] as [UInt64])
  func listedFieldsGiveTheEncodingsFingerprint(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    for id in 0..<500 {
      let row = Self.randomRow(id, &random)
      #expect(try StateFingerprint.fieldsMatchEncoding(of: row), "\(row)")
      #expect(try StateFingerprint.of(row) == StateFingerprint.of(EncodedRow(row)), "\(row)")
    }
  }

  /// Up to 32 fields stay on the stack; more go to an array: both digest as the encoding does.
  @Test(arguments: [0, 1, 16, 17, 31, 32, 33, 100])
  func anyNumberOfFieldsGivesTheEncodingsFingerprint(count: Int) throws {
    let row = ManyFieldsRow(values: (0..<count).map { $0 * 7 - 50 })
    #expect(try StateFingerprint.fieldsMatchEncoding(of: row))
  }

  @Test func aListingThatDisagreesWithTheEncodingIsFound() throws {
    #expect(try !StateFingerprint.fieldsMatchEncoding(of: ForgetfulRow(id: 1, title: "a")))
    #expect(try !StateFingerprint.fieldsMatchEncoding(of: MisnamedRow(id: 1)))
  }

  /// A list of listed rows digests each row by its fields, never by `encode(to:)`, and fingerprints as the
  /// same list digested through `Encoder` does, after every kind of edit (in place, reshaping, on a kept
  /// version).
  @Test func aListOfListedRowsNeverEncodesARowAndFingerprintsAsTheEncodedList() throws {
    var random = SplitMix64(seed: 7)
    var listed = IdentifiedArray(uniqueElements: (0..<5_000).map { Self.randomRow($0, &random) })
    func check(_ comment: Comment) throws {
      let before = listedRowEncodings.load(ordering: .relaxed)
      let fingerprint = try StateFingerprint.of(listed)
      #expect(listedRowEncodings.load(ordering: .relaxed) == before, comment)
      #expect(fingerprint == (try StateFingerprint.of(listed.map(EncodedRow.init))), comment)
      listed._checkInvariants()
    }
    try check("the first fingerprint")
    for id in [3, 4, 4_999] { listed[id: id]?.title += " edited" }
    try check("edited in place")
    listed.insert(Self.randomRow(-1, &random), at: 10)
    listed.remove(id: 2_000)
    try check("reshaped")
    let kept = listed
    listed[id: 1_000]?.note = nil
    try check("a kept version's copy")
    #expect(try StateFingerprint.of(kept) == StateFingerprint.of(kept.map(EncodedRow.init)))
  }

  /// A field that fails to encode fails the fingerprint of its list with its error, caches nothing above
  /// it, and a fingerprint after the row is fixed succeeds with the encoded list's value.
  @Test func aFailingFieldFailsTheFingerprintAndCachesNothing() throws {
    var rows = IdentifiedArray(uniqueElements: (0..<1_000).map { FallibleListedRow(id: $0) })
    _ = try StateFingerprint.of(rows)
    rows[id: 500]?.fails = true
    #expect(throws: Unencodable.Refused.self) { try StateFingerprint.of(rows) }
    #expect(throws: Unencodable.Refused.self) { try StateFingerprint.of(rows) }
    rows[id: 500]?.fails = false
    let fingerprint = try StateFingerprint.of(rows)
    #expect(fingerprint == (try StateFingerprint.of(Array(rows))))
    rows._checkInvariants()
  }
}
