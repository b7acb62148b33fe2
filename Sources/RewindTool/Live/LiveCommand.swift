import Foundation
import RewindInspector
import RewindLog

/// `rewind attach` (an app's inspector) and `rewind timeline --follow` (a log being written): both serve
/// the live page on loopback.
enum LiveCommand {
  static let httpPortOption = CommandSpec.Option.value(
    "http-port", "N", help: "the loopback port to serve the page on (default: any free port)")

  /// The `attach` command.
  static var attach: ToolCommand {
    ToolCommand(
      CommandSpec(
        name: "attach",
        summary: "Watch and steer a running app live in the browser (its store called inspect())",
        positionals: [
          .init("TOKEN-FILE", help: "the inspector's token file (the app prints where it is)", optional: true)
        ],
        options: [
          .value(
            "port", "N",
            help: "the inspector's port, when it differs from the token file's (a USB port forward)"),
          httpPortOption,
          .value("export", "FILE", help: "write the session as JSON lines to FILE and exit, serving no page"),
          .value(
            "log", "DIR", help: "follow the log in DIR instead of attaching to an app (as timeline --follow)"),
        ],
        discussion: """
          Connects to the app's inspector on 127.0.0.1 with the token in TOKEN-FILE (or, with --port and no file,
          the token in the environment variable REWIND_INSPECTOR_TOKEN), and serves the live timeline on
          127.0.0.1: open the address it prints. The page needs that address's token; it works on this machine
          only. Runs until the app disconnects or you press Ctrl-C. See Docs/Inspector.md.
          example: rewind attach /tmp/rewind-inspector-4242.json
          """),
      run: runAttach)
  }

  static func runAttach(_ invocation: Invocation) throws -> ExitStatus {
    let arguments = invocation.arguments
    if let directory = arguments.value("log") { return try follow(directory, invocation: invocation) }
    let (port, token) = try target(arguments)
    let title = "127.0.0.1:\(port)"
    let timeline = LiveTimeline(title: title, isReadOnly: false)
    let source = InspectorSource(timeline: timeline)
    let welcome: InspectorJSON
    do {
      welcome = try source.connect(port: port, token: token)
    } catch {
      throw ToolError.noInput(path: title, cause: "\(error)")
    }
    let state = welcome["state"]?.stringValue ?? "?"
    let newest = welcome["newest"]?.unsignedValue ?? 0
    invocation.errors.line("\(invocation.tool) attach: connected to \(title) (\(state), \(newest) events)")
    if let path = arguments.value("export") {
      return try export(source, timeline: timeline, to: path, invocation: invocation)
    }
    return try serve(timeline: timeline, source: source, invocation: invocation, untilEnded: true)
  }

  /// The app's port and token from the arguments.
  static func target(_ arguments: ParsedArguments) throws(ToolError) -> (UInt16, InspectorToken) {
    let portOverride: UInt64?
    do {
      portOverride = try arguments.unsigned("port")
    } catch {
      throw .usage(error)
    }
    if let portOverride, portOverride == 0 || portOverride > UInt64(UInt16.max) {
      throw .usage(UsageError("--port must be 1 to 65535"))
    }
    if let path = arguments.positionals.first {
      guard FileManager.default.fileExists(atPath: path) else {
        throw .noInput(path: path, cause: "no such token file")
      }
      do {
        let file = try TokenFile.read(from: path)
        return (portOverride.map { UInt16($0) } ?? file.port, file.token)
      } catch {
        switch error {
        // A file that is no longer a secret: refused until it is fixed (`chmod 600`), as OpenSSH does.
        case .notARegularFile, .notOwnedByUser, .tooOpen: throw .noPermission(path: path, cause: "\(error)")
        case .cannotCreate, .cannotRead, .malformed: throw .io(path: path, cause: "\(error)")
        }
      }
    }
    guard let portOverride else {
      throw .usage(UsageError("give the inspector's token file (or --port with REWIND_INSPECTOR_TOKEN set)"))
    }
    guard let text = ProcessInfo.processInfo.environment["REWIND_INSPECTOR_TOKEN"],
      let token = InspectorToken(hexadecimal: text)
    else {
      throw .usage(
        UsageError("--port without a token file needs REWIND_INSPECTOR_TOKEN (64 hexadecimal digits)"))
    }
    return (UInt16(portOverride), token)
  }

  /// `timeline --follow DIR` and `attach --log DIR`.
  static func follow(_ directory: String, invocation: Invocation) throws -> ExitStatus {
    try LogInput.requireLogDirectory(directory)
    let timeline = LiveTimeline(title: directory, isReadOnly: true)
    let source = LogFollowSource(
      timeline: timeline, directory: directory, key: try KeyFile.key(invocation.arguments))
    do {
      try source.start()
    } catch {
      throw ToolError.reading(directory, error)
    }
    return try serve(timeline: timeline, source: source, invocation: invocation, untilEnded: false)
  }

  /// Serves the page, printing its address, until the session ends (or forever when following a log).
  static func serve(timeline: LiveTimeline, source: any LiveSource, invocation: Invocation, untilEnded: Bool)
    throws
    -> ExitStatus
  {
    let port = try invocation.arguments.unsigned("http-port") ?? 0
    guard port <= UInt64(UInt16.max) else {
      throw ToolError.usage(UsageError("--http-port must be 0 to 65535"))
    }
    let errors = invocation.errors
    let tool = invocation.tool
    let server: LiveServer
    do {
      server = try LiveServer(
        port: UInt16(port), timeline: timeline, source: source, log: { errors.line("\(tool): \($0)") })
    } catch {
      throw ToolError.io(path: "127.0.0.1:\(port)", cause: "\(error)")
    }
    invocation.output.line("open \(server.url)")
    invocation.output.flush()
    errors.line("\(tool): serving the live page on 127.0.0.1:\(server.port) (this machine only); Ctrl-C ends")
    errors.flush()
    Thread.detachNewThread { server.run() }
    while true {
      let ended = timeline.withContents { $0.ended }
      if untilEnded, let ended {
        errors.line("\(tool) attach: \(ended)")
        // The page is told over its stream; give it a moment to read that.
        Thread.sleep(forTimeInterval: 0.5)
        server.stop()
        source.stop()
        return .ok
      }
      _ = timeline.waitForFeed(after: Int.max, timeout: 1)
    }
  }

  /// Writes every event of the session as JSON lines (header first) to `path`.
  static func export(
    _ source: InspectorSource, timeline: LiveTimeline, to path: String, invocation: Invocation
  ) throws
    -> ExitStatus
  {
    let newest =
      (try? source.perform(.ping)).flatMap { _ in source.connection?.welcome["newest"]?.unsignedValue } ?? 0
    var text =
      InspectorJSON.object([
        ("rewindInspectorExport", .integer(1)), ("title", .string(timeline.title)),
        ("newest", .unsigned(newest)),
      ]).text + "\n"
    var next: UInt64? = newest > 0 ? 1 : nil
    while let from = next {
      let reply: InspectorJSON
      do {
        reply = try source.perform(.events(from: from, to: newest, changes: true))
      } catch {
        throw ToolError.io(path: timeline.title, cause: "\(error)")
      }
      for event in reply["events"]?.arrayValue ?? [] { text += event.text + "\n" }
      next = reply["next"]?.unsignedValue
    }
    source.stop()
    try OutputDestination.write(text, to: path, or: invocation.output)
    if path != "-" { invocation.errors.line("wrote \(newest) events to \(path)") }
    return .ok
  }
}
