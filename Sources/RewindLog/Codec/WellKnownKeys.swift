/// Field names common to every event, written as one-byte references instead of strings.
///
/// A key in a keyed value is a varint `k` followed, when `k` is even, by `k / 2` bytes of UTF-8; when `k`
/// is odd, it names entry `k / 2` of this table. The table is part of the format: entries are only ever
/// appended, never changed, so any reader can show any event without the app's types.
enum WellKnownKeys {
  static let table: [String] = [
    "sequence", "timestamp", "metadata", "action", "actor", "source", "correlationID", "user", "effect",
    "cause", "system", "payload", "id", "value", "rawValue", "_0", "_1", "_2", "name", "title", "text",
    "index", "count", "items", "state", "date", "kind", "type",
  ]

  /// Table indices grouped by key length, so finding a key costs a few comparisons and no hashing.
  private static let byLength: [[Int]] = {
    var groups = [[Int]](repeating: [], count: 16)
    for (index, key) in table.enumerated() where key.utf8.count < 16 { groups[key.utf8.count].append(index) }
    return groups
  }()

  static func index(of key: String) -> Int? {
    let length = key.utf8.count
    guard length < byLength.count else { return nil }
    for index in byLength[length] where table[index] == key { return index }
    return nil
  }
}

extension ByteWriter {
  /// Writes a field name: a reference to ``WellKnownKeys`` when it is one, else the string.
  mutating func key(_ key: String) {
    if let index = WellKnownKeys.index(of: key) {
      varint(UInt64(index) << 1 | 1)
      return
    }
    var key = key
    key.withUTF8 { utf8 in
      varint(UInt64(utf8.count) << 1)
      bytes.append(contentsOf: utf8)
    }
  }
}

extension ByteReader {
  /// Reads what ``ByteWriter/key(_:)`` writes.
  mutating func key() throws(BinaryCodecError) -> String {
    let start = offset
    let header = try varint()
    if header & 1 == 1 {
      let index = header >> 1
      guard index < UInt64(WellKnownKeys.table.count) else { throw .unknownKey(index: index, offset: start) }
      return WellKnownKeys.table[Int(index)]
    }
    let count = header >> 1
    guard count <= UInt64(remaining) else { throw .lengthOutOfBounds(offset: start) }
    let slice = try bytes(Int(count))
    guard let text = String(validating: slice, as: UTF8.self) else { throw .invalidUTF8(offset: start) }
    return text
  }
}
