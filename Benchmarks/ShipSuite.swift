import Foundation
import Rewind
import RewindLog
import RewindShip

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// rewind-bench ship: events/s shipped to a JetStream stream on loopback (1 node and 3 nodes), beside a bare
// publish loop of the same client (same messages, same window, no log reading or checks), and the
// verifier's rate. Starts its own nats-server(s) on free loopback ports; skipped without nats-server.

let shipSuite = Suite(
  name: "ship", summary: "events/s shipped to NATS JetStream (1 and 3 nodes, windows 1/32/256) and verified"
) { reporter in
  guard let executable = BenchNATSServer.executable else {
    reporter.progress("ship: skipped, no nats-server (run Scripts/install-nats.sh)")
    return
  }
  // REWIND_BENCH_NATS=host:port uses a server started elsewhere (valgrind cannot start one).
  let single =
    try ProcessInfo.processInfo.environment["REWIND_BENCH_NATS"].map { try BenchNATSServer(existing: $0) }
    ?? BenchNATSServer(executable: executable, name: "b1")
  defer { single.stop() }
  try single.waitUntilReady()
  let large = try BenchLog(count: 20_000, payloadBytes: 1000)
  let small = try BenchLog(count: 20_000, payloadBytes: 60)
  for (window, count) in [(1, 4_000), (32, 20_000), (256, 20_000)]
  where shipBenchSelected("ship/r1-w\(window)") {
    let log = window == 1 ? try BenchLog(count: count, payloadBytes: 1000) : large
    reporter.report(
      try shipMeasurement("ship/r1-w\(window)", log: log, servers: [single.address], window: window))
  }
  if shipBenchSelected("ship/r1-w256-rows") {
    reporter.report(
      try shipMeasurement(
        "ship/r1-w256-rows", log: small, servers: [single.address], window: 256, replicas: 1))
  }
  guard shipBenchSelected("ship/r3-w256") || shipBenchSelected("ship/verify") else { return }
  let cluster = (1...3).map { _ in BenchNATSServer.Ports() }
  let members = try cluster.indices.map { index in
    try BenchNATSServer(
      executable: executable, name: "c\(index + 1)", ports: cluster[index],
      routes: cluster.indices.filter { $0 != index }.map { cluster[$0].cluster })
  }
  defer { members.forEach { $0.stop() } }
  for member in members { try member.waitUntilReadyForJetStream() }
  if shipBenchSelected("ship/r3-w256") {
    reporter.report(
      try shipMeasurement(
        "ship/r3-w256", log: large, servers: members.map(\.address), window: 256, replicas: 3))
  }
  if shipBenchSelected("ship/verify") {
    reporter.report(try verifyMeasurement(log: large, server: single.address))
  }
}

/// `REWIND_BENCH_SHIP=name` runs one measurement (for callgrind); `REWIND_BENCH_SHIP_REPS` sets the repetitions.
func shipBenchSelected(_ name: String) -> Bool {
  ProcessInfo.processInfo.environment["REWIND_BENCH_SHIP"].map { $0 == name } ?? true
}

let shipBenchRepetitions = Int(ProcessInfo.processInfo.environment["REWIND_BENCH_SHIP_REPS"] ?? "") ?? 3

/// A log of `count` events of about `payloadBytes` each (a row with a title and a flag), written once.
struct BenchLog {
  let directory: String
  let count: UInt64

  struct Row: Codable, Sendable {
    var id: UInt64
    var title: String
    var done: Bool
  }

