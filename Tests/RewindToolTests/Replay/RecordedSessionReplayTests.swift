import Foundation
import InboxCore
import Rewind
import RewindLog
import RewindTestSupport
import RewindTesting
import Testing

@testable import RewindTool

/// The Inbox's reducer, except that from its fifth archive on it archives the row after the one named:
/// in `recordInboxSession` the first such archive is event 41.
private struct ArchivingTheWrongRow: Reducer {
  func reduce(into state: inout InboxState, action: InboxAction) -> Effect<InboxAction> {
    if case .archive(let id) = action, state.archived.count >= 4, let index = state.list.rows.index(id: id),
      index + 1 < state.list.rows.count
    {
      return InboxFeature().reduce(into: &state, action: .archive(id: state.list.rows[index + 1].id))
    }
    return InboxFeature().reduce(into: &state, action: action)
  }
}

/// `Notes` reading the wall clock: each added note gets the time it was added.
private struct NotesReadingTheClock: Reducer {
  func reduce(into state: inout Notes.State, action: Note) -> Effect<Note> {
    if case .add(let text) = action {
      state.items.append("\(text) at \(Date().timeIntervalSinceReferenceDate)")
      return .none
    }
    return Notes().reduce(into: &state, action: action)
  }
}

/// `Notes` over the version 2 action of `DebuggerUpcastingTests` (`add(text:pinned:)`): the same states.
private struct NotesOverV2: Reducer {
  func reduce(into state: inout Notes.State, action: NoteV2) -> Effect<NoteV2> {
    let old: Note =
      switch action {
      case .add(let text, _): .add(text)
      case .remove(let index): .remove(index: index)
      case .rename(let index, let title): .rename(index: index, title: title)
      case .clear: .clear
      }
    _ = Notes().reduce(into: &state, action: old)
    return .none
  }
}

