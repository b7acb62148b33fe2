import Foundation
import RewindShip
import RewindTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A `nats-server` from the system's packages, started for a test on loopback ports it chooses, with
/// JetStream in a temporary directory; killed when the test ends.
///
/// Without `nats-server` a test prints a note and passes, unless `REWIND_REQUIRE_NATS=1` (set by
/// `Scripts/check.sh`), where it fails.
final class NATSServerProcess: @unchecked Sendable {
  // @unchecked: `process` and `watchdog` change only in `start()` and `kill()`, which a test calls from one task.
  let name: String
  let port: UInt16
  let clusterPort: UInt16?
  let store: TemporaryDirectory
  let configPath: String
  private var process: Process?
  /// A shell that kills the server when this process dies, however it dies (see ``watch(_:)``).
  private var watchdog: (process: Process, pipe: Pipe)?
  private let log: String

  /// The server's address.
  var address: NATSServerAddress { NATSServerAddress(host: "127.0.0.1", port: port) }

  /// The `nats-server` executable, if installed.
  static let executable: String? = {
    if let path = ProcessInfo.processInfo.environment["REWIND_NATS_SERVER"] { return path }
    let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/sbin:/usr/bin:/usr/local/bin"
    for directory in paths.split(separator: ":") {
      let candidate = "\(directory)/nats-server"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }()

  /// Whether tests can run a server; records a failure in CI (`REWIND_REQUIRE_NATS=1`) when not.
  static func available(_ test: String = #function) -> Bool {
    if executable != nil { return true }
    if ProcessInfo.processInfo.environment["REWIND_REQUIRE_NATS"] == "1" {
      Issue.record(
        "nats-server is required (REWIND_REQUIRE_NATS=1) but not installed: run Scripts/install-nats.sh")
    } else {
      print("note: \(test) skipped: no nats-server found; run Scripts/install-nats.sh to include it")
    }
    return false
  }

  /// A free TCP port on 127.0.0.1 (bound and released: the server binds it right after).
  static func freePort() -> UInt16 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return UInt16(bigEndian: address.sin_port)
  }

  /// A server named `name`; `routes` are the cluster ports of the other members, `extra` more
  /// configuration (authorization, lame-duck timing).
  init(name: String = "n1", clusterPort: UInt16? = nil, routes: [UInt16] = [], extra: String = "") throws {
    self.name = name
    port = Self.freePort()
    self.clusterPort = clusterPort
    store = TemporaryDirectory("nats-\(name)")
    configPath = store.file("server.conf")
    log = store.file("server.log")
    var config = """
      server_name: \(name)
      host: 127.0.0.1
      port: \(port)
      jetstream { store_dir: "\(store.path)/js" }
      \(extra)

      """
    if let clusterPort {
      config += """
        cluster {
          name: rewind
          host: 127.0.0.1
          port: \(clusterPort)
          routes: [\(routes.map { "nats-route://127.0.0.1:\($0)" }.joined(separator: ", "))]
        }

        """
    }
    try config.write(toFile: configPath, atomically: true, encoding: .utf8)
  }

  /// Starts the server and waits until it accepts a client.
  func start(waitingUntilReady: Bool = true) throws {
    guard let executable = Self.executable else { throw ServerProblem("nats-server is not installed") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["-c", configPath, "-l", log]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    self.process = process
    try watch(process.processIdentifier)
    if waitingUntilReady { try waitUntilReady() }
  }

  /// Starts a shell that waits on a pipe only this process writes to and kills server `pid` when the
  /// pipe ends: when this test process exits or is killed (a crash, a timeout, `kill -9` of the test run),
  /// the kernel closes the pipe, so no server outlives the tests that started it and holds its ports and
  /// its JetStream directory for the next run.
  private func watch(_ pid: Int32) throws {
    stopWatching()
    let pipe = Pipe()
    // Only this process may hold the write end: a server or another watchdog spawned later must not
    // inherit it, or the pipe would outlive this process.
    _ = fcntl(pipe.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    shell.arguments = ["-c", "read _; kill -9 \(pid) 2> /dev/null", "nats-watchdog"]
    shell.standardInput = pipe
    shell.standardOutput = FileHandle.nullDevice
    shell.standardError = FileHandle.nullDevice
    try shell.run()
    watchdog = (shell, pipe)
  }

  /// Ends the watchdog without letting it signal anything (the server has ended or is about to be
  /// killed here, and its pid may be reused).
  private func stopWatching() {
    guard let watchdog else { return }
    if watchdog.process.isRunning {
      sendSignal(watchdog.process.processIdentifier, SIGKILL)
      watchdog.process.waitUntilExit()
    }
    self.watchdog = nil
  }

  /// Waits (up to 20 s) until a client can connect.
  func waitUntilReady() throws {
    let deadline = ContinuousClock().now + .seconds(20)
    while ContinuousClock().now < deadline {
      if let connection = try? NATSTestClient.connect(address) {
        connection.close()
        return
      }
      guard process?.isRunning == true else { throw ServerProblem("nats-server \(name) exited: \(logTail)") }
      Thread.sleep(forTimeInterval: 0.02)  // waits for the server to accept a client
    }
    throw ServerProblem("nats-server \(name) did not accept a client within 20 s: \(logTail)")
  }

  /// The process id, while running.
  var pid: Int32? { process?.isRunning == true ? process?.processIdentifier : nil }

  /// Sends `signal` (SIGKILL by default) and waits for the process to end.
  func kill(_ signal: Int32 = SIGKILL) {
    guard let process, process.isRunning else { return }
    let ending = signal == SIGKILL || signal == SIGTERM || signal == SIGINT
    if ending { stopWatching() }
    sendSignal(process.processIdentifier, signal)
    if ending { process.waitUntilExit() }
  }

  /// The end of the server's log, for failure messages.
  var logTail: String {
    guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return "(no log)" }
    return String(text.suffix(1500))
  }

  deinit {
    kill()
    stopWatching()
  }
}

/// A server that could not be started.
struct ServerProblem: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// A JetStream cluster of three servers with routes on 127.0.0.1.
final class NATSCluster: Sendable {
  let servers: [NATSServerProcess]

  init(extra: String = "") throws {
    let clusterPorts = (0..<3).map { _ in NATSServerProcess.freePort() }
    servers = try (0..<3).map { index in
      try NATSServerProcess(
        name: "n\(index + 1)", clusterPort: clusterPorts[index],
        routes: clusterPorts.enumerated().filter { $0.offset != index }.map(\.element), extra: extra)
    }
  }

  func start() throws {
    for server in servers { try server.start(waitingUntilReady: false) }
    for server in servers { try server.waitUntilReady() }
  }

  var addresses: [NATSServerAddress] { servers.map(\.address) }

  func server(named name: String) -> NATSServerProcess? { servers.first { $0.name == name } }
}

/// `kill(2)`.
func sendSignal(_ pid: Int32, _ signal: Int32) {
  #if canImport(Glibc)
    _ = Glibc.kill(pid, signal)
  #elseif canImport(Darwin)
    _ = Darwin.kill(pid, signal)
  #endif
}

/// Connections for tests, with short timeouts.
enum NATSTestClient {
  static func connect(
    _ address: NATSServerAddress, credentials: NATSCredentials? = nil,
    onEvent: @escaping @Sendable (NATSConnection.Event) -> Void = { _ in }
  ) throws -> NATSConnection {
    try NATSConnection.connect(
      to: address, options: NATSConnectionOptions(credentials: credentials, connectTimeout: .seconds(2)),
      onEvent: onEvent)
  }
}