  init(count: Int, payloadBytes: Int) throws {
    directory = NSTemporaryDirectory() + "rewind-bench-ship-\(UInt64.random(in: 0...UInt64.max))"
    self.count = UInt64(count)
    let journal = try FileJournal<Row>(
      directory: directory, options: FileJournalOptions(durability: .none, segmentSize: 8 << 20))
    let title = String(repeating: "x", count: max(1, payloadBytes - 20))
    for sequence in 1...UInt64(count) {
      let event = Event(
        sequence: sequence, timestamp: Date(timeIntervalSince1970: 1_700_000_000 + Double(sequence)),
        metadata: EventMetadata(
          actor: "bench", source: .user, correlationID: CorrelationID(rawValue: sequence)),
        action: Row(id: sequence, title: title, done: sequence % 2 == 0))
      try journal.append(event)
      if sequence % 16 == 0 { try journal.flush() }
    }
    try journal.close()
  }

  /// The messages a shipper publishes for this log, for the bare loop.
  func messages() throws -> [(headers: [UInt8], payload: [UInt8])] {
    let tail = LogTail(directory: directory, key: nil)
    try tail.open()
    var messages: [(headers: [UInt8], payload: [UInt8])] = []
    while let frame = try tail.next() {
      for index in frame.records.indices {
        messages.append(
          ShipFormat.message(
            logID: tail.logID.lowercaseHex, frame: frame, index: index, position: UInt64(messages.count + 1),
            keyed: false, typePrefix: ""))
      }
    }
    return messages
  }

  var subject: String {
    let tail = LogTail(directory: directory, key: nil)
    _ = try? tail.open()
    return ShipFormat.defaultSubject(logID: tail.logID.lowercaseHex)
  }
}

/// Ships `log` to fresh streams three times (median), beside the bare publish loop of its messages.
func shipMeasurement(
  _ name: String, log: BenchLog, servers: [NATSServerAddress], window: Int, replicas: Int = 1
) throws -> Measurement {
  let messages = try log.messages()
  var shipped: [Double] = []
  var bare: [Double] = []
  for _ in 0..<shipBenchRepetitions {
    let stream = "BENCH_" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
    let shipper = try Shipper(
      directory: log.directory,
      configuration: ShipConfiguration(
        servers: servers, stream: stream, subject: "bench." + stream, replicas: replicas, window: window,
        acknowledgementTimeout: .seconds(30),
        requestTimeout: .seconds(30)))
    let seconds = try time { try shipper.shipUntilCaughtUp(maximumAttempts: 3) }
    shipped.append(Double(log.count) / seconds)
    bare.append(
      try bareLoop(messages, subject: log.subject, servers: servers, window: window, replicas: replicas))
  }
  return Measurement(name: name, unit: "events/s", median: median(shipped), baseline: median(bare))
}

/// The same messages published with the same client and window into a fresh stream, each acknowledgement
/// parsed: what shipping costs without reading the log, checking chains or accounting for positions. Like
/// the shipper's figure, it includes connecting and creating the stream.
func bareLoop(
  _ messages: [(headers: [UInt8], payload: [UInt8])], subject: String, servers: [NATSServerAddress],
  window: Int,
  replicas: Int
) throws -> Double {
  let stream = "BARE_" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
  let target = subject + ".bare." + stream
  let acknowledged = DispatchSemaphore(value: 0)
  let failures = Locked(0)
  var connection: NATSConnection?
  defer { connection?.close() }
  let seconds = try time {
    let client = try NATSConnection.connect(to: servers[0], options: NATSConnectionOptions())
    connection = client
    let api = JetStream(connection: client, timeout: .seconds(30))
    _ = try api.createStream(JetStreamStreamConfig(name: stream, subjects: [target], replicas: replicas))
    var sent = 0
    var batch: [NATSOutboundMessage] = []
    var inFlight = 0
    while sent < messages.count || inFlight > 0 {
      while inFlight < window, sent < messages.count {
        let reply = client.makeReplySubject { result in
          if case .success(let message) = result, case .success = JetStream.publishAck(message) {
          } else {
            failures.withLock { $0 += 1 }
          }
          acknowledged.signal()
        }
        batch.append(
          NATSOutboundMessage(
            subject: target, reply: reply, headerBytes: messages[sent].headers,
            payload: messages[sent].payload))
        sent += 1
        inFlight += 1
      }
      if !batch.isEmpty {
        try client.publish(batch)
        batch.removeAll(keepingCapacity: true)
      }
      acknowledged.wait()
      inFlight -= 1
    }
  }
  return Double(messages.count - failures.withLock { $0 }) / seconds
}

