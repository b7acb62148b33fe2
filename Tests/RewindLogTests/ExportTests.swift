import Foundation
import Rewind
import RewindTestSupport
import RewindTesting
import Testing

@testable import RewindLog

/// An action whose payload JSON cannot show (NaN), to exercise `data_base64`.
enum Reading: Codable, Sendable {
  case value(Double)
}

@Suite struct ExportTests {
  /// A log of `count` events (actors, effects, correlation ids from the fixture) plus two history commands.
  func makeLog(
    count: UInt64, codec: EventCodec = .binary, segmentSize: Int = 4096, framePerEvent: Bool = false
  ) throws -> FaultyFileSystem {
    let fileSystem = FaultyFileSystem(seed: 0)
    let journal = try FileJournal<Note>(
      directory: "/log", options: FileJournalOptions(segmentSize: segmentSize, codec: codec),
      fileSystem: fileSystem)
    for sequence in 1...count {
      try journal.append(event(sequence))
      if framePerEvent { try journal.flush() }
    }
    let metadata = EventMetadata(
      actor: nil, source: .system, correlationID: CorrelationID(rawValue: count + 1))
    try journal.append(
      Event(
        sequence: count + 1, timestamp: Date(timeIntervalSince1970: 1_800_000_000.25), metadata: metadata,
        payload: .command(.undo(to: 2))))
    try journal.append(
      Event(
        sequence: count + 2, timestamp: Date(timeIntervalSince1970: 1_800_000_001), metadata: metadata,
        payload: .command(.endTransaction)))
    try journal.close()
    return fileSystem
  }

  func export(_ fileSystem: FaultyFileSystem, _ options: ExportOptions) throws -> (
    bytes: [UInt8], chunks: Int, summary: ExportSummary
  ) {
    var bytes: [UInt8] = []
    var chunks = 0
    let summary = try LogAudit.export(
      directory: "/log", options: options, progress: nil, fileSystem: fileSystem
    ) {
      bytes += $0
      chunks += 1
    }
    return (bytes, chunks, summary)
  }

