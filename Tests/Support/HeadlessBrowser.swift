import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Headless Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`: commands on
/// the child's descriptor 3, answers on 4, each a JSON object ending in a NUL byte): a page is opened and
/// JavaScript evaluated in it, so a test clicks, types and reads the DOM as a person would. No WebSocket,
/// no dependency.
public final class HeadlessBrowser {
  let pid: pid_t
  let commands: Int32
  let answers: Int32
  var buffer: [UInt8] = []
  var nextID = 1
  var session: String?
  var isClosed = false

  /// The browser to use: `REWIND_BROWSER`, else `chromium`, `chromium-browser` or `google-chrome` on the
  /// `PATH`; `nil` when there is none (`Scripts/install-browser.sh` installs it).
  public static func find() -> String? {
    if let path = ProcessInfo.processInfo.environment["REWIND_BROWSER"] { return path }
    let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    for name in ["chromium", "chromium-browser", "google-chrome"] {
      for directory in paths where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
        return "\(directory)/\(name)"
      }
    }
    return nil
  }

  /// Starts `executable` headless with a fresh profile in `profile`.
  public init(executable: String, profile: String) throws {
    var toChild: [Int32] = [0, 0]
    var fromChild: [Int32] = [0, 0]
    guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else {
      throw BrowserError.failed("pipe: errno \(errno)")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, toChild[0], 3)
    posix_spawn_file_actions_adddup2(&actions, fromChild[1], 4)
    posix_spawn_file_actions_addclose(&actions, toChild[1])
    posix_spawn_file_actions_addclose(&actions, fromChild[0])
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let arguments = [
      executable, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
      "--user-data-dir=\(profile)",
      "--remote-debugging-pipe", "about:blank",
    ]
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var child: pid_t = 0
    let result = posix_spawn(&child, executable, &actions, nil, argv, environ)
    systemClose(toChild[0])
    systemClose(fromChild[1])
    guard result == 0 else {
      systemClose(toChild[1])
      systemClose(fromChild[0])
      throw BrowserError.failed("posix_spawn \(executable): \(result)")
    }
    pid = child
    commands = toChild[1]
    answers = fromChild[0]
  }

  deinit { close() }

  /// Ends the browser.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    kill(pid, SIGKILL)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    systemClose(commands)
    systemClose(answers)
  }

  /// Sends a DevTools command and returns its `result`.
  @discardableResult
  public func call(
    _ method: String, _ params: [String: Any] = [:], inSession: Bool = false, timeout: Double = 30
  )
    throws -> [String: Any]
  {
    let id = nextID
    nextID += 1
    var message: [String: Any] = ["id": id, "method": method, "params": params]
    if inSession, let session { message["sessionId"] = session }
    var bytes = Array(try JSONSerialization.data(withJSONObject: message))
    bytes.append(0)
    var sent = 0
    while sent < bytes.count {
      let written = bytes.withUnsafeBytes { raw in
        write(commands, raw.baseAddress.map { $0 + sent }, bytes.count - sent)
      }
      guard written > 0 else { throw BrowserError.failed("the browser closed its pipe") }
      sent += written
    }
    let deadline = Date(timeIntervalSinceNow: timeout)
    while true {
      while let end = buffer.firstIndex(of: 0) {
        let text = Data(buffer[..<end])
        buffer.removeSubrange(...end)
        guard let answer = try JSONSerialization.jsonObject(with: text) as? [String: Any],
          answer["id"] as? Int == id
        else { continue }
        if let error = answer["error"] { throw BrowserError.failed("\(method): \(error)") }
        return answer["result"] as? [String: Any] ?? [:]
      }
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else { throw BrowserError.failed("\(method): no answer within \(timeout) s") }
      var descriptor = pollfd(fd: answers, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, Int32(left * 1000)) > 0 else { continue }
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let count = chunk.withUnsafeMutableBytes { read(answers, $0.baseAddress, $0.count) }
      guard count > 0 else { throw BrowserError.failed("the browser exited") }
      buffer += chunk[..<count]
    }
  }

  /// Opens `url` in a new page and attaches to it: later evaluations run there.
  public func open(_ url: String) throws {
    let target = try call("Target.createTarget", ["url": url])
    guard let targetID = target["targetId"] as? String else { throw BrowserError.failed("no target") }
    let attached = try call("Target.attachToTarget", ["targetId": targetID, "flatten": true])
    session = attached["sessionId"] as? String
    try call("Runtime.enable", inSession: true)
  }

  /// Evaluates `expression` in the page (awaiting a promise) and returns its value.
  @discardableResult
  public func evaluate(_ expression: String) throws -> Any? {
    let result = try call(
      "Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true],
      inSession: true)
    if let exception = result["exceptionDetails"] { throw BrowserError.failed("\(expression): \(exception)") }
    return (result["result"] as? [String: Any])?["value"]
  }

  /// Evaluates `expression` until it is `true`; fails naming `what` (with `describe`'s value) after `timeout`.
  public func waitFor(
    _ what: String, timeout: Double = 30,
    describe: String =
      #"JSON.stringify(document.body.dataset) + "\n" + document.body.innerText.slice(0, 2000)"#,
    _ expression: String
  ) throws {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while Date() < deadline {
      if (try? evaluate(expression)) as? Bool == true { return }
      usleep(50_000)
    }
    let state = (try? evaluate(describe)).flatMap { $0 }.map { "\($0)" } ?? "?"
    throw BrowserError.failed("timed out waiting for \(what); the page showed:\n\(state)")
  }
}

/// Why the browser could not be driven.
public enum BrowserError: Error, CustomStringConvertible {
  case failed(String)

  public var description: String {
    switch self {
    case .failed(let detail): detail
    }
  }
}

/// `close(2)`, named apart from ``HeadlessBrowser/close()``.
private func systemClose(_ descriptor: Int32) { _ = close(descriptor) }
