import Foundation
import RewindLog
import RewindTestSupport
import Testing

@testable import RewindTool

/// A tail after the newest segment's last valid frame is cut off on recovery whatever it holds, and the
/// tool makes it visible: `verify` and `info` say where it is, how long, and whether it was an incomplete
/// frame or a complete frame whose checksum failed (`verify --strict` exits 65 on that one); `events` and
/// `replay` note on standard error that they stopped at it.
@Suite struct DiscardedTailTests {
  enum Tail: CaseIterable {
    /// A frame header announcing 100 bytes, followed by 40: the writer stopped mid-frame.
    case incomplete
    /// A frame header announcing 100 bytes, followed by all 100, whose checksum does not match.
    case badChecksum

    var bytes: [UInt8] {
      let header: [UInt8] = [0xEF, 0xBE, 0xAD, 0xDE, 100, 0, 0, 0]
      return header + [UInt8](repeating: 0xAB, count: self == .incomplete ? 40 : 100)
    }
    var kind: String { self == .incomplete ? "incompleteFrame" : "checksumMismatch" }
  }

  let debugger = RewindDebugger(reducer: Notes(), initialState: Notes.State())

  /// A fixture log of 20 events with `tail` appended to its newest segment right after its last frame;
  /// returns the segment's name and the offset the tail starts at.
  func logWithTail(_ tail: Tail, in directory: TemporaryDirectory) throws -> (segment: String, offset: UInt64)
  {
    try writeFixtureLog(directory.path, count: 20, snapshotEvery: nil)
    let info = try #require(try object(runTool(["info", directory.path, "--json"]).output))
    let segments = try #require(info["segments"] as? [[String: Any]])
    let newest = try #require(segments.last)
    let name = try #require(newest["name"] as? String)
    let end = try #require((newest["bytes"] as? NSNumber)?.uint64Value)
    let handle = try #require(FileHandle(forUpdatingAtPath: directory.file(name)))
    try handle.truncate(atOffset: end)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(tail.bytes))
    try handle.close()
    return (name, end)
  }

  func object(_ text: String) throws -> [String: Any]? {
    try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
  }

  @Test(arguments: Tail.allCases)
  func verifyAndInfoReportTheTail(tail: Tail) throws {
    let directory = TemporaryDirectory()
    let (segment, offset) = try logWithTail(tail, in: directory)

    let text = runTool(["verify", directory.path])
    #expect(text.status == 0, "\(text.output)\(text.errors)")
    #expect(
      text.output.contains(
        "discarded tail (after the last valid frame, cut off on recovery): \(tail.bytes.count) bytes at byte \(offset) of \(segment): "
          + (tail == .incomplete ? "an incomplete frame" : "a complete frame whose checksum failed")),
      "\(text.output)")

    let json = try #require(try object(runTool(["verify", directory.path, "--json"]).output))
    #expect(json["ok"] as? Bool == true)
    let discarded = try #require(json["discardedTail"] as? [String: Any])
    #expect(discarded["segment"] as? String == segment)
    #expect((discarded["offset"] as? NSNumber)?.uint64Value == offset)
    #expect((discarded["length"] as? NSNumber)?.intValue == tail.bytes.count)
    #expect(discarded["kind"] as? String == tail.kind)
    #expect(discarded["completeFrame"] as? Bool == (tail == .badChecksum))

    // --strict: a crash rarely leaves a complete frame with a bad checksum.
    let strict = runTool(["verify", directory.path, "--strict"])
    let strictJSON = try #require(
      try object(runTool(["verify", directory.path, "--strict", "--json"]).output))
    if tail == .badChecksum {
      #expect(strict.status == 65, "\(strict.output)")
      #expect(strict.output.contains("FAILED \(directory.path) (--strict)"), "\(strict.output)")
      #expect(strictJSON["ok"] as? Bool == false)
    } else {
      #expect(strict.status == 0, "\(strict.output)")
      #expect(strictJSON["ok"] as? Bool == true)
    }

    let info = try #require(try object(runTool(["info", directory.path, "--json"]).output))
    let infoTail = try #require(info["discardedTail"] as? [String: Any])
    #expect(infoTail["kind"] as? String == tail.kind)
    #expect((infoTail["offset"] as? NSNumber)?.uint64Value == offset)
    #expect((infoTail["length"] as? NSNumber)?.intValue == tail.bytes.count)
    let infoText = runTool(["info", directory.path]).output
    #expect(
      infoText.contains("torn tail  \(tail.bytes.count) bytes at byte \(offset) of \(segment)"), "\(infoText)"
    )
  }

  @Test(arguments: Tail.allCases)
  func eventsAndReplayNoteWhereTheyStopped(tail: Tail) throws {
    let directory = TemporaryDirectory()
    let (segment, offset) = try logWithTail(tail, in: directory)
    let note =
      "note: stopped after event 20 at a discarded tail, \(tail.bytes.count) bytes at byte \(offset) of \(segment)"

    let events = runTool(["events", directory.path])
    #expect(events.status == 0)
    #expect(events.output.split(separator: "\n").count == 20)
    #expect(events.errors.contains("rewind events: " + note), "\(events.errors)")
    #expect(events.errors.split(separator: "\n").count == 1, "one line: \(events.errors)")
    // Stopping before the end is not stopping at the tail.
    #expect(!runTool(["events", directory.path, "--to", "5"]).errors.contains("note:"))

    let replay = runTool(["replay", directory.path], tool: debugger.commandLine)
    #expect(replay.status == 0, "\(replay.output)\(replay.errors)")
    #expect(replay.errors.contains("replay: " + note), "\(replay.errors)")
    let each = runTool(["replay", directory.path, "--each"], tool: debugger.commandLine)
    #expect(each.errors.contains("replay: " + note), "\(each.errors)")
  }

  @Test func aLogWithoutATailHasNoNote() throws {
    let directory = TemporaryDirectory()
    try writeFixtureLog(directory.path, count: 10, snapshotEvery: nil)
    #expect(runTool(["events", directory.path]).errors.isEmpty)
    let json = try #require(try object(runTool(["verify", directory.path, "--strict", "--json"]).output))
    #expect(json["discardedTail"] is NSNull)
    #expect(runTool(["verify", directory.path, "--strict"]).status == 0)
  }

  @Test func aTornTailRecordedBeforeKindsReadsAsAnIncompleteWrite() throws {
    let old =
      #"{"segment":"s","offset":8,"discardedBytes":3,"reason":"incomplete frame","wholeSegment":false}"#
    let torn = try JSONDecoder().decode(TornTail.self, from: Data(old.utf8))
    #expect(torn.kind == .incompleteFrame && torn.kind.isIncompleteWrite)
    #expect(!TornTail.Kind.checksumMismatch.isIncompleteWrite)
  }
}
