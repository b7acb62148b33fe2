import Dispatch
import Foundation
import RewindLog
import RewindShip

/// `rewind ship DIR --server URL --stream NAME`: ships the log to a NATS JetStream stream, exactly once.
enum ShipCommand {
  static let command = ToolCommand(
    CommandSpec(
      name: "ship", summary: "Ship the log to a NATS JetStream stream, exactly once and in order",
      positionals: [.init("DIR", help: "the log directory")],
      options: [
        NATSArguments.server, NATSArguments.stream,
        .value("subject", "SUBJECT", help: "the subject to publish to (default rewind.log.<log id>)"),
        .value("replicas", "N", help: "replicas of a stream this command creates: 1, 3 or 5 (default 1)"),
        .value("window", "W", help: "events awaiting their acknowledgement at once (default 256)"),
        .flag("no-create", help: "fail when the stream does not exist instead of creating it"),
        .flag("follow", help: "keep shipping new events until interrupted"),
        .value(
          "attempts", "N", help: "failed attempts in a row before giving up, without --follow (default 10)"),
        NATSArguments.credentials, KeyFile.option,
        .flag("json", help: "print one JSON object"),
      ],
      discussion: """
        The stream records how far shipping got: each run reads its last message, checks that the log holds
        the same event there (the same record and chain values), and ships what follows. A stream holding a
        different history, a damaged or modified log, or a stream that allows deletes or purges stops it.
        Each event is a CloudEvent (binary mode) whose payload is the event's record; Docs/Shipping.md has
        the layout and what "acknowledged" means on nats-server 2.9.
        Credentials never go on the command line: --credentials FILE, or REWIND_NATS_USER and
        REWIND_NATS_PASSWORD, or REWIND_NATS_TOKEN.
        exit status: 0 everything shipped; 1 refused (diverged, damaged, unsafe stream, a JetStream error no
        retry can change); 74 the server could not be reached or did not acknowledge after retries; 77 the
        server refused the credentials or a permission shipping needs.
        example: rewind ship ./log --server nats://127.0.0.1:4222 --stream DEVICE_42
        """),
    run: run)

  static func run(_ invocation: Invocation) throws -> ExitStatus {
    let arguments = invocation.arguments
    let directory = invocation.directory
    try LogInput.requireLogDirectory(directory)
    let replicas = try arguments.unsigned("replicas") ?? 1
    let window = try arguments.unsigned("window") ?? 256
    var connection = NATSConnectionOptions(credentials: try NATSArguments.credentials(arguments))
    connection.name = "rewind ship"
    let configuration = ShipConfiguration(
      servers: try NATSArguments.servers(arguments), stream: try NATSArguments.stream(arguments),
      connection: connection, subject: arguments.value("subject"), replicas: Int(clamping: replicas),
      createsStream: !arguments.flag("no-create"), window: Int(clamping: window),
      chainKey: try KeyFile.key(arguments))
    let shipper: Shipper
    do { shipper = try Shipper(directory: directory, configuration: configuration) } catch {
      throw ToolError.usage(UsageError(error.description))
    }
    let bar = invocation.progress("ship", total: 0)
    let drawing = ProgressDrawing(shipper: shipper, bar: bar)
    drawing.start()
    var failure: ShipError?
    if arguments.flag("follow") {
      failure = follow(shipper)
    } else {
      let attempts = Int(clamping: try arguments.unsigned("attempts") ?? 10)
      do { try shipper.shipUntilCaughtUp(maximumAttempts: max(1, attempts)) } catch { failure = error }
    }
    drawing.stop()
    bar.finish()
    let progress = shipper.progress
    report(invocation, progress: progress, stream: configuration.stream, failure: failure)
    guard let failure else { return .ok }
    if failure.isAccessRefused { return .noPermission }
    return failure.isFatal ? .failure : .ioError
  }

  /// Ships in the background until SIGINT or SIGTERM, or a fatal error.
  private static func follow(_ shipper: Shipper) -> ShipError? {
    let stop = DispatchSemaphore(value: 0)
    var sources: [any DispatchSourceSignal] = []
    for signal in [SIGINT, SIGTERM] {
      Foundation.signal(signal, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
      source.setEventHandler { stop.signal() }
      source.resume()
      sources.append(source)
    }
    shipper.start()
    let watcher = Thread {
      _ = shipper.waitUntilShipped(through: .max, timeout: .seconds(100 * 365 * 86_400))
      stop.signal()
    }
    watcher.start()
    stop.wait()
    let stoppedByItself = shipper.progress.state == .stopped
    shipper.stop()
    for source in sources { source.cancel() }
    return stoppedByItself ? shipper.progress.lastError : nil
  }

  private static func report(
    _ invocation: Invocation, progress: ShipProgress, stream: String, failure: ShipError?
  ) {
    if invocation.arguments.flag("json") {
      let fields: [(String, JSONValue)] = [
        ("directory", .string(invocation.directory)), ("stream", .string(stream)),
        ("ok", .bool(failure == nil)),
        ("firstShipped", .int(progress.firstShipped)), ("shippedThrough", .int(progress.shippedThrough)),
        ("streamSequence", .int(progress.streamSequence)),
        ("resynchronizations", .int(UInt64(progress.resynchronizations))),
        ("error", failure.map { .string($0.description) } ?? .null),
        ("fatal", failure.map { .bool($0.isFatal) } ?? .null),
      ]
      invocation.output.line(JSONValue.object(fields).serialized(pretty: true))
      return
    }
    let out = invocation.output
    if progress.shippedThrough >= max(progress.firstShipped, 1) {
      out.line(
        "shipped \(invocation.directory) to \(stream): events \(progress.firstShipped)...\(progress.shippedThrough) "
          + "acknowledged (stream sequence \(progress.streamSequence))")
    } else {
      out.line("nothing shipped from \(invocation.directory) to \(stream)")
    }
    if let failure {
      out.line(failure.isAccessRefused ? "FAILED: access refused: \(failure)" : "FAILED: \(failure)")
    }
  }
}

/// Redraws the progress bar from the shipper's progress while it ships.
private final class ProgressDrawing: Sendable {
  let shipper: Shipper
  let bar: ProgressBar
  private let done = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)

  init(shipper: Shipper, bar: ProgressBar) {
    self.shipper = shipper
    self.bar = bar
  }

  func start() {
    let thread = Thread { [self] in
      while done.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
        let progress = shipper.progress
        if progress.readThrough > 0 { bar.update(progress.shippedThrough, of: progress.readThrough) }
      }
      finished.signal()
    }
    thread.start()
  }

  func stop() {
    done.signal()
    finished.wait()
  }
}
