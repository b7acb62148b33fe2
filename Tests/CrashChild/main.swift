// rewind-crash-child: the process the kill -9 harness (RewindLogTests/CrashTests) kills.
// Usage: rewind-crash-child <log directory>. Appends events with grouped durability, and after each
// group is durable writes the sequence number of its last event to standard output, one per line.
import Foundation
import Rewind
import RewindLog
import RewindTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

func report(_ line: String) {
  let bytes = Array((line + "\n").utf8)
  bytes.withUnsafeBytes { _ = write(1, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments

/// `--faults DIR N`: the driver of Scripts/fault-trials.sh, run under syscall fault injection. Appends N
/// events through a store, waiting in every way the journal offers (durability, flush, reads, handing to
/// the OS) and prints `ack S` for each event known durable. Exits 0 when all went well, 1 with the error
/// when the journal failed; never hangs (the script's `timeout` checks that).
/// `--check DIR`: reopens the log, reads every event back, checks each against what was appended, and
/// prints `last S`; exits 1 when the log does not open or an event differs.
func faultDriver(_ directory: String, count: UInt64) async -> Int32 {
  do {
    let journal = try FileJournal<CrashAction>(
      directory: directory, options: FileJournalOptions(durability: .grouped(), segmentSize: 4 << 10))
    var sequence = journal.lastSequence
    report("open \(sequence)")
    while sequence < count {
      sequence += 1
      try journal.append(crashEvent(sequence))
      switch sequence % 5 {
      case 0:
        try await journal.waitForDurability(through: sequence)
        report("ack \(sequence)")
      case 1:
        try journal.flush()
        report("ack \(sequence)")
      case 2: _ = try journal.events(in: (sequence > 3 ? sequence - 3 : 1)...sequence)
      case 3: try journal.waitUntilHandedToOS()
      default:
        _ = try journal.inspect(from: sequence)
        // A snapshot now and then: temp file, sync, rename, directory sync.
        if sequence % 20 == 4 { try journal.writeSnapshot(sequence, at: sequence) }
      }
    }
    try journal.close()
    report("ack \(sequence)")
    return 0
  } catch {
    FileHandle.standardError.write(Data("rewind-crash-child: \(error)\n".utf8))
    return 1
  }
}

func checkLog(_ directory: String) -> Int32 {
  do {
    let journal = try FileJournal<CrashAction>(directory: directory)
    var last: UInt64 = 0
    try journal.forEachEvent(from: 1) { event in
      guard event == crashEvent(event.sequence) else { throw CheckFailure(sequence: event.sequence) }
      last = event.sequence
    }
    try journal.close()
    report("last \(last)")
    return 0
  } catch {
    FileHandle.standardError.write(Data("rewind-crash-child --check: \(error)\n".utf8))
    return 1
  }
}

struct CheckFailure: Error { var sequence: UInt64 }

/// The options of `--retention DIR`: small segments and a policy, so cuts happen while it appends.
let retentionOptions = FileJournalOptions(
  durability: .grouped(), segmentSize: 4 << 10, retention: RetentionPolicy(events: 60))

/// `--retention DIR`: appends like the default mode, but with 4 KiB segments, a retention policy and a
/// snapshot every 25 events, so segments are cut (on the retention thread) while it appends and the
/// kill lands in every step of a cut.
func retentionDriver(_ directory: String) async -> Int32 {
  do {
    let journal = try FileJournal<CrashAction>(directory: directory, options: retentionOptions)
    var sequence = journal.lastSequence
    report("open \(sequence)")
    var generator = SystemRandomNumberGenerator()
    while true {
      for _ in 0..<Int.random(in: 1...8, using: &generator) {
        sequence += 1
        try journal.append(crashEvent(sequence))
        if sequence % 25 == 0 { try journal.writeSnapshot(sequence, at: sequence) }
      }
      try await journal.waitForDurability(through: sequence)
      report(String(sequence))
    }
  } catch {
    FileHandle.standardError.write(Data("rewind-crash-child: \(error)\n".utf8))
    return 1
  }
}

/// The number of this process's open file descriptors that are sockets.
func socketCount() -> Int {
  var count = 0
  for descriptor in 0..<Int32(4_096) {
    var info = stat()
    if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK { count += 1 }
  }
  return count
}

/// `--no-socket DIR`: uses a store with a file journal every way an app does without `inspect()` (sends,
/// a subscriber, undo, a past state, the inspection handle, close) and prints `sockets BEFORE AFTER PROBE`
/// (PROBE: the count with one socket opened after, so a test knows the count sees sockets). A
/// process of its own, because the test bundle's other suites open sockets at the same time.
func noSocketDriver(_ directory: String) async -> Int32 {
  let before = socketCount()
  do {
    let store = try Store.open(
      directory: directory, initialState: Notes.State(), reducer: Notes(), history: .undoEveryAction)
    let subscriber = Task { for await _ in store.states {} }
    for index in 0..<1_000 { store.send(.add("note \(index)")) }
    store.undo()
    _ = try store.state(at: 500)
    _ = store.inspection.newest
    try store.close()
    subscriber.cancel()
    let after = socketCount()
    // The count must see a socket when there is one: open one and count again.
    #if canImport(Glibc)
      let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let probe = socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
    report("sockets \(before) \(after) \(socketCount())")
    if probe >= 0 { close(probe) }
    return 0
  } catch {
    FileHandle.standardError.write(Data("rewind-crash-child --no-socket: \(error)\n".utf8))
    return 1
  }
}

if arguments.count >= 3, arguments[1] == "--retention" {
  exit(await retentionDriver(arguments[2]))
}

if arguments.count >= 4, arguments[1] == "--faults" {
  exit(await faultDriver(arguments[2], count: UInt64(arguments[3]) ?? 100))
}
if arguments.count >= 3, arguments[1] == "--check" {
  exit(checkLog(arguments[2]))
}
if arguments.count >= 3, arguments[1] == "--no-socket" {
  exit(await noSocketDriver(arguments[2]))
}
guard arguments.count >= 2 else {
  FileHandle.standardError.write(
    Data(
      """
      usage: rewind-crash-child <directory> | --faults DIR N | --check DIR | --retention DIR \
      | --no-socket DIR

      """.utf8))
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
      try journal.append(crashEvent(sequence))
    }
    try await journal.waitForDurability(through: sequence)
    report(String(sequence))
  }
} catch {
  FileHandle.standardError.write(Data("rewind-crash-child: \(error)\n".utf8))
  exit(1)
}
