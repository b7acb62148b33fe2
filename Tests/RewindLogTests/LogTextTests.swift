import Foundation
import Rewind
import RewindTestSupport
import Testing

@testable import RewindLog

/// Item 8 of "Failure paths": one escaping rule for text from a log, and the smaller findings.
@Suite struct LogTextTests {
  @Test func controlCharactersAreEscapedUnambiguously() {
    #expect(LogText.escaped("alice") == "alice")
    #expect(LogText.escaped("Zoë 日本") == "Zoë 日本")
    #expect(LogText.escaped("mallory\u{1B}[2J\n#99 forged") == "mallory\\u{1B}[2J\\u{A}#99 forged")
    #expect(
      LogText.escaped("a\\u{1B}") == "a\\\\u{1B}", "a backslash is escaped, so text cannot fake an escape")
    #expect(LogText.escaped("\u{7F}\u{9B}\u{202E}") == "\\u{7F}\\u{9B}\\u{202E}")
    // Exhaustively over the controls CloudEvents forbids in a String.
    for value in Array(0x00...0x1F) + Array(0x7F...0x9F) {
      let escaped = LogText.escaped("x" + String(Character(Unicode.Scalar(UInt32(value))!)) + "y")
      #expect(
        !escaped.unicodeScalars.contains { $0.value <= 0x1F || (0x7F...0x9F).contains($0.value) },
        "U+\(value)")
    }
  }

  @Test func cloudEventsAttributesHoldNoControlCharacters() throws {
    let fileSystem = FaultyFileSystem(seed: 1)
    let journal = try FileJournal<Note>(directory: "/log", options: testOptions, fileSystem: fileSystem)
    let actor = "mallory\u{1B}[31m\u{0}\u{7F}\u{85}"
    try journal.append(
      Event(
        sequence: 1, timestamp: Date(timeIntervalSince1970: 0),
        metadata: EventMetadata(actor: actor, source: .user, correlationID: CorrelationID(rawValue: 1)),
        action: Note.add("text\u{1B}")))
    try journal.close()
    for format in [ExportFormat.cloudEventsLines, .cloudEventsBatch, .jsonLines] {
      var bytes: [UInt8] = []
      _ = try LogAudit.export(
        directory: "/log", options: ExportOptions(format: format), progress: nil, fileSystem: fileSystem
      ) { bytes += $0 }
      let text = String(decoding: bytes, as: UTF8.self)
      // Nothing forbidden raw in the output, and the actor attribute's value itself holds none.
      #expect(
        !text.unicodeScalars.contains { ($0.value <= 0x1F && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
      )
      let lines = text.split(separator: "\n").filter { $0.hasPrefix("{") }
      let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
      let value = try #require(object["actor"] as? String)
      #expect(
        !value.unicodeScalars.contains { $0.value <= 0x1F || (0x7F...0x9F).contains($0.value) }, "\(format)")
      #expect(value == LogText.escaped(actor))
    }
  }

  @Test func timesAreProlepticGregorianFromTheFirstInstantOfYear1() {
    let first = -62_135_596_800.0 - 978_307_200
    #expect(RFC3339.format(sinceReferenceDate: first) == "0001-01-01T00:00:00Z")
    #expect(RFC3339.format(sinceReferenceDate: first - 1) == nil)
    // 1500-03-01 in the proleptic Gregorian calendar (the Julian calendar would say 1500-02-20).
    let days1500 = -171_605.0  // days from 1970-01-01 to 1500-03-01 (proleptic Gregorian)
    #expect(RFC3339.format(sinceReferenceDate: days1500 * 86_400 - 978_307_200) == "1500-03-01T00:00:00Z")
  }

  @Test func swappedSegmentsAreReportedOutOfOrder() throws {
    let fileSystem = FaultyFileSystem(seed: 2)
    try appendNotes(40, to: fileSystem, perFrame: 1, segmentSize: 1024)
    let names = try fileSystem.contents(of: "/log").filter { $0.hasPrefix("segment-") }.sorted()
    #expect(names.count >= 3)
    let first = try fileSystem.open("/log/" + names[1], create: false)
    let second = try fileSystem.open("/log/" + names[2], create: false)
    let a = try first.read(at: 0, count: Int(try first.size()))
    let b = try second.read(at: 0, count: Int(try second.size()))
    try first.truncate(to: 0)
    try first.write(b, at: 0)
    try second.truncate(to: 0)
    try second.write(a, at: 0)
    let report = try LogAudit.verify(directory: "/log", fileSystem: fileSystem)
    #expect(report.firstProblem?.kind == .reordered, "\(report)")
  }
}
