import Foundation
import Rewind
import RewindLog
import RewindTestSupport
import Testing

@testable import RewindTool

/// Item 8 of "Failure paths" in the tool: text from a log never reaches a terminal raw.
@Suite struct EscapingTests {
  @Test func anActorCannotForgeOutputLines() throws {
    let directory = TemporaryDirectory()
    let journal = try FileJournal<Note>(directory: directory.path)
    let actor = "mallory\n#2  2024-01-01T00:00:00Z  forged  user\u{1B}[2J\u{9B}"
    try journal.append(
      Event(
        sequence: 1, timestamp: Date(timeIntervalSince1970: 0),
        metadata: EventMetadata(actor: actor, source: .user, correlationID: CorrelationID(rawValue: 1)),
        action: Note.add("payload\u{1B}]0;title\u{7}")))
    try journal.close()
    for arguments in [
      ["events", directory.path], ["show", directory.path, "1"], ["events", directory.path, "--json"],
    ] {
      let run = runTool(arguments)
      #expect(run.status == 0, "\(arguments): \(run.errors)")
      let body = run.output.dropLast()  // the final newline
      #expect(
        !body.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) },
        "\(arguments)")
      if arguments[0] == "events" {
        #expect(body.split(separator: "\n").count == 1, "\(arguments): one line per event")
      }
    }
  }

  @Test func datesBefore1582AreProlepticGregorian() {
    // 1500-03-01T00:00:00Z; the Julian calendar, which Foundation's formatter falls back to, says 1500-02-20.
    let date = Date(timeIntervalSince1970: -171_605 * 86_400)
    #expect(EventView.format(date) == "1500-03-01T00:00:00Z")
    #expect(EventView.format(Date(timeIntervalSince1970: -62_135_596_800)) == "0001-01-01T00:00:00Z")
  }

  @Test func verifyOfALogDamagedAtItsFirstEventSaysNoEventVerified() throws {
    let directory = TemporaryDirectory()
    _ = try writeFixtureLog(directory.path)
    let segment = directory.path + "/" + segmentFiles(directory.path)[0]
    var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: segment)))
    bytes[90] ^= 0xFF  // inside the first frame
    try Data(bytes).write(to: URL(fileURLWithPath: segment))
    let run = runTool(["verify", directory.path])
    #expect(run.status == 1)
    #expect(!run.output.contains("1...0"), "\(run.output)")
    #expect(run.output.contains("no event verified before it"), "\(run.output)")
  }
}
