import Foundation
import RewindTesting
import Testing

@testable import Rewind

/// A row of an app-shaped list.
private struct Row: Identifiable, Codable, Equatable, Sendable {
  var id: Int
  var title: String
  var flag = false
}

/// The same fields as `Row`, declared in another order.
private struct ReorderedRow: Codable {
  var flag = false
  var title: String
  var id: Int
}

private struct Narrow: Codable, Hashable { var value: Int32 }
private struct Wide: Codable { var value: Int64 }

@Suite struct StateFingerprintTests {
  // MARK: The canonical encoding

  @Test func equalValuesHaveEqualFingerprintsAndDifferentOnesDiffer() throws {
    let row = Row(id: 3, title: "Lunch on Friday?")
    #expect(try StateFingerprint.of(row) == StateFingerprint.of(Row(id: 3, title: "Lunch on Friday?")))
    #expect(try StateFingerprint.of(row) != StateFingerprint.of(Row(id: 3, title: "Lunch on Friday!")))
    #expect(try StateFingerprint.of(row) != StateFingerprint.of(Row(id: 4, title: "Lunch on Friday?")))
    #expect(
      try StateFingerprint.of(row) != StateFingerprint.of(Row(id: 3, title: "Lunch on Friday?", flag: true)))
    // Values of different kinds never share a fingerprint, even when their bits agree.
    #expect(try StateFingerprint.of(1) != StateFingerprint.of(true))
    #expect(try StateFingerprint.of(0) != StateFingerprint.of(0.0))
    #expect(try StateFingerprint.of("") != StateFingerprint.of([String]()))
    #expect(try StateFingerprint.of([1, 2]) != StateFingerprint.of([2, 1]))
    #expect(try StateFingerprint.of([[1], [2]]) != StateFingerprint.of([[1, 2]]))
  }

  @Test func fieldOrderAndIntegerWidthAreNotPartOfTheValue() throws {
    #expect(
      try StateFingerprint.of(Row(id: 1, title: "a")) == StateFingerprint.of(ReorderedRow(title: "a", id: 1)))
    #expect(try StateFingerprint.of(Narrow(value: -5)) == StateFingerprint.of(Wide(value: -5)))
    #expect(try StateFingerprint.of(UInt8(7)) == StateFingerprint.of(7))
    #expect(try StateFingerprint.of(UInt64.max) != StateFingerprint.of(Int64(-1)))
    #expect(try StateFingerprint.of(Int128(42)) == StateFingerprint.of(42))
    #expect(try StateFingerprint.of(Int128(1) << 70) != StateFingerprint.of(Int128(1) << 71))
  }

  @Test func zerosAndNaNsAreCanonical() throws {
    #expect(try StateFingerprint.of(-0.0) == StateFingerprint.of(0.0))
    #expect(try StateFingerprint.of(Double.nan) == StateFingerprint.of(-Double.nan))
    #expect(try StateFingerprint.of(Float(1.5)) == StateFingerprint.of(1.5))
    #expect(try StateFingerprint.of(1.0) != StateFingerprint.of(1.0000000000000002))
  }

  @Test func dictionariesAndSetsDoNotDependOnTheirHashOrder() throws {
    var random = SplitMix64(seed: 11)
    let keys = (0..<300).map { _ in Int.random(in: 0..<1_000_000, using: &random) }
    var forward: [Int: String] = [:]
    for key in keys { forward[key] = "value \(key)" }
    var backward: [Int: String] = [:]
    backward.reserveCapacity(4_096)  // another capacity: another iteration order
    for key in keys.reversed() { backward[key] = "value \(key)" }
    #expect(Array(forward.keys) != Array(backward.keys), "the two iterate in different orders")
    #expect(try StateFingerprint.of(forward) == StateFingerprint.of(backward))
    backward[keys[0]] = "changed"
    #expect(try StateFingerprint.of(forward) != StateFingerprint.of(backward))
    let words = Set(keys.map(String.init))
    var other = Set<String>(minimumCapacity: 2_048)
    for key in keys.reversed() { other.insert(String(key)) }
    #expect(try StateFingerprint.of(words) == StateFingerprint.of(other))
    // Keyed by a struct: encoded as an unkeyed array of keys and values in hash order.
    var byRow: [Narrow: Int] = [:]
    for key in keys.prefix(50) { byRow[Narrow(value: Int32(key % 100_000))] = key }
    var byRowAgain: [Narrow: Int] = [:]
    byRowAgain.reserveCapacity(1_000)
    for key in keys.prefix(50).reversed() { byRowAgain[Narrow(value: Int32(key % 100_000))] = key }
    #expect(try StateFingerprint.of(byRow) == StateFingerprint.of(byRowAgain))
  }

  @Test func persistentCollectionsAreTheirElements() throws {
    let rows = (0..<2_000).map { Row(id: $0, title: "Row \($0): a title of a row") }
    let array = try StateFingerprint.of(rows)
    #expect(try StateFingerprint.of(IdentifiedArray(uniqueElements: rows)) == array)
    #expect(try StateFingerprint.of(PersistentArray(rows)) == array)
    // Built another way (one by one, with a detour), the tree has another shape and the same elements.
    var built = IdentifiedArray<Row>()
    for row in rows.reversed() { built.insert(row, at: 0) }
    built.append(Row(id: -1, title: "temporary"))
    built.remove(id: -1)
    #expect(try StateFingerprint.of(built) == array)
    built[id: 700]?.flag = true
    #expect(try StateFingerprint.of(built) != array)
  }

  @Test func aValueWhoseEncodingConflictsIsAnError() {
    struct Conflicting: Encodable {
      func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(1)
        var keyed = encoder.container(keyedBy: AnyKey.self)
        try keyed.encode(2, forKey: AnyKey(stringValue: "a"))
      }
    }
    #expect(throws: EncodingError.self) { try StateFingerprint.of(Conflicting()) }
  }

  /// Fingerprints are recorded in logs: the algorithm is part of the format. These values must never
  /// change (a change needs a new fingerprint algorithm version).
  @Test func knownAnswers() throws {
    let zero = try StateFingerprint.of(0).description
    #expect(zero == "5daf83a95a9f1d9cd547321f5a76ba3c")
    let text = try StateFingerprint.of("Lunch on Friday?").description
    #expect(text == "8961718ef33653a4e86e82f5a05d2cfc")
    let row = try StateFingerprint.of(Row(id: 3, title: "x")).description
    #expect(row == "3d358346a7123042dc188e6aade352e7")
    let rows = try StateFingerprint.of(
      IdentifiedArray(uniqueElements: (0..<100).map { Row(id: $0, title: "\($0)") }))
    #expect(rows.description == "6739c9cb5f9f9777c008f394ae3333e0")
  }

  @Test func hexadecimalAndBytesRoundTrip() throws {
    let fingerprint = try StateFingerprint.of(Row(id: 9, title: "nine"))
    #expect(StateFingerprint(hexadecimal: fingerprint.description) == fingerprint)
    #expect(StateFingerprint(bytes: fingerprint.bytes) == fingerprint)
    #expect(StateFingerprint(hexadecimal: fingerprint.description.uppercased()) == fingerprint)
    #expect(StateFingerprint(hexadecimal: "xyz") == nil)
    #expect(StateFingerprint(hexadecimal: String(repeating: "g", count: 32)) == nil)
    #expect(StateFingerprint(bytes: [1, 2, 3]) == nil)
    #expect(fingerprint.short.count == 8)
  }

  // MARK: The arithmetic

  @Test func multiplicationModuloThePrimeIsExact() {
    var random = SplitMix64(seed: 5)
    let prime = DigestLanes.prime
    var values: [UInt64] = [0, 1, 2, prime - 1, prime - 2, 1 << 60, (1 << 60) + 1]
    for _ in 0..<2_000 { values.append(UInt64.random(in: 0..<prime, using: &random)) }
    for (a, b) in zip(values, values.reversed()) {
      let expected = UInt64((UInt128(a) * UInt128(b)) % UInt128(prime))
      #expect(DigestLanes.multiply(a, b) == expected, "\(a) × \(b)")
      #expect(DigestLanes.add(a, b) == UInt64((UInt128(a) + UInt128(b)) % UInt128(prime)))
    }
    for value in [UInt64.max, UInt64.max - 1, prime, prime + 1, 1 << 63] {
      #expect(DigestLanes.reduce(value) == value % prime)
    }
  }

  @Test(arguments: [1, 2, 3, 99])
  func lanesOfAConcatenationAreTheLanesOfItsParts(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    for _ in 0..<50 {
      let words = (0..<Int.random(in: 0...40, using: &random)).map { _ in
        UInt64.random(in: .min ... .max, using: &random)
      }
      var whole = DigestLanes()
      for word in words { whole.absorb(word) }
      // Split into up to four parts at random points, absorbed separately and appended.
      var cuts = (0..<3).map { _ in Int.random(in: 0...words.count, using: &random) }.sorted()
      cuts = [0] + cuts + [words.count]
      var joined = DigestLanes()
      for (start, end) in zip(cuts, cuts.dropFirst()) {
        var part = DigestLanes()
        for word in words[start..<end] { part.absorb(word) }
        joined.append(part)
      }
      #expect(joined == whole, "seed \(seed): words \(words.count), cuts \(cuts)")
    }
  }
}

/// A coding key made from any string.
struct AnyKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}
