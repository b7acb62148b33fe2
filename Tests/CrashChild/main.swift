// rewind-crash-child: the process the kill -9 harness (RewindLogTests/CrashTests) kills.
// Usage: rewind-crash-child <log directory>. Appends events with grouped durability, and after each
// group is durable writes the sequence number of its last event to standard output, one per line.
import Foundation
import Rewind
import RewindLog

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The action the harness writes; its content is a function of the sequence number, so the parent can
/// check every recovered event.
struct CrashAction: Codable, Sendable, Equatable {
  var value: UInt64
  var text: String

  init(_ sequence: UInt64) {
    value = sequence &* 2_654_435_761
    text = "event-" + String(sequence)
  }
}

func report(_ line: String) {
  let bytes = Array((line + "\n").utf8)
  bytes.withUnsafeBytes { _ = write(1, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
  FileHandle.standardError.write(Data("usage: rewind-crash-child <directory>\n".utf8))
  exit(2)
}
do {
  let journal = try FileJournal<CrashAction>(
    directory: arguments[1], options: FileJournalOptions(durability: .grouped(), segmentSize: 16 << 10))
  var sequence = journal.lastSequence
  report("open \(sequence)")
  var generator = SystemRandomNumberGenerator()
  while true {
    for _ in 0..<Int.random(in: 1...8, using: &generator) {
      sequence += 1
      try journal.append(
        Event(
          sequence: sequence, timestamp: Date(timeIntervalSince1970: Double(sequence)),
          metadata: EventMetadata(actor: "crash", source: .user, correlationID: CorrelationID(rawValue: sequence)),
          action: CrashAction(sequence)))
    }
    try await journal.waitForDurability(through: sequence)
    report(String(sequence))
  }
} catch {
  FileHandle.standardError.write(Data("rewind-crash-child: \(error)\n".utf8))
  exit(1)
}
