import Foundation
import Rewind
import RewindLog
import RewindTestSupport
import Testing

@testable import RewindTool

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Notes actions of an older build, with a case the current `Note` no longer has.
private enum OldNote: Codable, Sendable {
  case add(String)
  case archive(index: Int)
}

@Suite struct CorpusReplayTests {
  let debugger = RewindDebugger(reducer: Notes(), initialState: Notes.State(), app: "com.example.notes")

  /// A corpus of `clean` logs, one whose events no longer decode, a damaged log, a report and a file
  /// that is neither.
  func makeCorpus(_ directory: TemporaryDirectory, clean: Int = 5) throws {
    for index in 0..<clean {
      try writeFixtureLog(directory.file("log-\(index)"), count: UInt64(10 + index), snapshotEvery: nil)
    }
    let old = try FileJournal<OldNote>(directory: directory.file("old-build"))
    try old.append(
      Event(
        sequence: 1, timestamp: Date(),
        metadata: .init(actor: nil, source: .user, correlationID: .init(rawValue: 1)), action: .add("a")))
    try old.append(
      Event(
        sequence: 2, timestamp: Date(),
        metadata: .init(actor: nil, source: .user, correlationID: .init(rawValue: 2)),
        action: .archive(index: 0)))
    try old.close()
    try writeFixtureLog(directory.file("damaged"), count: 12, snapshotEvery: nil)
    let segment = directory.file("damaged") + "/" + segmentFiles(directory.file("damaged"))[0]
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: segment)))
    bytes[bytes.count / 3] ^= 0xFF  // inside an early frame: damage, not a torn tail
    try Data(bytes).write(to: URL(fileURLWithPath: segment))
    try ReportBundle.write(
      log: directory.file("log-0"), from: 1, options: ReportOptions(app: "com.example.notes"),
      to: directory.file("bug.rwreport"))
    try Data("not a log".utf8).write(to: URL(fileURLWithPath: directory.file("README.txt")))
  }

  @Test func everyRecordingIsReplayedAndTheOutcomesReported() throws {
    let directory = TemporaryDirectory()
    try makeCorpus(directory)
    let corpus = try debugger.replayCorpus(directory.path, workers: 2)
    #expect(
      corpus.outcomes.map { CorpusReport.name(of: $0.source, in: directory.path) } == [
        "bug.rwreport", "damaged", "log-0", "log-1", "log-2", "log-3", "log-4", "old-build",
      ])
    #expect(corpus.divergences == 1)
    #expect(corpus.errors == 1)
    #expect(!corpus.isClean)
    guard case .replayed(let old) = corpus.outcomes[7] else {
      Issue.record("the old build's log was not replayed")
      return
    }
    #expect(old.divergence?.kind == .decodeFailure)
    #expect(old.divergence?.event.sequence == 2)
    #expect(old.divergence?.event.type == "archive")
    guard case .failed(_, let error, _) = corpus.outcomes[1] else {
      Issue.record("the damaged log was replayed")
      return
    }
    #expect(error.contains("segment-"))
  }

  /// Outside testing: an option of another mode used to be ignored (exit 0): `--junit` without `--corpus`
  /// wrote no file, `--through` without `--test-from` replayed everything. Each is a usage error now.
  @Test func optionsOfAnotherModeAreUsageErrors() throws {
    let directory = TemporaryDirectory()
    try writeFixtureLog(directory.file("log"), count: 10, snapshotEvery: nil)
    let log = directory.file("log")
    let output = directory.file("out.xml")
    let refused: [[String]] = [
      [log, "--junit", output], [log, "--report", output], [log, "--workers", "2"], [log, "--through", "3"],
      [log, "--name", "Session"], [log, "-o", output], [log, "--import", "Notes"],
      ["--corpus", directory.path, log], ["--corpus", directory.path, "--to", "3"],
      ["--corpus", directory.path, "--each"],
      ["--corpus", directory.path, "--test-from", "1", "--through", "2"],
      ["--corpus", directory.path, "--key-file", output],
      [log, "--test-from", "1", "--through", "2", "--json"],
    ]
    for arguments in refused {
      let result = runTool(["replay"] + arguments, tool: debugger.commandLine)
      #expect(result.status == 64, "\(arguments): \(result.errors)")
    }
    #expect(!FileManager.default.fileExists(atPath: output))
    // What each mode takes is still accepted.
    #expect(runTool(["replay", log, "--to", "3", "--json"], tool: debugger.commandLine).status == 0)
    #expect(runTool(["replay", log, "--each", "--json"], tool: debugger.commandLine).status == 0)
    #expect(
      runTool(
        ["replay", "--corpus", directory.path, "--junit", output, "--json"], tool: debugger.commandLine
      )
      .status == 0)
    #expect(FileManager.default.fileExists(atPath: output))
  }

  /// A corpus folder with nothing to replay (a CI job given the wrong path) fails instead of passing.
  @Test func aCorpusWithNoRecordingsFails() throws {
    let directory = TemporaryDirectory()
    try "not a log".write(toFile: directory.file("notes.txt"), atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(
      atPath: directory.file("empty"), withIntermediateDirectories: true)
    let output = directory.file("out.xml")
    let result = runTool(
      ["replay", "--corpus", directory.path, "--junit", output], tool: debugger.commandLine)
    #expect(result.status == 66, "\(result.errors)")
    #expect(result.errors.contains("no recordings"), "\(result.errors)")
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test func theCommandWritesJUnitAndJSONAndFailsOnAnyDivergence() throws {
    let directory = TemporaryDirectory()
    try makeCorpus(directory)
    let output = TemporaryDirectory()
    let junit = output.file("replay.xml")
    let json = output.file("replay.json")
    let result = runTool(
      ["replay", "--corpus", directory.path, "--junit", junit, "--report", json], tool: debugger.commandLine)
    #expect(result.status == 1)
    #expect(result.output.contains("FAILED \(directory.path): 8 recording(s) replayed"))
    #expect(result.output.contains("DIVERGED"))
    #expect(result.output.contains("ERROR"))

    let xml = try Data(contentsOf: URL(fileURLWithPath: junit))
    let counter = TestCaseCounter()
    let parser = XMLParser(data: xml)
    parser.delegate = counter
    #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    #expect(counter.testCases == 8)
    #expect(counter.failures == 1)
    #expect(counter.errors == 1)

    let report = try #require(
      try parseJSON(String(decoding: try Data(contentsOf: URL(fileURLWithPath: json)), as: UTF8.self))
        as? [String: Any])
    #expect(report["recordings"] as? Int == 8)
    #expect(report["diverged"] as? Int == 1)
    #expect((report["results"] as? [[String: Any]])?.count == 8)

    // Without the bad recordings the corpus is clean: exit 0.
    for name in ["damaged", "old-build"] { try FileManager.default.removeItem(atPath: directory.file(name)) }
    let clean = runTool(["replay", "--corpus", directory.path, "--junit", junit], tool: debugger.commandLine)
    #expect(clean.status == 0, "\(clean.output)")
    #expect(clean.output.hasPrefix("OK"))
  }

  @Test func hostileNamesStayInsideTheXML() throws {
    let report = ReplayReport(
      source: "/corpus/a<b>&\"c\u{1B}[2J", firstSequence: 1, lastSequence: 1, fingerprintsChecked: 0,
      divergence: nil)
    let corpus = CorpusReport(
      directory: "/corpus",
      outcomes: [.replayed(report), .failed(source: "/corpus/x", error: "</error><x>\u{0}", seconds: 0)],
      seconds: 0)
    let counter = TestCaseCounter()
    let parser = XMLParser(data: Data(corpus.junitXML.utf8))
    parser.delegate = counter
    #expect(parser.parse())
    #expect(counter.names == ["a<b>&\"c\\u{1B}[2J", "x"])
    #expect(counter.errors == 1)
  }
}

/// Counts what a JUnit file reports.
private final class TestCaseCounter: NSObject, XMLParserDelegate {
  var testCases = 0
  var failures = 0
  var errors = 0
  var names: [String] = []

  func parser(
    _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    switch element {
    case "testcase":
      testCases += 1
      names.append(attributes["name"] ?? "")
    case "failure": failures += 1
    case "error": errors += 1
    default: break
    }
  }
}
