import Foundation
import Rewind
import RewindTestSupport
import Testing

@testable import RewindLog

/// A log written before events recorded draws still reads, and takes events with draws after its own.
@Suite struct PreDrawsLogTests {
  /// The one segment of a log main's `rewind-crash-child --faults DIR 3` wrote before draws existed
  /// (three `crashEvent`s; base64).
  private static let segment =
    "UldORExPRwADAAAATAAAAGG+BGUD4UsvZzJaDRLyQDEBAAAAAAAAAH0treMIr+oCe4W3SsdSpdaGTneCAhumEGNLtNVPLQWnKyAB"
    + "f5d79z9rAAAAAQAAAAEAAAABAAAAAAAAAAAC9hfCuesYMgEBAACAP+QnzcEGY3Jhc2gAAAATCQIbBLHz3fEJKQcHZXZlbnQtMUNy"
    + "YXNoQWN0aW9uJVVnnlGDnRh0W26PZYVkHz3Dw5Jjvv1Vxt/bzFZZSOATWCC5awAAAAEAAAABAAAAAgAAAAAAAAAAPAEYwrnrGDIB"
    + "AQAAAD/kJ83BBmNyYXNoAAAAEwkCGwTi5rvjEykHB2V2ZW50LTJDcmFzaEFjdGlvbsETB4mP8aYdjFXnVpDuS+excTowOy7GLNnf"
    + "Pbb60rLOiZ6gy2sAAAABAAAAAQAAAAMAAAAAAAAAABYJGMK56xgyAQEAAIA+5CfNwQZjcmFzaAAAABMJAhsEk9qZ1R0pBwdldmVu"
    + "dC0zQ3Jhc2hBY3Rpb26BK2kuieIsg86HbqnnP34RFTflB4M1VBwfBIpkhjSMsg=="

  /// A directory holding that log.
  private func preDrawsLog() throws -> TemporaryDirectory {
    let directory = TemporaryDirectory()
    let bytes = try #require(Data(base64Encoded: Self.segment))
    try bytes.write(to: URL(fileURLWithPath: directory.file("segment-00000000000000000001.log")))
    return directory
  }

  @Test func itsEventsReadAsWrittenWithNoDraws() throws {
    let directory = try preDrawsLog()
    let journal = try FileJournal<CrashAction>(directory: directory.path)
    var read: [Event<CrashAction>] = []
    try journal.forEachEvent(from: 1) { read.append($0) }
    try journal.close()
    #expect(read == (1...3).map(crashEvent))
    #expect(read.allSatisfy { $0.draws.isEmpty })
  }

  @Test func anEventWithDrawsAppendedAfterItsOwnReadsBackWithThem() throws {
    let directory = try preDrawsLog()
    let journal = try FileJournal<CrashAction>(directory: directory.path)
    var drawn = crashEvent(4)
    drawn.draws = [.uuid(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))), .random(9)]
    try journal.append(drawn)
    try journal.close()

    let reopened = try FileJournal<CrashAction>(directory: directory.path)
    var read: [Event<CrashAction>] = []
    try reopened.forEachEvent(from: 1) { read.append($0) }
    try reopened.close()
    #expect(read == (1...3).map(crashEvent) + [drawn])
    #expect(read.last?.draws == drawn.draws)
  }
}