  func lines(_ bytes: [UInt8]) throws -> [[String: Any]] {
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.hasSuffix("\n"))
    return try text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
      return try #require(object as? [String: Any], "one JSON object per line: \(line)")
    }
  }

  static func isAttributeName(_ name: String) -> Bool {
    (1...20).contains(name.utf8.count)
      && name.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
  }

  static func isRFC3339(_ text: String) -> Bool {
    text.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z/) != nil
  }

  /// The checks every CloudEvent must pass, against the event it came from.
  func checkCloudEvent(_ object: [String: Any], sequence: UInt64, logIDHex: String) throws {
    #expect(object["specversion"] as? String == "1.0")
    #expect(object["id"] as? String == logIDHex + "-" + EventExportMapper.padded(sequence))
    #expect(object["source"] as? String == "urn:rewind:log:" + logIDHex)
    let type = try #require(object["type"] as? String)
    #expect(!type.isEmpty)
    #expect(object["sequence"] as? String == EventExportMapper.padded(sequence))
    #expect(object["datacontenttype"] as? String == "application/json")
    let time = try #require(object["time"] as? String)
    #expect(Self.isRFC3339(time), "\(time)")
    for name in object.keys where name != "data" && name != "data_base64" {
      #expect(Self.isAttributeName(name), "attribute name \(name)")
    }
    #expect((object["data"] == nil) != (object["data_base64"] == nil))
  }

  @Test(arguments: EventCodec.allCases) func cloudEventLinesMapEveryEvent(_ codec: EventCodec) throws {
    let fileSystem = try makeLog(count: 30, codec: codec)
    let logIDHex = try #require(try LogScanner(fileSystem: fileSystem, directory: "/log").scan().logID)
      .hexadecimal
    let output = try export(fileSystem, ExportOptions(format: .cloudEventsLines))
    let objects = try lines(output.bytes)
    #expect(objects.count == 32 && output.summary.eventCount == 32 && output.summary.sequences == 1...32)
    #expect(output.summary.bytesWritten == UInt64(output.bytes.count) && output.summary.binaryPayloads == 0)
    for (index, object) in objects.enumerated() {
      let sequence = UInt64(index + 1)
      try checkCloudEvent(object, sequence: sequence, logIDHex: logIDHex)
      guard sequence <= 30 else { continue }
      let original = event(sequence)
      #expect(object["actor"] as? String == original.metadata.actor)
      #expect(object["correlation"] as? String == String(original.metadata.correlationID.rawValue))
      if case .effect(let cause) = original.metadata.source {
        #expect(
          object["origin"] as? String == "effect"
            && object["causation"] as? String == EventExportMapper.padded(cause))
      } else {
        #expect(object["origin"] as? String == "user" && object["causation"] == nil)
      }
      // The data is the action exactly as Codable encodes it.
      let expected = try JSONSerialization.jsonObject(with: JSONEncoder().encode(original.action))
      #expect((object["data"] as? NSDictionary) == (expected as? NSDictionary), "event \(sequence)")
      #expect(object["type"] as? String == object["subject"] as? String)
      let stamp = original.timestamp.timeIntervalSince1970
      let time = try #require(object["time"] as? String)
      #expect(
        time.hasPrefix(
          RFC3339.format(sinceReferenceDate: original.timestamp.timeIntervalSinceReferenceDate) ?? "-"))
      #expect(abs((ISO8601DateFormatter().date(from: time)?.timeIntervalSince1970 ?? 0) - stamp) < 1)
    }
    #expect(objects[30]["type"] as? String == "rewind.undo")
    #expect(objects[30]["time"] as? String == "2027-01-15T08:00:00.25Z")
    #expect(objects[30]["origin"] as? String == "system" && objects[30]["actor"] == nil)
    #expect(Set(objects.compactMap { $0["id"] as? String }).count == 32)
  }

  @Test func aBatchIsOneJSONArrayAndSourceAndTypePrefixApply() throws {
    let fileSystem = try makeLog(count: 10)
    let options = ExportOptions(
      format: .cloudEventsBatch, source: "/apps/notes", typePrefix: "com.example.notes.")
    let output = try export(fileSystem, options)
    let array = try #require(try JSONSerialization.jsonObject(with: Data(output.bytes)) as? [[String: Any]])
    #expect(array.count == 12)
    #expect(array.allSatisfy { $0["source"] as? String == "/apps/notes" })
    #expect(array.allSatisfy { ($0["type"] as? String)?.hasPrefix("com.example.notes.") == true })
    #expect(ExportFormat.cloudEventsBatch.mediaType == "application/cloudevents-batch+json")
    let empty = FaultyFileSystem(seed: 1)
    try empty.createDirectory("/log")
    let none = try export(empty, options)
    #expect(
      try JSONSerialization.jsonObject(with: Data(none.bytes)) as? [Any] != nil
        && none.summary.eventCount == 0)
  }

  @Test func plainJSONLinesCarryTheEnvelopeAndThePayloadTree() throws {
    let fileSystem = try makeLog(count: 6)
    let objects = try lines(try export(fileSystem, ExportOptions(format: .jsonLines, range: 3...7)).bytes)
    #expect(objects.map { $0["sequence"] as? Int } == [3, 4, 5, 6, 7])
    #expect(objects[0]["source"] as? String == "effect" && objects[0]["cause"] as? Int == 2)
    #expect(objects[1]["actor"] as? String == "alice" && objects[1]["type"] as? String == "add")
    #expect((objects[1]["action"] as? [String: Any])?["add"] != nil)
    #expect((objects[4]["command"] as? [String: Any])?["undo"] != nil, "\(objects[4])")
    #expect(objects.allSatisfy { $0["schemaVersion"] as? Int == 1 && $0["time"] is String })
  }

  @Test func aPayloadJSONCannotShowGoesInBase64() throws {
    let fileSystem = FaultyFileSystem(seed: 0)
    let journal = try FileJournal<Reading>(
      directory: "/log", options: FileJournalOptions(), fileSystem: fileSystem)
    let metadata = EventMetadata(actor: nil, source: .user, correlationID: CorrelationID(rawValue: 1))
    try journal.append(
      Event(sequence: 1, timestamp: Date(timeIntervalSince1970: 0), metadata: metadata, action: .value(.nan)))
    try journal.append(
      Event(sequence: 2, timestamp: Date(timeIntervalSince1970: 0), metadata: metadata, action: .value(1.5)))
    try journal.close()
    let output = try export(fileSystem, ExportOptions())
    let objects = try lines(output.bytes)
    #expect(output.summary.binaryPayloads == 1)
    let encoded = try #require(objects[0]["data_base64"] as? String)
    let tree = try BinaryValue.decode(Array(try #require(Data(base64Encoded: encoded))))
    // The payload bytes are the action alone, like `data` when it can be JSON.
    #expect(tree[path: "value", "_0"]?.number?.isNaN == true)
    #expect(objects[0]["datacontenttype"] as? String == "application/vnd.rewind.binary-value")
    #expect(objects[0]["time"] as? String == "1970-01-01T00:00:00Z")
    #expect(((objects[1]["data"] as? [String: Any])?["value"] as? [String: Any])?["_0"] as? Double == 1.5)
  }

  @Test func exportStreamsInBoundedChunksAndReportsProgress() throws {
    let fileSystem = try makeLog(count: 1500, segmentSize: 16 << 10)
    var chunks: [Int] = []
    var updates: [AuditProgress] = []
    let summary = try LogAudit.export(
      directory: "/log", options: ExportOptions(), progress: { updates.append($0) }, fileSystem: fileSystem
    ) { chunks.append($0.count) }
    #expect(summary.eventCount == 1502)
    #expect(chunks.count > 3, "written in several chunks: \(chunks)")
    #expect(chunks.allSatisfy { $0 < (1 << 16) + 4096 }, "each chunk is about the buffer size: \(chunks)")
    let last = try #require(updates.last)
    #expect(last.bytesDone == last.bytesTotal)
  }

  @Test func aTamperedLogStopsTheExportWithAnErrorAfterAVerifiedPrefix() throws {
    let fileSystem = try makeLog(count: 40, framePerEvent: true)
    let name = try #require(
      try fileSystem.contents(of: "/log").filter { $0.hasPrefix("segment-") }.sorted().last)
    let file = try fileSystem.open("/log/" + name, create: false)
    var bytes = try file.read(at: 0, count: Int(try file.size()))
    // The newest frame of the log: everything before it verifies.
    var offset = try SegmentHeader.parse(bytes).get().size
    while case .frame(let next) = Frame.parse(bytes, at: offset), offset + next.totalSize < bytes.count {
      offset += next.totalSize
    }
    guard case .frame(let frame) = Frame.parse(bytes, at: offset) else { throw CancellationError() }
    #expect(frame.firstSequence > 1)
    bytes[frame.records[0].upperBound - 2] ^= 0x20
    let crc = CRC32C.mask(CRC32C.checksum(bytes[(offset + 4)..<(offset + frame.totalSize)]))
    withUnsafeBytes(of: crc.littleEndian) { bytes.replaceSubrange(offset..<(offset + 4), with: $0) }
    try file.write(bytes, at: 0)
    var written: [UInt8] = []
    #expect(
      throws: FileJournalError.tampered(
        segment: name, offset: UInt64(offset), lastGoodSequence: frame.firstSequence - 1)
    ) {
      try LogAudit.export(directory: "/log", options: ExportOptions(), progress: nil, fileSystem: fileSystem)
      {
        written += $0
      }
    }
    #expect(try lines(written).count == Int(frame.firstSequence - 1), "the verified prefix is kept")
  }

  @Test func exportWritesToAFileHandle() throws {
    let directory = TemporaryDirectory()
    let journal = try FileJournal<Note>(directory: directory.path)
    for sequence in 1...5 as ClosedRange<UInt64> { try journal.append(event(sequence)) }
    try journal.close()
    let path = directory.path + "/export.jsonl"
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    let handle = try #require(FileHandle(forWritingAtPath: path))
    let summary = try LogAudit.export(
      directory: directory.path, to: handle, options: ExportOptions(format: .jsonLines))
    try handle.close()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(summary.eventCount == 5 && text.split(separator: "\n").count == 5)
  }

  @Test func rfc3339MatchesFoundationForSeededTimes() throws {
    var random = SplitMix64(seed: 3339)
    let formatter = ISO8601DateFormatter()
    for _ in 0..<500 {
      let seconds = Double(Int64.random(in: -2_000_000_000...4_000_000_000, using: &random))
      let date = Date(timeIntervalSince1970: seconds)
      #expect(
        RFC3339.format(sinceReferenceDate: date.timeIntervalSinceReferenceDate)
          == formatter.string(from: date), "seed 3339, \(seconds)")
    }
    #expect(RFC3339.format(sinceReferenceDate: .nan) == nil)
    #expect(RFC3339.format(sinceReferenceDate: 0.5) == "2001-01-01T00:00:00.5Z")
  }

  @Test func jsonTextRoundTripsThroughTheParser() throws {
    let tree = BinaryValue.keyed([
      .init(key: "s", value: .string("quote \" backslash \\ newline \n tab \t bell \u{7} é 𝄞")),
      .init(key: "n", value: .array([.int(-3), .uint(UInt64.max), .double(2.5), .null, .bool(true)])),
    ])
    let text = try #require(tree.jsonText)
    #expect(try BinaryValue.parseJSON(Array(text.utf8)) == tree)
    #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) is [String: Any])
    #expect(BinaryValue.double(.infinity).jsonText == nil)
    #expect(try BinaryValue.parseJSON(Array("\"\\ud834\\udd1e\"".utf8)) == .string("𝄞"))
    for bad in ["", "[1,", "{\"a\" 1}", "tru", "\"\\x\"", "[1] 2", "01x"] {
      #expect(throws: BinaryCodecError.self, "\(bad)") { try BinaryValue.parseJSON(Array(bad.utf8)) }
    }
  }

  @Test func eventsAreReadWithTheirEnvelopeWithoutTheAppsTypes() throws {
    let fileSystem = try makeLog(count: 9, codec: .json)
    var seen: [(InspectedEvent, EventLocation)] = []
    try LogAudit.forEachEvent(directory: "/log", range: 3...10, fileSystem: fileSystem) { event, location in
      seen.append((event, location))
      return event.sequence < 10
    }
    #expect(seen.map(\.0.sequence) == Array(3...10))
    for (event, location) in seen where event.sequence <= 9 {
      let original = RewindLogTests.event(event.sequence)
      #expect(event.timestamp == original.timestamp && event.actor == original.metadata.actor)
      #expect(event.correlationID == original.metadata.correlationID.rawValue)
      #expect(event.origin == (original.metadata.source.isEffect ? "effect" : "user"))
      #expect(
        event.cause == { if case .effect(let cause) = original.metadata.source { cause } else { nil } }())
      #expect(event.action != nil && event.command == nil && event.codec == .json)
      #expect(location.sequence == event.sequence && location.segment.hasPrefix("segment-"))
    }
    #expect(seen.last?.0.command?["undo"] != nil && seen.last?.0.origin == "system")
    var count = 0
    try LogAudit.forEachEvent(directory: "/log", fileSystem: fileSystem) { _, _ in
      count += 1
      return count < 4
    }
    #expect(count == 4)
  }

  @Test func exportWritesToAnOutputStream() throws {
    let directory = TemporaryDirectory()
    let journal = try FileJournal<Note>(directory: directory.path)
    for sequence in 1...5 as ClosedRange<UInt64> { try journal.append(event(sequence)) }
    try journal.close()
    let stream = OutputStream.toMemory()
    stream.open()
    let summary = try LogAudit.export(
      directory: directory.path, to: stream, options: ExportOptions(format: .cloudEventsBatch))
    stream.close()
    let data = try #require(stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data)
    #expect(data.count == Int(summary.bytesWritten))
    #expect((try JSONSerialization.jsonObject(with: data) as? [Any])?.count == 5)
  }
}
