import Foundation
import Rewind
import RewindLog

/// `replay PATH`: replays a log directory or a bug report through the app's reducer (``RewindDebugger``),
/// checks every fingerprint, and prints the verdict and the final state; `--each` prints every event with
/// the state after it; `--corpus DIR` replays every recording in a directory in parallel for CI; and
/// `--test-from N --through M` writes a Swift Testing test of a range.
enum ReplayCommand {
  static func command<State: Encodable & Sendable, Action: Codable & Sendable>(
    debugger: RewindDebugger<State, Action>
  ) -> ToolCommand {
    ToolCommand(
      CommandSpec(
        name: "replay",
        summary: "Replay a log or bug report through the app's reducer and report where it diverges",
        positionals: [.init("PATH", help: "a log directory or a bug report file", optional: true)],
        options: [
          KeyFile.option, .value("to", "N", help: "stop after event N (default the newest)"),
          .flag("each", help: "print every event with the state after it"),
          .flag("json", help: "print JSON (with --each, one object per line)"),
          .flag("determinism", help: "also replay twice and compare, where every fingerprint agrees"),
          .value("corpus", "DIR", help: "replay every log directory and *.rwreport in DIR, in parallel"),
          .value("junit", "FILE", help: "with --corpus: write JUnit XML to FILE"),
          .value("report", "FILE", help: "with --corpus: write the JSON report to FILE"),
          .value("workers", "N", help: "with --corpus: replay N at a time (default: the number of cores)"),
          .value("test-from", "N", help: "write a Swift Testing test of events N through --through"),
          .value("through", "M", help: "with --test-from: the test's last event"),
          .value(
            "output", "FILE", short: "o", help: "with --test-from: write the test to FILE (default: stdout)"),
          .value(
            "name", "NAME", help: "with --test-from: the test's name (default ReplayedSession<N>Through<M>)"),
          .value("import", "MODULE", repeatable: true, help: "with --test-from: a module the test imports"),
          .value(
            "reducer", "EXPR", help: "with --test-from: the reducer, as Swift (default: its type's init())"),
          .value("history", "EXPR", help: "with --test-from: the history configuration, as Swift"),
        ],
        discussion: """
          The verdict is OK, or DIVERGED with the first divergent event: its kind (decode-failure,
          behaviour-change, nondeterminism), type, actor, cause, and the state's difference by path from
          the nearest recorded state after it. Exit status 1 on a divergence (with --corpus: on any; 66 when
          DIR holds no recordings).
          examples:
            rewind replay ./log
            rewind replay bug-4711.rwreport --json
            rewind replay --corpus ./sessions --junit replay.xml --report replay.json
            rewind replay ./log --test-from 41 --through 60 --import Inbox -o Tests/ReplayTests.swift
          """),
      run: { invocation in
        let arguments = invocation.arguments
        try checkModes(arguments)
        if let corpus = arguments.value("corpus") {
          return try runCorpus(corpus, debugger: debugger, invocation: invocation)
        }
        guard let path = arguments.positionals.first else {
          throw UsageError("give a log directory or report file (PATH), or --corpus DIR")
        }
        if let first = try arguments.unsigned("test-from") {
          return try writeTest(path, from: first, debugger: debugger, invocation: invocation)
        }
        if arguments.flag("each") { return try printEach(path, debugger: debugger, invocation: invocation) }
        return try verdict(path, debugger: debugger, invocation: invocation)
      })
  }

  /// Refuses options of another mode than the one chosen (`--corpus`, `--test-from`, or one PATH): they
  /// used to be ignored, so `--junit F` without `--corpus` left a CI job without the file it asked for, and
  /// `--through M` without `--test-from` replayed everything.
  static func checkModes(_ arguments: ParsedArguments) throws(UsageError) {
    let corpus = arguments.value("corpus") != nil
    let test = arguments.value("test-from") != nil
    if corpus && test { throw UsageError("--corpus and --test-from cannot be combined") }
    if corpus, let path = arguments.positionals.first {
      throw UsageError("--corpus DIR replays every recording in DIR; give no PATH ('\(path)')")
    }
    let given = { (name: String) in arguments.values[name] != nil || arguments.flag(name) }
    let exclusive: [(mode: String, chosen: Bool, options: [String])] = [
      ("--corpus", corpus, ["junit", "report", "workers"]),
      ("--test-from", test, ["through", "output", "name", "import", "reducer", "history"]),
      ("a single PATH, not with --corpus or --test-from", !corpus && !test, ["to", "each"]),
      ("a single PATH", !corpus, ["key-file"]),
      ("a replay, not with --test-from", !test, ["json", "determinism"]),
    ]
    for (mode, chosen, options) in exclusive where !chosen {
      if let option = options.first(where: given) { throw UsageError("--\(option) applies only to \(mode)") }
    }
  }