/// Logs recorded by real stores that record fingerprints, replayed by `RewindDebugger`.
@Suite(.timeLimit(.minutes(2))) struct RecordedSessionReplayTests {
  static let recordingBuild = BuildIdentity("inbox 1.0 (1)")
  static let thisBuild = BuildIdentity("inbox 1.1 (2)")
  static let mails = (1...30).map { Mail(id: $0, sender: "sender \($0)", subject: "subject \($0)") }

  /// 60 events: an archive at events 1, 11, 21, …, 51 (mails 1 to 6), flags between; every event
  /// fingerprinted, and a snapshot as of the last one.
  static func recordInboxSession(_ directory: String) throws {
    let store = try Store.open(
      directory: directory, initialState: InboxState(mails: mails), reducer: InboxFeature().droppingEffects(),
      options: FileJournalOptions(durability: .none, snapshotInterval: nil), clock: SteppingClock(),
      actor: "ada", fingerprints: Fingerprinting(every: 1, build: recordingBuild))
    var archived = 0
    for event in 1...60 {
      if event % 10 == 1 {
        archived += 1
        store.send(.archive(id: archived))
      } else {
        store.send(.toggleFlag(id: 20 + event % 7))
      }
    }
    try store.fileJournal?.writeSnapshot(store.state, at: store.sequence)
    try store.close()
  }

  @Test func aChangedInboxReducerIsReportedAtTheFirstEventWhoseStateDiffers() throws {
    let directory = TemporaryDirectory()
    try Self.recordInboxSession(directory.path)
    let same = RewindDebugger(
      reducer: InboxFeature(), initialState: InboxState(mails: Self.mails), build: Self.thisBuild)
    let agreeing = try same.replay(directory: directory.path)
    #expect(agreeing.divergence == nil)
    #expect(agreeing.fingerprintsChecked == 60)

    let changed = RewindDebugger(
      reducer: ArchivingTheWrongRow(), initialState: InboxState(mails: Self.mails), build: Self.thisBuild)
    let report = try changed.replay(directory: directory.path)
    let divergence = try #require(report.divergence)
    #expect(divergence.kind == .behaviourChange)
    #expect(divergence.event.sequence == 41)
    #expect(divergence.isExact)
    #expect(divergence.lastAgreeing == 40)
    #expect(divergence.event.type == "archive(id:)")
    #expect(divergence.event.actor == "ada")
    #expect(divergence.recorded?.build == Self.recordingBuild)
    // The path diff against the snapshot as of event 60: mail 6 archived where the recording has 5.
    #expect(divergence.comparedWith == .snapshot(sequence: 60))
    let paths = divergence.changes.map(\.path)
    #expect(paths.contains { $0.hasPrefix("archived") }, "\(paths)")
    #expect(paths.contains { $0.hasPrefix("list") }, "\(paths)")
    #expect(!divergence.replayedChange.isEmpty)

    // The command prints the same verdict and exits 1.
    let result = runTool(["replay", directory.path], tool: changed.commandLine)
    #expect(result.status == 1, "\(result.errors)")
    #expect(result.output.contains("DIVERGED"), "\(result.output)")
    #expect(result.output.contains("41"))
  }

  /// A small corpus of fingerprinted sessions, as CI replays it: clean on the recording reducer, every
  /// session diverging (exit 1, a JUnit failure each) on the changed one.
  @Test func aCorpusOfFingerprintedSessionsFailsOnTheChangedReducer() throws {
    let directory = TemporaryDirectory()
    for index in 0..<2 { try Self.recordInboxSession(directory.file("session-\(index)")) }
    let same = RewindDebugger(
      reducer: InboxFeature(), initialState: InboxState(mails: Self.mails), build: Self.thisBuild)
    let clean = runTool(["replay", "--corpus", directory.path, "--workers", "2"], tool: same.commandLine)
    #expect(clean.status == 0, "\(clean.output)\(clean.errors)")
    let changed = RewindDebugger(
      reducer: ArchivingTheWrongRow(), initialState: InboxState(mails: Self.mails), build: Self.thisBuild)
    let junit = directory.file("replay.xml")
    let failing = runTool(
      ["replay", "--corpus", directory.path, "--junit", junit, "--workers", "2"], tool: changed.commandLine)
    #expect(failing.status == 1, "\(failing.output)\(failing.errors)")
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(xml.contains("failures=\"2\""), "\(xml)")
    #expect(xml.contains("behaviour-change"), "\(xml)")
  }

  @Test func aReducerReadingTheWallClockIsReportedAsNondeterministic() throws {
    let directory = TemporaryDirectory()
    let build = BuildIdentity("notes 1.0 (1)")
    let store = try Store.open(
      directory: directory.path, initialState: Notes.State(), reducer: NotesReadingTheClock(),
      options: FileJournalOptions(durability: .none, snapshotInterval: nil),
      fingerprints: Fingerprinting(every: 4, build: build))
    for index in 1...12 { store.send(index % 5 == 0 ? .remove(index: 0) : .add("note \(index)")) }
    try store.close()
    // The build that recorded the log replays it, and another build does: both find nondeterminism.
    for replaying in [build, BuildIdentity("notes 1.1 (2)")] {
      let debugger = RewindDebugger(
        reducer: NotesReadingTheClock(), initialState: Notes.State(), build: replaying)
      let divergence = try #require(try debugger.replay(directory: directory.path).divergence)
      #expect(divergence.kind == .nondeterminism, "\(divergence.cause)")
    }
  }

  @Test func anOldSchemaLogReplayedThroughUpcastersDoesNotDiverge() throws {
    let directory = TemporaryDirectory()
    let store = try Store.open(
      directory: directory.path, initialState: Notes.State(), reducer: Notes(),
      options: FileJournalOptions(durability: .none, snapshotInterval: nil),
      fingerprints: Fingerprinting(every: 1, build: BuildIdentity("notes 1.0 (1)")))
    for index in 1...20 {
      switch index % 6 {
      case 0: store.send(.remove(index: 0))
      case 3: store.send(.rename(index: 0, title: "renamed \(index)"))
      default: store.send(.add("note \(index)"))
      }
    }
    store.mark("reported")
    try store.close()
    let upcasting = RewindDebugger(
      reducer: NotesOverV2(), initialState: Notes.State(), upcasters: DebuggerUpcastingTests.upcasters,
      build: BuildIdentity("notes 2.0 (1)"))
    let report = try upcasting.replay(directory: directory.path)
    #expect(report.divergence == nil, "\(String(describing: report.divergence))")
    #expect(report.fingerprintsChecked == 21)
    // Without the upcasters the first add does not decode.
    let strict = RewindDebugger(reducer: NotesOverV2(), initialState: Notes.State())
    let failure = try #require(try strict.replay(directory: directory.path).divergence)
    #expect(failure.kind == .decodeFailure)
    #expect(failure.event.sequence == 1)
  }

  @Test func showAndEventsDisplayTheFingerprints() throws {
    let directory = TemporaryDirectory()
    try Self.recordInboxSession(directory.path)
    var fingerprint: RecordedFingerprint?
    try LogReader(directory: directory.path).forEachEvent(as: InboxAction.self, through: 41) {
      fingerprint = $0.fingerprint
    }
    let recorded = try #require(fingerprint)
    let show = runTool(["show", directory.path, "41"])
    #expect(show.status == 0, "\(show.errors)")
    #expect(show.output.contains("fingerprint \(recorded.state)"), "\(show.output)")
    let events = runTool(["events", directory.path, "--from", "41", "--to", "41"])
    #expect(events.output.contains("fingerprint \(recorded.state.short)"), "\(events.output)")
    let json = runTool(["show", directory.path, "41", "--json"])
    #expect(json.output.contains(recorded.state.description))
  }

  @Test func aStoreExportsAReportThatReplaysAndTheToolWritesOne() throws {
    let directory = TemporaryDirectory()
    let store = try Store.open(
      directory: directory.file("log"), initialState: Notes.State(), reducer: Notes(),
      options: FileJournalOptions(durability: .none, snapshotInterval: nil),
      fingerprints: Fingerprinting(every: 5, build: BuildIdentity("notes 1.0 (1)")))
    for index in 1...12 { store.send(.add("note \(index)")) }
    let exported = directory.file("bug.rwreport")
    let metadata = try store.exportReport(
      to: exported, options: ReportOptions(app: "com.example.notes", note: "the list looks wrong"))
    try store.close()
    // The report ends with the "reported" mark, fingerprinted.
    #expect(metadata.firstSequence == 1 && metadata.lastSequence == 13)
    let debugger = RewindDebugger(reducer: Notes(), initialState: Notes.State(), app: "com.example.notes")
    let report = try debugger.replay(report: exported)
    #expect(report.divergence == nil)
    #expect(report.fingerprintsChecked == 3)

    // A flipped byte is refused before anything is replayed.
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: exported)))
    bytes[bytes.count / 2] ^= 0x20
    let flipped = directory.file("flipped.rwreport")
    try Data(bytes).write(to: URL(fileURLWithPath: flipped))
    #expect(throws: (any Error).self) { try debugger.replay(report: flipped) }

    // `rewind report` writes one from the log, which the debugger replays.
    let written = directory.file("tool.rwreport")
    let result = runTool(["report", directory.file("log"), "--app", "com.example.notes", "-o", written])
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.output.contains("events 1...13"), "\(result.output)")
    #expect(try debugger.replay(report: written).fingerprintsChecked == 3)
    #expect(runTool(["report", directory.file("log"), "-o", written]).status == 64)
    let other = RewindDebugger(reducer: Notes(), initialState: Notes.State(), app: "com.example.other")
    #expect(throws: (any Error).self) { try other.replay(report: written) }
    // A store without a file journal has nothing to report.
    let memory = Store(initialState: Notes.State(), reducer: Notes())
    #expect(throws: ReportError.self) {
      try memory.exportReport(to: directory.file("none.rwreport"), options: ReportOptions(app: "x"))
    }
  }
}
