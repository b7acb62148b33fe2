import Foundation
import RewindTestSupport
import Testing

/// The inspector is off unless an app starts it: a store that never calls `inspect()` opens no socket,
/// however it is used. The store runs in `rewind-crash-child --no-socket`, a process of its own: on Linux
/// every test target shares one process, where the inspector's and the shipper's tests open sockets at the
/// same time, so a count taken here would measure them too (it did, in one CI run: 102, then 103).
@Suite struct NoSocketTests {
  @Test func aStoreWithoutInspectOpensNoSocket() throws {
    let child = try #require(
      CrashTests.childExecutable(), "rewind-crash-child not built; run `swift build` first")
    let directory = TemporaryDirectory("no-socket")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: child)
    process.arguments = ["--no-socket", directory.path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let counts = printed.split(separator: "\n").first { $0.hasPrefix("sockets ") }?.split(separator: " ")
    let numbers = try #require(counts?.dropFirst().compactMap { Int($0) }, "printed: \(printed)")
    try #require(numbers.count == 3, "printed: \(printed)")
    #expect(numbers[1] == numbers[0], "the store opened \(numbers[1] - numbers[0]) sockets")
    #expect(numbers[2] == numbers[1] + 1, "the count did not see the probe's socket")
  }
}