  /// Replays with fingerprint checks; prints the verdict and the final state.
  private static func verdict<State: Encodable & Sendable, Action: Codable & Sendable>(
    _ path: String, debugger: RewindDebugger<State, Action>, invocation: Invocation
  ) throws -> ExitStatus {
    let arguments = invocation.arguments
    let last = try arguments.unsigned("to")
    let determinism = arguments.flag("determinism")
    var isDirectory: ObjCBool = false
    let isReport =
      FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    let report =
      isReport
      ? try debugger.replay(report: path, checkingDeterminism: determinism)
      : try debugger.replay(
        directory: path, key: KeyFile.key(arguments), through: last, checkingDeterminism: determinism)
    // The final state: that of this build's replay, through the last event replayed.
    var final: JSONValue = .null
    if !isReport {
      let reader = try LogInput.open(path, key: KeyFile.key(arguments))
      if report.divergence?.kind != .decodeFailure {
        final = try debugger.tree(try debugger.replay.state(at: report.lastSequence, in: reader))
      }
      if report.divergence == nil {
        DiscardedTail.note(reader, through: report.lastSequence, command: "replay", on: invocation)
      }
    }
    if arguments.flag("json") {
      var object = report.json
      if case .object(var fields) = object {
        if final != .null { fields.append(("state", final)) }
        object = .object(fields)
      }
      invocation.output.line(object.serialized(pretty: true))
    } else {
      invocation.output.line(report.text)
      if final != .null { invocation.output.line("state after event \(report.lastSequence):\n" + final.tree) }
    }
    return report.isClean ? .ok : .failure
  }

  /// `--each`: every event with the state after it, without checks.
  private static func printEach<State: Encodable & Sendable, Action: Codable & Sendable>(
    _ path: String, debugger: RewindDebugger<State, Action>, invocation: Invocation
  ) throws -> ExitStatus {
    let reader = try LogInput.open(path, key: KeyFile.key(invocation.arguments))
    let last = min(
      try invocation.arguments.unsigned("to") ?? reader.summary.lastSequence, reader.summary.lastSequence)
    let json = invocation.arguments.flag("json")
    let progress = invocation.progress("replay", total: last)
    var count: UInt64 = 0
    try debugger.replay.run(reader, through: last) { event, state in
      count += 1
      progress.update(count)
      let tree = try debugger.tree(state)
      let line: JSONValue = .object([
        ("sequence", .int(event.sequence)), ("event", .string(event.payload.description)), ("state", tree),
      ])
      invocation.output.line(
        json ? line.serialized() : "#\(event.sequence) \(event.payload): \(tree.serialized())")
    }
    progress.finish()
    DiscardedTail.note(reader, through: last, command: "replay", on: invocation)
    return .ok
  }

  /// `--corpus DIR`: every recording in DIR, in parallel; JUnit XML and JSON for CI.
  private static func runCorpus<State: Encodable & Sendable, Action: Codable & Sendable>(
    _ directory: String, debugger: RewindDebugger<State, Action>, invocation: Invocation
  ) throws -> ExitStatus {
    let arguments = invocation.arguments
    let workers = try arguments.unsigned("workers").map { Int(clamping: max($0, 1)) }
    let corpus = try debugger.replayCorpus(
      directory, workers: workers ?? ProcessInfo.processInfo.activeProcessorCount,
      checkingDeterminism: arguments.flag("determinism"))
    // A CI job pointed at the wrong folder must not pass by replaying nothing.
    guard !corpus.outcomes.isEmpty else {
      throw ToolError.noInput(
        path: directory, cause: "it holds no recordings (log directories or *.rwreport files)")
    }
    if let path = arguments.value("junit") {
      try OutputFile.write(corpus.junitXML, to: path)
    }
    if let path = arguments.value("report") {
      try OutputFile.write(corpus.json.serialized(pretty: true) + "\n", to: path)
    }
    if arguments.flag("json") {
      invocation.output.line(corpus.json.serialized(pretty: true))
    } else {
      for outcome in corpus.outcomes where !outcome.isClean {
        switch outcome {
        case .replayed(let report): invocation.output.line(report.text)
        case .failed(let source, let error, _):
          invocation.output.line("ERROR \(LogText.escaped(source)): \(LogText.escaped(error))")
        }
      }
      invocation.output.line(corpus.summary)
    }
    return corpus.isClean ? .ok : .failure
  }

  /// `--test-from N --through M`: the generated test, to `--output` or standard output.
  private static func writeTest<State: Encodable & Sendable, Action: Codable & Sendable>(
    _ path: String, from first: UInt64, debugger: RewindDebugger<State, Action>, invocation: Invocation
  ) throws -> ExitStatus {
    let arguments = invocation.arguments
    guard let last = try arguments.unsigned("through") else {
      throw UsageError("--test-from needs --through M, the test's last event")
    }
    guard first >= 1, first <= last else {
      throw UsageError("--test-from \(first) --through \(last) is not a range of events")
    }
    let name = arguments.value("name") ?? "ReplayedSession\(first)Through\(last)"
    guard let start = name.unicodeScalars.first, start == "_" || start.properties.isAlphabetic,
      name.unicodeScalars.allSatisfy({ $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) })
    else {
      throw UsageError("--name must be a Swift identifier, not '\(name)'")
    }
    let source = try debugger.testSource(
      recording: path, key: KeyFile.key(arguments), range: first...last, name: name,
      imports: arguments.allValues("import"), reducer: arguments.value("reducer"),
      history: arguments.value("history") ?? ".standard")
    if let output = arguments.value("output"), output != "-" {
      try OutputFile.write(source, to: output)
      invocation.errors.line("wrote \(output): events \(first)...\(last)")
    } else {
      invocation.output.write(source)
    }
    return .ok
  }
}
