import Foundation
import Rewind
import RewindTestSupport
import RewindTesting
import Testing

@testable import RewindLog

/// A value of random shape: every container kind, nested, with keys both well-known and not.
indirect enum Shape: Codable, Equatable {
  case int(Int64)
  case uint(UInt64)
  case small(Int8, UInt16)
  case real(Double)
  case single(Float)
  case flag(Bool)
  case text(String)
  case date(Date)
  case optional(String?)
  case list([Shape])
  case map([String: Shape])
  case record(Record)

  struct Record: Codable, Equatable {
    var id: Int
    var title: String?
    var items: [Shape]
    var rawValue: UInt32
  }

  static func random(using random: inout SplitMix64, depth: Int = 0) -> Shape {
    let leafOnly = depth >= 4
    switch random.next() % (leafOnly ? 9 : 12) {
    case 0: return .int(Int64(bitPattern: random.next()) >> (random.next() % 64))
    case 1: return .uint(random.next() >> (random.next() % 64))
    case 2: return .small(Int8(truncatingIfNeeded: random.next()), UInt16(truncatingIfNeeded: random.next()))
    case 3: return .real(Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF))
    case 4: return .single(Float(Int32(truncatingIfNeeded: random.next())) / 7)
    case 5: return .flag(random.next() % 2 == 0)
    case 6: return .text(text(using: &random))
    case 7: return .date(Date(timeIntervalSinceReferenceDate: Double(random.next() % 4_000_000_000) / 8))
    case 8: return .optional(random.next() % 2 == 0 ? nil : text(using: &random))
    case 9:
      // Now and then more than 127 elements, so counts need a second byte.
      let count = random.next() % 10 == 0 ? 130 + Int(random.next() % 70) : Int(random.next() % 5)
      return .list((0..<count).map { _ in Shape.random(using: &random, depth: depth + 1) })
    case 10:
      let count = Int(random.next() % 5)
      var map: [String: Shape] = [:]
      for _ in 0..<count { map[text(using: &random)] = Shape.random(using: &random, depth: depth + 1) }
      return .map(map)
    default:
      return .record(
        Record(
          id: Int(truncatingIfNeeded: random.next()),
          title: random.next() % 3 == 0 ? nil : text(using: &random),
          items: (0..<Int(random.next() % 3)).map { _ in Shape.random(using: &random, depth: depth + 1) },
          rawValue: UInt32(truncatingIfNeeded: random.next())))
    }
  }

  static func text(using random: inout SplitMix64) -> String {
    let pieces = [
      "a", "é", "✓", "title", "_0", "x y", "\u{0}", "🙂", "name", "longer text than fifteen bytes",
    ]
    return (0..<Int(random.next() % 4)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
      .joined()
  }
}

/// Encodes through a container written after its sibling was started: not streamable, so encoded again
/// through the tree.
struct Interleaved: Codable, Equatable {
  var first: Int
  var second: String

  enum CodingKeys: String, CodingKey { case first, second, inner, other }
  enum InnerKeys: String, CodingKey { case value }

  init(first: Int, second: String) {
    self.first = first
    self.second = second
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    var inner = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
    var other = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .other)
    try other.encode(second, forKey: .value)
    try inner.encode(first, forKey: .value)  // back to the first nested container
    try container.encode(first, forKey: .first)
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    first = try container.decode(Int.self, forKey: .first)
    second = try container.nestedContainer(keyedBy: InnerKeys.self, forKey: .other).decode(
      String.self, forKey: .value)
  }
}

/// Uses `superEncoder` and asks for its container twice, as class hierarchies do.
struct WithSuper: Codable, Equatable {
  var value: Int

  enum CodingKeys: String, CodingKey { case value, extra }

  init(value: Int) { self.value = value }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(value, forKey: .value)
    var again = encoder.container(keyedBy: CodingKeys.self)
    try again.encode(value + 1, forKey: .extra)
    try value.encode(to: container.superEncoder())
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    value = try container.decode(Int.self, forKey: .value)
    guard try container.decode(Int.self, forKey: .extra) == value + 1,
      try Int(from: container.superDecoder()) == value
    else {
      throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "extra or super field wrong"))
    }
  }
}

