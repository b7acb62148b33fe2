import Foundation
import Rewind
import RewindTestSupport
import Testing

@testable import RewindLog

struct Sample: Codable, Equatable {
  enum Kind: Codable, Equatable {
    case plain
    case tagged(String, count: Int)
  }

  var name: String
  var small: Int8
  var big: UInt64
  var negative: Int64
  var ratio: Double
  var float: Float
  var flag: Bool
  var optional: String?
  var present: Int?
  var list: [Int]
  var nested: [[String]]
  var map: [String: Int]
  var kinds: [Kind]
  var date: Date
  var data: Data
}

@Suite struct CodecTests {
  let sample = Sample(
    name: "héllo ✓", small: -128, big: .max, negative: .min, ratio: -0.5, float: 3.25, flag: true,
    optional: nil,
    present: 42, list: [1, -2, 300_000], nested: [[], ["a", "b"]], map: ["x": 1, "y": -1],
    kinds: [.plain, .tagged("t", count: 9)], date: Date(timeIntervalSince1970: 1_700_000_000.25),
    data: Data([0, 1, 255]))

  @Test func roundTripsEveryKindOfValue() throws {
    let bytes = try BinaryEncoder().encode(sample)
    #expect(try BinaryDecoder().decode(Sample.self, from: bytes) == sample)
  }

  @Test func eventsRoundTripAndShowAsATreeWithoutTheirTypes() throws {
    let original = event(3)
    let bytes = try BinaryEncoder().encode(original)
    #expect(try BinaryDecoder().decode(Event<Note>.self, from: bytes) == original)
    let tree = try BinaryValue.decode(bytes)
    guard case .keyed(let fields) = tree else {
      Issue.record("expected a keyed value, got \(tree)")
      return
    }
    #expect(fields.map(\.key).contains("metadata"))
    #expect(tree.description.contains("sequence: 3"))
  }

  @Test func wrongShapesThrowInsteadOfTrapping() throws {
    let bytes = try BinaryEncoder().encode(["a": 300])
    #expect(throws: DecodingError.self) { try BinaryDecoder().decode([String: Int8].self, from: bytes) }
    #expect(throws: DecodingError.self) { try BinaryDecoder().decode(Sample.self, from: bytes) }
    #expect(throws: (any Error).self) {
      try BinaryDecoder().decode(UInt.self, from: try BinaryEncoder().encode(-1))
    }
  }

  @Test func depthIsBounded() {
    var bytes = [UInt8](repeating: 8, count: 10_000)  // arrays of one array of …
    for index in bytes.indices where index % 2 == 1 { bytes[index] = 1 }
    #expect(throws: BinaryCodecError.self) { try BinaryValue.decode(bytes) }
  }

  @Test func hugeLengthsAreRefusedBeforeAllocating() {
    // An array claiming 2^62 elements in a few bytes.
    let bytes: [UInt8] = [8, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x3F]
    #expect(throws: BinaryCodecError.lengthOutOfBounds(offset: 1)) { try BinaryValue.decode(bytes) }
  }

  /// Seeded random bytes and mutations of valid encodings: decoding throws or succeeds, never traps.
  @Test func fuzzedInputNeverTraps() throws {
    let valid = [try BinaryEncoder().encode(sample), try BinaryEncoder().encode(event(14))]
    for seed in UInt64(0)..<3000 {
      var random = TestRandom(seed: seed)
      var bytes: [UInt8]
      if seed % 2 == 0 {
        bytes = (0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      } else {
        bytes = valid[Int(seed / 2) % valid.count]
        for _ in 0..<(1 + random.next() % 4) {
          let position = Int(random.next() % UInt64(bytes.count))
          switch random.next() % 3 {
          case 0: bytes[position] = UInt8(truncatingIfNeeded: random.next())
          case 1: bytes.removeSubrange(position...)
          default: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: position)
          }
          if bytes.isEmpty { break }
        }
      }
      _ = try? BinaryValue.decode(bytes)
      _ = try? BinaryDecoder().decode(Sample.self, from: bytes)
      _ = try? BinaryDecoder().decode(Event<Note>.self, from: bytes)
    }
  }

  @Test func typeNamesComeFromCaseNamesOrTheProtocol() throws {
    for codec in EventCodec.allCases {
      let directory = TemporaryDirectory()
      let notes = try FileJournal<Note>(
        directory: directory.path + "/notes", options: FileJournalOptions(codec: codec))
      for (index, action) in [Note.add("x"), .clear, .remove(index: 1)].enumerated() {
        try notes.append(
          Event(sequence: UInt64(index + 1), timestamp: Date(), metadata: event(1).metadata, action: action))
      }
      #expect(try notes.inspect().map(\.typeName) == ["add", "clear", "remove"])
      #expect(try notes.inspect().map(\.schemaVersion) == [1, 1, 1])
      try notes.close()
      let renamed = try FileJournal<Renamed>(
        directory: directory.path + "/renamed", options: FileJournalOptions(codec: codec))
      try renamed.append(Event(sequence: 1, timestamp: Date(), metadata: event(1).metadata, action: .old))
      #expect(try renamed.inspect().map(\.typeName) == ["renamed-old"])
      #expect(try renamed.inspect().map(\.schemaVersion) == [3])
      try renamed.close()
    }
  }
}

enum Renamed: Codable, VersionedAction {
  case old
  static var schemaVersion: UInt64 { 3 }
  var eventTypeName: String { "renamed-old" }
}
