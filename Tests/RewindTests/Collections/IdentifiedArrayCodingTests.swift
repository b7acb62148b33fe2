import Foundation
import Testing

@testable import Rewind

/// The row of the encoding fixtures below.
struct FixtureRow: Identifiable, Codable, Equatable, Sendable {
  var id: Int
  var title: String
  var flag: Bool
}

/// Bytes written by IdentifiedArray before it was persistent (main at ea8643e, where it held an array and a
/// dictionary): logs and snapshots written then must load, and what is written now must be the same.
enum EncodedFixtures {
  static let rows = [
    FixtureRow(id: 3, title: "Third", flag: false), FixtureRow(id: 1, title: "First ✓", flag: true),
    FixtureRow(id: 2, title: "", flag: false),
  ]
  /// `JSONEncoder` with `.sortedKeys`.
  static let json =
    #"[{"flag":false,"id":3,"title":"Third"},{"flag":true,"id":1,"title":"First ✓"},{"flag":false,"id":2,"title":""}]"#
  /// `PropertyListEncoder` with the binary format, in Base64.
  static let binaryPropertyList =
    "YnBsaXN0MDCjAQgM0wIDBAUGB1JpZFV0aXRsZVRmbGFnEANVVGhpcmQI0wIDBAkKCxABZwBGAGkAcgBzAHQAICcTCdMCAwQNDgcQAlAIDBMWHCEjKSoxM0JDSkwAAAAAAAABAQAAAAAAAAAPAAAAAAAAAAAAAAAAAAAATQ=="
}

@Suite struct IdentifiedArrayCodingTests {
  @Test func decodesWhatTheEarlierVersionWrote() throws {
    let fromJSON = try JSONDecoder().decode(
      IdentifiedArray<FixtureRow>.self, from: Data(EncodedFixtures.json.utf8))
    #expect(Array(fromJSON) == EncodedFixtures.rows)
    #expect(fromJSON.index(id: 2) == 2)
    let plist = try #require(Data(base64Encoded: EncodedFixtures.binaryPropertyList))
    let fromPlist = try PropertyListDecoder().decode(IdentifiedArray<FixtureRow>.self, from: plist)
    #expect(Array(fromPlist) == EncodedFixtures.rows)
  }

  @Test func writesWhatTheEarlierVersionWrote() throws {
    let rows = IdentifiedArray(uniqueElements: EncodedFixtures.rows)
    let json = JSONEncoder()
    json.outputFormatting = .sortedKeys
    #expect(String(decoding: try json.encode(rows), as: UTF8.self) == EncodedFixtures.json)
    let plist = PropertyListEncoder()
    plist.outputFormat = .binary
    #expect(try plist.encode(rows).base64EncodedString() == EncodedFixtures.binaryPropertyList)
    // A PersistentArray is written as an array too.
    #expect(String(decoding: try json.encode(rows.elements), as: UTF8.self) == EncodedFixtures.json)
  }

  @Test func largeCollectionsRoundTripAndMatchArrays() throws {
    let rows = (0..<5_000).map {
      FixtureRow(id: $0 * 7 % 5_003, title: "row \($0)", flag: $0.isMultiple(of: 3))
    }
    let array = IdentifiedArray(uniqueElements: rows)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let encoded = try encoder.encode(array)
    #expect(encoded == (try encoder.encode(rows)))
    let decoded = try JSONDecoder().decode(IdentifiedArray<FixtureRow>.self, from: encoded)
    #expect(decoded == array)
    decoded._checkInvariants()
    let persistent = try JSONDecoder().decode(PersistentArray<FixtureRow>.self, from: encoded)
    #expect(Array(persistent) == rows)
  }

  @Test func aRepeatedIdIsADecodingErrorNamingIt() {
    let duplicated = Data(#"[{"id":1,"title":"a","flag":false},{"id":1,"title":"b","flag":true}]"#.utf8)
    #expect {
      _ = try JSONDecoder().decode(IdentifiedArray<FixtureRow>.self, from: duplicated)
    } throws: { error in
      guard case DecodingError.dataCorrupted(let context) = error else { return false }
      return context.debugDescription == "duplicate id 1"
    }
  }
}
