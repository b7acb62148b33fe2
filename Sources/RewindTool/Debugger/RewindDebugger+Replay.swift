import Foundation
import Rewind
import RewindLog

extension RewindDebugger {
  /// Reads the bug report at `path`, verifying it first (see `ReportBundle`), and replays it like
  /// ``replay(directory:key:through:checkingDeterminism:)``: from the state it starts from, comparing
  /// every fingerprint, and against the state it ends with.
  ///
  /// - Throws: ``ToolError`` wrapping the `ReportError` of a report that does not verify (another app's,
  ///   a schema no upcaster covers, a broken chain, a flipped byte), or whose start state does not
  ///   decode.
  public func replay(report path: String, checkingDeterminism: Bool = false) throws -> ReplayReport {
    let report = try readReport(path)
    let input = try ReplayInput<State, Action>.report(
      report, initialState: replay.initialState, upcasters: replay.upcasters, decodeState: decodeStartState)
    do {
      return try engine.run(input, determinism: checkingDeterminism ? .always : .onDivergence)
    } catch {
      throw ToolError.reading(path, error)
    }
  }

  /// Replays `path`: a bug report file (`*.rwreport`, or any file), or a log directory.
  public func replay(recording path: String, key: ChainKey? = nil, checkingDeterminism: Bool = false) throws
    -> ReplayReport
  {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
      return try replay(report: path, checkingDeterminism: checkingDeterminism)
    }
    return try replay(directory: path, key: key, checkingDeterminism: checkingDeterminism)
  }

  /// The bug report at `path`, verified against this app.
  func readReport(_ path: String) throws(ToolError) -> ReportBundle {
    do {
      return try ReportBundle.read(
        from: path, expecting: ReportExpectation(app: app, action: Action.self, upcasters: replay.upcasters))
    } catch {
      switch error {
      case .io(let io): throw ToolError.reading(path, io)
      default: throw .damaged(path: path, cause: error.description)
      }
    }
  }

  /// The report's start state as `State`, when `State` is `Decodable`.
  func decodeStartState(_ report: ReportBundle) throws -> State? {
    guard report.metadata.firstSequence > 1 else { return nil }
    guard let decodable = State.self as? any Decodable.Type else {
      throw ToolError.usage(
        UsageError(
          "the report starts at event \(report.metadata.firstSequence), and \(State.self) is not Decodable: "
            + "its start state cannot be read"))
    }
    return try Self.decode(decodable, from: report)
  }

  private static func decode<Decoded: Decodable>(_ type: Decoded.Type, from report: ReportBundle) throws
    -> State?
  {
    guard let state = try report.startState(as: type) else { return nil }
    guard let typed = state as? State else {
      throw ToolError.damaged(path: report.path, cause: "the start state decodes as another type")
    }
    return typed
  }

  /// Replays every log directory and report in `directory` in parallel (one at a time per core) and
  /// returns the corpus' report: write ``CorpusReport/junitXML`` and ``CorpusReport/json`` for CI.
  /// - Throws: ``ToolError`` when `directory` cannot be listed.
  func replayCorpus(
    _ directory: String, workers: Int = ProcessInfo.processInfo.activeProcessorCount,
    checkingDeterminism: Bool = false, progress: @Sendable (Int) -> Void = { _ in }
  ) throws -> CorpusReport {
    let started = Date()
    let corpus = CorpusReplay(directory: directory) { path in
      try self.replay(recording: path, checkingDeterminism: checkingDeterminism)
    }
    let outcomes = corpus.run(try corpus.entries(), workers: workers, progress: progress)
    return CorpusReport(directory: directory, outcomes: outcomes, seconds: Date().timeIntervalSince(started))
  }

  /// The source of a Swift Testing test that sends events `range` of the recording at `path` (a log
  /// directory or a report) through a `TestStore` and asserts the recorded states; see
  /// ``ReplayTestGenerator``.
  ///
  /// - Parameters:
  ///   - name: the enum holding the recording; the test function is named after it.
  ///   - imports: the modules the test imports besides Foundation, RewindTesting and Testing.
  ///   - reducer: the reducer the test runs, as Swift source; by default the debugger's reducer type's
  ///     initializer without arguments.
  ///   - history: the test store's history configuration, as Swift source (undo needs the app's).
  ///   - sourceLabel: what the header says the events come from (default: `path`).
  func testSource(
    recording path: String, key: ChainKey? = nil, range: ClosedRange<UInt64>, name: String, imports: [String],
    reducer: String? = nil, history: String = ".standard", sourceLabel: String? = nil
  ) throws -> String {
    var isDirectory: ObjCBool = false
    let input: ReplayInput<State, Action>
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
      input = try .report(
        try readReport(path), initialState: replay.initialState, upcasters: replay.upcasters,
        decodeState: decodeStartState)
    } else {
      input = .log(
        try LogInput.open(path, key: key), initialState: replay.initialState, upcasters: replay.upcasters)
    }
    let options = ReplayTestGenerator<State, Action>.Options(
      name: name, imports: imports, stateType: Self.typeName(State.self),
      actionType: Self.typeName(Action.self),
      reducer: reducer ?? Self.unqualified(reducerType) + "()", history: history,
      sourceLabel: sourceLabel ?? path)
    do {
      return try ReplayTestGenerator(engine: engine).source(from: input, range: range, options: options)
    } catch let error as ToolError {
      throw error
    } catch {
      throw ToolError.reading(path, error)
    }
  }

  /// A type's name as source in a module that imports the type's module: without that module's prefix.
  static func typeName(_ type: Any.Type) -> String { unqualified(String(reflecting: type)) }

  /// `Module.Outer.Inner` → `Outer.Inner`; generic arguments are left as they are.
  static func unqualified(_ name: String) -> String {
    guard let dot = name.firstIndex(of: "."), !name[..<dot].contains("<") else { return name }
    return String(name[name.index(after: dot)...])
  }
}