@Suite struct StreamCodecTests {
  /// The bytes of the tree encoder: the reference the streaming encoder must match byte for byte.
  func treeBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
    var writer = ByteWriter()
    try BinaryEncoder().encodeNode(value).write(to: &writer)
    return writer.bytes
  }

  @Test func randomValuesStreamToTheTreeEncodersBytesAndBack() throws {
    for seed in UInt64(0)..<300 {
      var random = SplitMix64(seed: seed)
      let value = Shape.random(using: &random)
      let streamed = try BinaryEncoder().encode(value)
      #expect(streamed == (try treeBytes(value)), "seed \(seed)")
      #expect(try BinaryDecoder().decode(Shape.self, from: streamed) == value, "seed \(seed)")
      // The tree path decodes the same bytes to the same value.
      #expect(
        try BinaryDecoder().decode(Shape.self, from: try BinaryValue.decode(streamed)) == value,
        "seed \(seed)")
    }
  }

  @Test func countsPastOneByteAreWidenedInPlace() throws {
    for count in [127, 128, 129, 300, 16_383, 16_384, 20_000] {
      let list = (0..<count).map { $0 }
      let bytes = try BinaryEncoder().encode(list)
      #expect(bytes == (try treeBytes(list)), "count \(count)")
      #expect(try BinaryDecoder().decode([Int].self, from: bytes) == list)
      let map = Dictionary(uniqueKeysWithValues: (0..<min(count, 400)).map { ("k\($0)", $0) })
      #expect(try BinaryDecoder().decode([String: Int].self, from: try BinaryEncoder().encode(map)) == map)
    }
  }

  @Test func containersWrittenOutOfOrderFallBackToTheTree() throws {
    let interleaved = Interleaved(first: 7, second: "two")
    let bytes = try BinaryEncoder().encode(interleaved)
    #expect(bytes == (try treeBytes(interleaved)))
    #expect(try BinaryDecoder().decode(Interleaved.self, from: bytes) == interleaved)

    let withSuper = WithSuper(value: 41)
    let superBytes = try BinaryEncoder().encode(withSuper)
    #expect(superBytes == (try treeBytes(withSuper)))
    #expect(try BinaryDecoder().decode(WithSuper.self, from: superBytes) == withSuper)
  }

  @Test func fieldsAreFoundInAnyOrder() throws {
    // Written in one order, read by a type that asks for them in another.
    struct Written: Encodable { var c = 3, b = "two", a = [1] }
    struct Read: Decodable, Equatable {
      var a: [Int], b: String, c: Int
      enum CodingKeys: String, CodingKey { case a, b, c }
      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        c = try container.decode(Int.self, forKey: .c)
        a = try container.decode([Int].self, forKey: .a)
        b = try container.decode(String.self, forKey: .b)
        #expect(container.allKeys.count == 3)
        #expect(container.contains(.a))
      }
      init(a: [Int], b: String, c: Int) { (self.a, self.b, self.c) = (a, b, c) }
    }
    #expect(
      try BinaryDecoder().decode(Read.self, from: try BinaryEncoder().encode(Written()))
        == Read(a: [1], b: "two", c: 3))
  }

  @Test func trailingBytesAndWrongShapesThrow() throws {
    var bytes = try BinaryEncoder().encode(Shape.text("x"))
    bytes.append(0)
    #expect(throws: BinaryCodecError.self) { try BinaryDecoder().decode(Shape.self, from: bytes) }
    #expect(throws: DecodingError.self) {
      try BinaryDecoder().decode(Shape.Record.self, from: try BinaryEncoder().encode([1, 2]))
    }
    #expect(throws: DecodingError.self) {
      try BinaryDecoder().decode(Int8.self, from: try BinaryEncoder().encode(300))
    }
  }

  /// Seeded mutations of random valid encodings: the streaming decoder throws or succeeds, never traps,
  /// and when both it and the tree decoder accept the bytes, they agree.
  @Test func mutatedEncodingsNeverTrap() throws {
    for seed in UInt64(0)..<1500 {
      var random = SplitMix64(seed: seed)
      var bytes = try BinaryEncoder().encode(Shape.random(using: &random))
      mutate(&bytes, using: &random)
      let streamed = try? BinaryDecoder().decode(Shape.self, from: bytes)
      let tree = try? BinaryDecoder().decode(Shape.self, from: try BinaryValue.decode(bytes))
      if let streamed, let tree { #expect(tree == streamed, "seed \(seed)") }
    }
  }
}

