import Foundation
import RewindTesting
import Testing

@testable import RewindShip

/// Addresses, backoff, the server list and credential files: the client's small parts.
@Suite struct NATSClientPartsTests {
  @Test func addressesParseAndRefuseCredentials() throws {
    #expect(
      try NATSServerAddress(parsing: "nats://127.0.0.1:4222")
        == NATSServerAddress(host: "127.0.0.1", port: 4222))
    #expect(try NATSServerAddress(parsing: "localhost") == NATSServerAddress(host: "localhost", port: 4222))
    #expect(try NATSServerAddress(parsing: "tls://[::1]:7422").requiresTLS)
    #expect(try NATSServerAddress(parsing: "[::1]:7422").host == "::1")
    for bad in [
      "http://a:1", "nats://a:0", "nats://a:99999", "nats://", "nats://a b:1", "nats://u:p@a:1", "[::1",
    ] {
      #expect(throws: NATSError.self, "\(bad)") { try NATSServerAddress(parsing: bad) }
    }
  }

  @Test func backoffGrowsToItsMaximumWithJitter() {
    let backoff = NATSBackoff(initial: .milliseconds(100), maximum: .seconds(2), jitter: 0.5)
    var random = SplitMix64(seed: 31)
    for failures in 1...40 {
      let delay = backoff.delay(afterFailures: failures, using: &random)
      let ceiling = min(Duration.milliseconds(100) * (1 << min(failures - 1, 20)), .seconds(2))
      #expect(delay <= ceiling && delay >= ceiling / 2, "after \(failures) failures: \(delay)")
    }
    var none = SplitMix64(seed: 1)
    #expect(NATSBackoff(initial: .seconds(1), jitter: 0).delay(afterFailures: 1, using: &none) == .seconds(1))
  }

  @Test func theServerListRotatesLearnsAndPutsLameDucksLast() throws {
    let a = NATSServerAddress(host: "a")
    let b = NATSServerAddress(host: "b")
    var pool = NATSServerPool([a, b])
    #expect(pool.round() == [a, b])
    #expect(pool.round() == [b, a])
    pool.learn(["c:4223", "not an address!", "a:4222"])
    #expect(pool.servers == [a, b, NATSServerAddress(host: "c", port: 4223)])
    pool.markLameDuck(b)
    #expect(pool.round().last == b)
    pool.markHealthy(b)
    #expect(pool.round().count == 3)
  }

  @Test func credentialFilesAreStrict() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "creds-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    func file(_ text: String) throws -> String {
      let path = directory.appendingPathComponent(UUID().uuidString).path
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      return path
    }
    #expect(try NATSCredentials.fromFile(file("# comment\ntoken=abc=def\n")) == .token("abc=def"))
    for bad in ["user=a\n", "password=b\n", "user=a\npassword=b\ntoken=c\n", "secret=x\n", "just text\n", ""]
    {
      #expect(throws: NATSError.self, "\(bad.debugDescription)") { try NATSCredentials.fromFile(file(bad)) }
    }
    #expect(throws: NATSError.self) {
      try NATSCredentials.fromFile(directory.appendingPathComponent("missing").path)
    }
  }
}