/// Verifies a stream of `log` from the start with a fresh durable consumer.
func verifyMeasurement(log: BenchLog, server: NATSServerAddress) throws -> Measurement {
  let stream = "VERIFY_" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
  try Shipper(
    directory: log.directory,
    configuration: ShipConfiguration(servers: [server], stream: stream, subject: "bench." + stream)
  ).shipUntilCaughtUp()
  var rates: [Double] = []
  for repetition in 0..<3 {
    let verifier = RemoteVerifier(
      configuration: RemoteVerifyConfiguration(
        servers: [server], stream: stream, durableName: "bench\(repetition)"))
    var report: RemoteVerifyReport?
    let seconds = try time { report = try verifier.run() }
    guard report?.isIntact == true, report?.verifiedEvent == log.count else {
      throw ShipBenchFailure("the verifier did not verify the shipped stream: \(String(describing: report))")
    }
    rates.append(Double(log.count) / seconds)
  }
  return Measurement(name: "ship/verify", unit: "events/s", median: median(rates))
}

struct ShipBenchFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// A nats-server on free loopback ports for the benchmark, with JetStream in a temporary directory.
final class BenchNATSServer {
  struct Ports {
    var client = freePort()
    var cluster = freePort()
  }

  static let executable: String? = [
    "/usr/sbin/nats-server", "/usr/bin/nats-server", "/usr/local/bin/nats-server",
  ]
  .first { FileManager.default.isExecutableFile(atPath: $0) }

  let address: NATSServerAddress
  private let process = Process()
  private let directory: String

  /// A server started elsewhere.
  init(existing: String) throws {
    address = try NATSServerAddress(parsing: existing)
    directory = NSTemporaryDirectory() + "rewind-bench-nats-none-\(UInt64.random(in: 0...UInt64.max))"
  }

  init(executable: String, name: String, ports: Ports = Ports(), routes: [UInt16] = []) throws {
    directory = NSTemporaryDirectory() + "rewind-bench-nats-\(name)-\(UInt64.random(in: 0...UInt64.max))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    address = NATSServerAddress(host: "127.0.0.1", port: ports.client)
    var config = """
      server_name: \(name)
      host: 127.0.0.1
      port: \(ports.client)
      jetstream { store_dir: "\(directory)/js" }

      """
    if !routes.isEmpty {
      config += """
        cluster { name: bench, host: 127.0.0.1, port: \(ports.cluster), routes: [\(routes.map { "nats-route://127.0.0.1:\($0)" }.joined(separator: ", "))] }

        """
    }
    try config.write(toFile: directory + "/server.conf", atomically: true, encoding: .utf8)
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["-c", directory + "/server.conf"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
  }

  func waitUntilReady() throws {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      if let connection = try? NATSConnection.connect(to: address, options: NATSConnectionOptions()) {
        connection.close()
        return
      }
      Thread.sleep(forTimeInterval: 0.02)
    }
    throw ShipBenchFailure("nats-server at \(address) did not start")
  }

  /// Waits until the cluster has elected its JetStream leader (account info answers).
  func waitUntilReadyForJetStream() throws {
    try waitUntilReady()
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline {
      if let connection = try? NATSConnection.connect(to: address, options: NATSConnectionOptions()) {
        defer { connection.close() }
        if (try? JetStream(connection: connection, timeout: .seconds(2)).call("$JS.API.INFO", [])) != nil {
          return
        }
      }
      Thread.sleep(forTimeInterval: 0.05)
    }
    throw ShipBenchFailure("the cluster did not elect a JetStream leader")
  }

  func stop() {
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(atPath: directory)
  }

  static func freePort() -> UInt16 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return UInt16(bigEndian: address.sin_port)
  }
}