/// An action that writes itself in the shape its synthesized `Codable` conformance has.
enum Edit: Codable, Equatable, Sendable, BinaryCodable {
  case rename(id: Int, title: String)
  case move(from: Int64, to: UInt64, note: String?)
  case reset

  func encode(to writer: inout BinaryWriter) {
    writer.keyed(count: 1)
    switch self {
    case .rename(let id, let title):
      writer.key("rename")
      writer.keyed(count: 2)
      writer.key("id")
      writer.int(id)
      writer.key("title")
      writer.string(title)
    case .move(let from, let to, let note):
      writer.key("move")
      writer.keyed(count: note == nil ? 2 : 3)
      writer.key("from")
      writer.int64(from)
      writer.key("to")
      writer.uint(to)
      if let note {
        writer.key("note")
        writer.string(note)
      }
    case .reset:
      writer.key("reset")
      writer.keyed(count: 0)
    }
  }

  init(from reader: inout BinaryReader) throws {
    try reader.keyed(count: 1)
    switch try reader.key() {
    case "rename":
      try reader.keyed(count: 2)
      try reader.key("id")
      let id = try reader.int()
      try reader.key("title")
      self = .rename(id: id, title: try reader.string())
    case "move":
      let count = try reader.keyed()
      try reader.key("from")
      let from = try reader.int64()
      try reader.key("to")
      let to = try reader.uint()
      var note: String?
      if count == 3 {
        try reader.key("note")
        note = try reader.string()
      }
      self = .move(from: from, to: to, note: note)
    case "reset":
      try reader.keyed(count: 0)
      self = .reset
    case let other: throw reader.unknownCase(other)
    }
  }

  static func random(using random: inout SplitMix64) -> Edit {
    switch random.next() % 3 {
    case 0: .rename(id: Int(truncatingIfNeeded: random.next()), title: Shape.text(using: &random))
    case 1:
      .move(
        from: Int64(bitPattern: random.next()), to: random.next() >> (random.next() % 64),
        note: random.next() % 2 == 0 ? nil : Shape.text(using: &random))
    default: .reset
    }
  }
}

@Suite struct BinaryCodableTests {
  @Test func writesTheBytesCodableWritesAndReadsThemBack() throws {
    for seed in UInt64(0)..<500 {
      var random = SplitMix64(seed: seed)
      let edit = Edit.random(using: &random)
      let direct = edit.binaryEncoded
      #expect(direct == (try BinaryEncoder().encode(edit)), "seed \(seed)")
      #expect(try Edit(binaryEncoded: direct) == edit, "seed \(seed)")
      #expect(try BinaryDecoder().decode(Edit.self, from: direct) == edit, "seed \(seed)")
    }
  }

  @Test func wrongShapesThrowNamingTheOffset() throws {
    #expect(throws: BinaryCodecError.self) {
      try Edit(binaryEncoded: try BinaryEncoder().encode(["rename": 1]))
    }
    #expect(throws: BinaryCodecError.self) {
      try Edit(binaryEncoded: try BinaryEncoder().encode(["other": ["id": 1]]))
    }
    var trailing = Edit.reset.binaryEncoded
    trailing.append(0)
    #expect(throws: BinaryCodecError.trailingBytes(offset: trailing.count - 1)) {
      try Edit(binaryEncoded: trailing)
    }
    var reader = BinaryReader([BinaryValue.Tag.string.rawValue, 5, 0x61])
    #expect(throws: BinaryCodecError.lengthOutOfBounds(offset: 1)) { try reader.string() }
  }

  /// Seeded random bytes and mutations of valid encodings never trap the reader.
  @Test func fuzzedInputNeverTraps() throws {
    for seed in UInt64(0)..<3000 {
      var random = SplitMix64(seed: seed)
      var bytes: [UInt8]
      if seed % 2 == 0 {
        bytes = (0..<Int(random.next() % 48)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      } else {
        bytes = Edit.random(using: &random).binaryEncoded
        mutate(&bytes, using: &random)
      }
      _ = try? Edit(binaryEncoded: bytes)
      var reader = BinaryReader(bytes)
      _ = try? reader.skip()
    }
  }

  /// A journal of a `BinaryCodable` action and one of the same events through `Codable` write the same
  /// bytes, and each reads back the other's log.
  @Test func journalsOfEitherPathAreInterchangeable() throws {
    let directory = TemporaryDirectory()
    var random = SplitMix64(seed: 42)
    let events = (1...UInt64(300)).map { sequence in
      Event(
        sequence: sequence, timestamp: Date(timeIntervalSinceReferenceDate: Double(sequence) * 1.5),
        metadata: EventMetadata(
          actor: sequence % 4 == 0 ? "bob" : nil,
          source: sequence % 5 == 0 ? .effect(cause: sequence - 1) : .system,
          correlationID: CorrelationID(rawValue: sequence % 3 == 0 ? sequence - 2 : sequence)),
        action: Edit.random(using: &random))
    }
    let direct = try FileJournal<Edit>(directory: directory.path + "/direct")
    for event in events { try direct.append(event) }
    #expect(try direct.events(in: 1...300) == events)
    #expect(
      try direct.inspect(from: 1, through: 3).map(\.typeName) == events.prefix(3).map { typeName($0.action) })
    try direct.close()

    let codable = try FileJournal<CodableEdit>(directory: directory.path + "/direct")
    #expect(try codable.events(in: 1...300).map { $0.action?.edit } == events.map(\.action))
    try codable.close()
    let reopened = try FileJournal<Edit>(directory: directory.path + "/direct")
    #expect(try reopened.events(in: 1...300) == events)
    try reopened.close()
  }

  private func typeName(_ edit: Edit?) -> String {
    switch edit {
    case .rename: "rename"
    case .move: "move"
    case .reset: "reset"
    case nil: ""
    }
  }
}

