import Foundation
import RewindLog
import RewindTestSupport
import Testing

@testable import RewindShip

/// The verifier's checks on streams built from a real log's frames, then broken on purpose: each break is
/// named by stream sequence and kind.
@Suite struct RemoteChainWalkTests {
  /// The messages a shipper publishes for the log in `directory`, in order.
  static func messages(_ directory: String, key: ChainKey? = nil) throws -> [(
    headers: NATSHeaders, payload: [UInt8]
  )] {
    let tail = LogTail(directory: directory, key: key)
    try tail.open()
    let logID = tail.logID.lowercaseHex
    var messages: [(NATSHeaders, [UInt8])] = []
    while let frame = try tail.next() {
      for index in frame.records.indices {
        let (headers, payload) = ShipFormat.message(
          logID: logID, frame: frame, index: index, position: UInt64(messages.count + 1), keyed: tail.isKeyed,
          typePrefix: "")
        messages.append((try NATSHeaders.parse(headers[...]), payload))
      }
    }
    return messages
  }

  /// Walks `messages` (stream sequence = index + 1) and returns the first finding.
  static func walk(_ messages: [(headers: NATSHeaders, payload: [UInt8])], key: ChainKey? = nil) throws
    -> RemoteFinding?
  {
    var walk = RemoteChainWalk(key: key)
    for (index, message) in messages.enumerated() {
      let later = { (position: UInt64) -> [UInt64] in
        messages.dropFirst(Int(position)).prefix(64).compactMap {
          UInt64($0.headers[ShipFormat.sequence] ?? "")
        }
      }
      if let finding = try walk.accept(
        position: UInt64(index + 1), headers: message.headers, payload: message.payload, later: later)
      {
        return finding
      }
    }
    return nil
  }

  /// Renumbers `Nats-Expected-Last-Sequence` after messages were moved, as a forger publishing them would.
  static func renumbered(_ messages: [(headers: NATSHeaders, payload: [UInt8])]) -> [(
    headers: NATSHeaders, payload: [UInt8]
  )] {
    messages.enumerated().map { index, message in
      var headers = message.headers
      headers.fields = headers.fields.map {
        $0.name == ShipFormat.expectedLastSequence ? .init($0.name, String(index)) : $0
      }
      return (headers, message.payload)
    }
  }

  @Test func anIntactStreamPasses() throws {
    let log = TemporaryDirectory()
    try appendEvents(log.path, 1...60)
    #expect(try Self.walk(Self.messages(log.path)) == nil)
  }

  @Test func missingReorderedDuplicatedAndForgedAreNamed() throws {
    let log = TemporaryDirectory()
    try appendEvents(log.path, 1...60, perFrame: 1)
    let intact = try Self.messages(log.path)

    var missing = intact
    missing.remove(at: 20)
    let gap = try Self.walk(Self.renumbered(missing))
    #expect(
      gap?.kind == .missing && gap?.streamSequence == 21 && gap?.eventSequence == 22,
      "\(String(describing: gap))")

    var reordered = intact
    reordered.swapAt(30, 31)
    let swap = try Self.walk(Self.renumbered(reordered))
    #expect(swap?.kind == .reordered && swap?.streamSequence == 31, "\(String(describing: swap))")

    var duplicated = intact
    duplicated.insert(intact[10], at: 11)
    let again = try Self.walk(Self.renumbered(duplicated))
    #expect(again?.kind == .duplicated && again?.streamSequence == 12, "\(String(describing: again))")

    var forged = intact
    forged[40].payload[forged[40].payload.count - 1] ^= 1
    let altered = try Self.walk(forged)
    #expect(altered?.kind == .forged && altered?.streamSequence == 41, "\(String(describing: altered))")

    var foreign = intact
    foreign[5].headers.fields.removeAll { $0.name == ShipFormat.chainType }
    #expect(try Self.walk(foreign)?.kind == .forged)

    // A message published without the shipper's position check names a wrong predecessor.
    let shifted = try Self.walk(Array(intact[0..<10]) + Array(intact[11...]))
    #expect(shifted?.kind == .forged && shifted?.streamSequence == 11, "\(String(describing: shifted))")
  }

  @Test func aFrameOfManyEventsIsCheckedWhole() throws {
    let log = TemporaryDirectory()
    try appendEvents(log.path, 1...40, perFrame: 8)
    var messages = try Self.messages(log.path)
    // The second event of the first frame of several events is changed; the frame is named from its first
    // message (events are stream sequences here).
    let start = try #require(
      messages.firstIndex { ($0.headers[ShipFormat.count].flatMap { Int($0) } ?? 0) >= 2 })
    messages[start + 1].payload[messages[start + 1].payload.count - 1] ^= 1
    let finding = try Self.walk(messages)
    #expect(
      finding?.kind == .forged && finding?.streamSequence == UInt64(start + 1)
        && finding?.eventSequence == UInt64(start + 1), "\(String(describing: finding))")
  }

  @Test func aKeyedChainNeedsTheRightKey() throws {
    let log = TemporaryDirectory()
    let key = ChainKey.random()
    try appendEvents(log.path, 1...30, key: key)
    let messages = try Self.messages(log.path, key: key)
    #expect(try Self.walk(messages, key: key) == nil)
    #expect(throws: RemoteChainWalk.Refusal.keyRequired) { try Self.walk(messages) }
    #expect(try Self.walk(messages, key: ChainKey.random())?.kind == .forged)
    let plain = TemporaryDirectory()
    try appendEvents(plain.path, 1...5)
    #expect(throws: RemoteChainWalk.Refusal.notKeyed) { try Self.walk(Self.messages(plain.path), key: key) }
  }
}

/// Outside testing: a message whose headers number its event at the ends of the range (0, or the largest
/// number, where the walk's `+ 1` would overflow) is named as forged, not a crash of the verifier.
@Suite struct RemoteChainWalkNumberingTests {
  /// The first message of an intact stream, renumbered as event `sequence` of a one-event frame.
  static func renumbered(_ sequence: UInt64) throws -> [(headers: NATSHeaders, payload: [UInt8])] {
    let log = TemporaryDirectory()
    try appendEvents(log.path, 1...3, perFrame: 1)
    var messages = try RemoteChainWalkTests.messages(log.path)
    let logID = try #require(messages[0].headers[ShipFormat.messageID]?.split(separator: ":").first)
    messages[0].headers.fields = messages[0].headers.fields.map { field in
      switch field.name {
      case ShipFormat.messageID: .init(field.name, "\(logID):\(sequence)")
      case ShipFormat.sequence: .init(field.name, ShipFormat.padded(sequence))
      case ShipFormat.frame: .init(field.name, String(sequence))
      default: field
      }
    }
    return messages
  }

  @Test(arguments: [UInt64.max, 0])
  func anEventNumberedAtTheEndsOfTheRangeIsForged(sequence: UInt64) throws {
    let finding = try RemoteChainWalkTests.walk(Self.renumbered(sequence))
    #expect(finding?.kind == .forged && finding?.streamSequence == 1, "\(String(describing: finding))")
  }
}
