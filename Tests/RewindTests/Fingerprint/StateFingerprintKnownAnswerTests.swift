import Foundation
import RewindTesting
import Testing

@testable import Rewind

/// A value of every shape the canonical encoding distinguishes: keyed, unkeyed, nested, optional, an enum
/// with associated values, a dictionary, a set, a persistent collection of several levels.
private struct Shapes: Codable {
  enum Kind: Codable { case plain, labelled(index: Int, name: String), unlabelled(Double, Bool?) }
  struct Item: Identifiable, Codable, Sendable { var id: Int; var title: String; var done = false }

  var kinds: [Kind] = [
    .plain, .labelled(index: -3, name: "Thé"), .unlabelled(-0.0, nil), .unlabelled(.nan, true),
  ]
  var optional: String? = nil
  var nested: [[UInt8]] = [[], [1, 2, 3], [255]]
  var counts: [String: Int] = ["b": 1, "a": 2, "": 0]
  var tags: Set<String> = ["x", "yz", "🙂"]
  var items = IdentifiedArray(uniqueElements: (0..<1_500).map { Item(id: $0, title: "Item \($0): a title") })
  var values = PersistentArray((0..<700).map { Int64($0) &* -7_919 })
}

/// A value whose keys come from its data, as a dictionary-like type's custom encoding writes them.
private struct DynamicKeyed: Encodable {
  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  var fields: [(String, Int)]

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    for (name, value) in fields { try container.encode(value, forKey: Key(stringValue: name)) }
  }
}

/// Fingerprints are part of the log format (algorithm 1): whatever makes computing them faster must give
/// these values, for scalars at every length boundary of the string and word encodings and for nested
/// shapes, unchanged.
@Suite struct StateFingerprintKnownAnswerTests {
  @Test func scalarsAtEveryBoundary() throws {
    var answers: [String] = []
    for length in [0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33] {
      answers.append(try StateFingerprint.of(String(repeating: "a", count: length)).description)
    }
    answers.append(try StateFingerprint.of("é🙂\u{0}z").description)
    answers.append(try StateFingerprint.of(Int64.min).description)
    answers.append(try StateFingerprint.of(UInt64.max).description)
    answers.append(try StateFingerprint.of(Int128(1) << 100).description)
    answers.append(try StateFingerprint.of(-0.0).description)
    answers.append(try StateFingerprint.of(Float(1.5)).description)
    answers.append(try StateFingerprint.of(Optional<Int>.none).description)
    answers.append(try StateFingerprint.of(true).description)
    #expect(
      answers == [
        "34a7bd3132b5553e3be9a692e4a8a805",
        "947bbd590126718ebaefd7da2e8664c9",
        "fab01a75860572a1af9e18792b67e0f5",
        "cd863fbfaaf8bfdf47269e58c9777831",
        "47167f578fc3995c6bcbc11884d0f943",
        "2caef4893869dfa663a232a4f5883f53",
        "07baafa74343b6c1a03dde6a5ccbf292",
        "c8a3d4c0ffee6071f7b541592192fd2a",
        "074a1fc22be231f5c7decb2aa5b97a8b",
        "ce0934da951d9751be99a7a903b274c6",
        "f177db225b12e17178d104b9f6dfee5f",
        "d2ec39cba562359d9d6b7695b310236c",
        "56298b884029194041638ebd3805c7d1",
        "364ec336357da06709d78ea8e18f2733",
        "091756a86c2e70aa8a9cbc6de1c22231",
        "f0d50c943ab27fb4b885c3bd13ae6b84",
        "b1206b16ff134e96a08c4650ea17e920",
        "e220a8397b1dcdaf45cec29cd9a24e4b",
        "ef633954bf5ace28ae679118e23ef200",
      ])
  }

  /// Field names are digested by their bytes: two canonically equivalent names (equal as `String`s) are
  /// different keys, wherever they meet in one fingerprint (the name cache once matched them by `==`).
  @Test func equivalentButDifferentKeysKeepTheirOwnDigests() throws {
    let composed = DynamicKeyed(fields: [("caf\u{E9}", 1)])
    let decomposed = DynamicKeyed(fields: [("cafe\u{301}", 1)])
    #expect(try StateFingerprint.of(composed) != StateFingerprint.of(decomposed))
    var lanes = DigestLanes()
    CanonicalValue.append(element: try StateFingerprint.of(composed), to: &lanes)
    CanonicalValue.append(element: try StateFingerprint.of(decomposed), to: &lanes)
    #expect(try StateFingerprint.of([composed, decomposed]) == CanonicalValue.sequence(lanes))
    let list = PersistentArray([composed, decomposed])
    #expect(try StateFingerprint.of(list) == CanonicalValue.sequence(lanes))
  }

  /// Many fields (past the insertion sort's range) give one fingerprint in any order.
  @Test func manyFieldsInAnyOrder() throws {
    var random = SplitMix64(seed: 12)
    let fields = (0..<40).map { ("field \($0)", $0) }
    let expected = try StateFingerprint.of(DynamicKeyed(fields: fields))
    for _ in 0..<5 {
      #expect(try StateFingerprint.of(DynamicKeyed(fields: fields.shuffled(using: &random))) == expected)
    }
    // What algorithm 1 gave before the faster digest (checked on a build of 01d5079).
    #expect(expected.description == "46b2038a72756b13b745b360891108de")
  }

  @Test func nestedShapes() throws {
    let fingerprint = try StateFingerprint.of(Shapes())
    #expect(fingerprint.description == "575fe80c30c95537f79a5f2cedc73833")
    var edited = Shapes()
    edited.items[id: 1_234]?.done = true
    let editedFingerprint = try StateFingerprint.of(edited)
    #expect(editedFingerprint.description == "94080ef0bf2aa96f38ed6aa9e8f16c17")
  }
}