/// ``Edit`` without its ``BinaryCodable`` conformance: read through `Codable`.
struct CodableEdit: Codable, Sendable {
  var edit: Edit
  init(from decoder: any Decoder) throws { edit = try Edit(from: decoder) }
  func encode(to encoder: any Encoder) throws { try edit.encode(to: encoder) }
}

@Suite struct UnknownCaseTests {
  /// An event whose case the app no longer knows is `unknownEventType`, through `BinaryCodable` as
  /// through `Codable`.
  @Test func anUnknownCaseIsNamedOnBothPaths() throws {
    let directory = TemporaryDirectory()
    let journal = try FileJournal<Note>(directory: directory.path)
    try journal.append(Event(sequence: 1, timestamp: Date(), metadata: event(1).metadata, action: .clear))
    try journal.close()
    for open in [
      { try FileJournal<Edit>(directory: directory.path).events(in: 1...1) },
      {
        _ = try FileJournal<CodableEdit>(directory: directory.path).events(in: 1...1)
        return []
      },
    ] {
      #expect {
        _ = try open()
      } throws: { error in
        guard let error = error as? FileJournalError, error.code == .unknownEventType else { return false }
        return error.eventType == "clear" && error.schemaVersion == 1 && error.location?.sequence == 1
      }
    }
  }

  /// The same through `Store.open`, whose replay decodes `BinaryCodable` actions inlined: a failure there
  /// falls back to the general decoding, which names it.
  @Test func anUnknownCaseIsNamedWhenAStoreReplays() throws {
    let directory = TemporaryDirectory()
    let edits = try FileJournal<Edit>(directory: directory.path)
    try edits.append(Event(sequence: 1, timestamp: Date(), metadata: event(1).metadata, action: .reset))
    try edits.close()
    let notes = try FileJournal<Note>(directory: directory.path)
    try notes.append(Event(sequence: 2, timestamp: Date(), metadata: event(2).metadata, action: .clear))
    try notes.close()
    #expect {
      _ = try Store.open(
        directory: directory.path, initialState: 0, reducer: CountingEdits(seen: SeenCount()),
        diagnostics: { _ in })
    } throws: { error in
      guard let error = error as? FileJournalError, error.code == .unknownEventType else { return false }
      return error.eventType == "clear" && error.schemaVersion == 1 && error.location?.sequence == 2
    }
  }
}

/// One to three seeded changes to `bytes`: a byte overwritten, the rest cut off, or a byte inserted.
func mutate(_ bytes: inout [UInt8], using random: inout SplitMix64) {
  for _ in 0..<(1 + random.next() % 3) where !bytes.isEmpty {
    let position = Int(random.next() % UInt64(bytes.count))
    switch random.next() % 3 {
    case 0: bytes[position] = UInt8(truncatingIfNeeded: random.next())
    case 1: bytes.removeSubrange(position...)
    default: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: position)
    }
  }
}
