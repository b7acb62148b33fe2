import Rewind
import RewindLog
import Testing

/// A row of a list in a state, as events and snapshots hold them.
private struct LoggedRow: Identifiable, Codable, Equatable, Sendable {
  var id: Int
  var title: String
  var flag: Bool
}

private struct Box: Codable, Equatable, Sendable {
  var rows: IdentifiedArray<LoggedRow>
  var name: String
}

/// The log's binary codec reads what IdentifiedArray wrote before it was persistent (main at ea8643e) and
/// writes the same bytes now, so existing logs and snapshots load.
@Suite struct IdentifiedArrayCodecTests {
  private let rows = [
    LoggedRow(id: 3, title: "Third", flag: false), LoggedRow(id: 1, title: "First ✓", flag: true),
    LoggedRow(id: 2, title: "", flag: false),
  ]
  private let earlierBytes: [UInt8] = [
    9, 2, 8, 114, 111, 119, 115, 8, 3, 9, 3, 25, 3, 6, 39, 7, 5, 84, 104, 105, 114, 100, 8, 102, 108, 97, 103,
    1,
    9, 3, 25, 3, 2, 39, 7, 9, 70, 105, 114, 115, 116, 32, 226, 156, 147, 8, 102, 108, 97, 103, 2, 9, 3, 25, 3,
    4,
    39, 7, 0, 8, 102, 108, 97, 103, 1, 37, 7, 3, 98, 111, 120,
  ]

  @Test func readsAndWritesTheEarlierBytes() throws {
    let box = Box(rows: IdentifiedArray(uniqueElements: rows), name: "box")
    #expect(try BinaryEncoder().encode(box) == earlierBytes)
    let decoded = try BinaryDecoder().decode(Box.self, from: earlierBytes)
    #expect(decoded == box)
    #expect(decoded.rows.index(id: 1) == 1)
  }

  @Test func aLargeListRoundTripsAsAnArrayWould() throws {
    let many = (0..<3_000).map { LoggedRow(id: 3_000 - $0, title: "row \($0)", flag: $0 % 5 == 0) }
    let identified = IdentifiedArray(uniqueElements: many)
    let bytes = try BinaryEncoder().encode(identified)
    #expect(bytes == (try BinaryEncoder().encode(many)))
    #expect(try BinaryDecoder().decode(IdentifiedArray<LoggedRow>.self, from: bytes) == identified)
  }
}
