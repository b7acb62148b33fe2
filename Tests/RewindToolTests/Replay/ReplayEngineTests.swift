import Foundation
import Rewind
import RewindLog
import RewindTestSupport
import Testing

@testable import RewindTool

/// A recording made in memory by the reference reducer (`Notes`): the fixture's events, with fingerprints
/// of the states after them.
private struct Recording {
  var events: [Event<Note>] = []
  var states: [Notes.State] = [Notes.State()]

  init(count: UInt64, fingerprintEvery interval: UInt64, build: BuildIdentity) throws {
    var state = Notes.State()
    for sequence in 1...count {
      var event = fixtureEvent(sequence)
      switch event.payload {
      case .action(let action): _ = Notes().reduce(into: &state, action: action)
      case .command(let command): state = states[Int(command.target ?? 0)]
      }
      if sequence % interval == 0 {
        event.fingerprint = RecordedFingerprint(state: try StateFingerprint.of(state), build: build)
      }
      events.append(event)
      states.append(state)
    }
  }

  /// The recording as a replay's input, with the states at `recorded` as recorded states.
  func input(recordedStates recorded: [UInt64] = []) throws -> ReplayInput<Notes.State, Note> {
    let events = self.events
    return ReplayInput(
      name: "memory", base: Notes.State(), baseSequence: 0, lastSequence: UInt64(events.count),
      events: { range, body in
        for event in events where range.contains(event.sequence) { try body(event) }
      },
      describe: { sequence in events.first { $0.sequence == sequence }.map { DivergentEvent($0) } },
      recordedStates: try recorded.map { sequence in
        (.snapshot(sequence: sequence), JSONValue(try BinaryEncoder().encodeTree(states[Int(sequence)])))
      })
  }
}

/// `Notes`, except that from its third removal on a removal takes the second item instead of the first.
private struct ChangedNotes: Reducer {
  func reduce(into state: inout Notes.State, action: Note) -> Effect<Note> {
    if case .remove = action, state.removals >= 2, state.items.count > 1 {
      state.items.remove(at: 1)
      state.removals += 1
      return .none
    }
    return Notes().reduce(into: &state, action: action)
  }
}

/// `Notes` reading the wall clock: each added note gets the time it was added.
private struct ClockReadingNotes: Reducer {
  func reduce(into state: inout Notes.State, action: Note) -> Effect<Note> {
    if case .add(let text) = action {
      state.items.append("\(text) at \(Date().timeIntervalSince1970)")
      return .none
    }
    return Notes().reduce(into: &state, action: action)
  }
}

@Suite struct ReplayEngineTests {
  let recordingBuild = BuildIdentity("notes 1.0 (1)")
  let thisBuild = BuildIdentity("notes 1.1 (2)")

  private func engine(_ reducer: some Reducer<Notes.State, Note> & Sendable, build: BuildIdentity)
    -> ReplayEngine<Notes.State, Note>
  {
    ReplayEngine(apply: { reducer.apply($1, to: &$0) }, build: build)
  }

  @Test func theRecordingBuildsReducerAgreesWithEveryFingerprint() throws {
    let recording = try Recording(count: 60, fingerprintEvery: 1, build: recordingBuild)
    let report = try engine(Notes(), build: thisBuild).run(try recording.input())
    #expect(report.divergence == nil)
    #expect(report.fingerprintsChecked == 60)
    #expect(report.firstSequence == 1 && report.lastSequence == 60)
  }

  @Test func aChangedReducerIsReportedAtTheFirstEventWhoseStateDiffers() throws {
    let recording = try Recording(count: 60, fingerprintEvery: 1, build: recordingBuild)
    // The first event after which the changed reducer's state differs from the recorded one.
    var state = Notes.State()
    var expected: UInt64?
    for event in recording.events where expected == nil {
      switch event.payload {
      case .action(let action): _ = ChangedNotes().reduce(into: &state, action: action)
      case .command(let command): state = recording.states[Int(command.target ?? 0)]
      }
      if state != recording.states[Int(event.sequence)] { expected = event.sequence }
    }
    let first = try #require(expected)
    let report = try engine(ChangedNotes(), build: thisBuild).run(
      try recording.input(recordedStates: [first + 3]))
    let divergence = try #require(report.divergence)
    #expect(divergence.kind == .behaviourChange)
    #expect(divergence.event.sequence == first)
    #expect(divergence.isExact)
    #expect(divergence.event.type == "remove(index:)")
    #expect(divergence.comparedWith == .snapshot(sequence: first + 3))
    #expect(divergence.changes.contains { $0.path.hasPrefix("items[") }, "\(divergence.changes)")
    #expect(!divergence.replayedChange.isEmpty)
    #expect(divergence.recorded?.build == recordingBuild)
    #expect(divergence.replayed != divergence.recorded?.state)
  }

  @Test func sparseFingerprintsNameTheWindowTheDivergenceIsIn() throws {
    let recording = try Recording(count: 60, fingerprintEvery: 10, build: recordingBuild)
    let report = try engine(ChangedAdd(), build: thisBuild).run(try recording.input())
    let divergence = try #require(report.divergence)
    // The first add is event 1: the first fingerprint, at 10, disagrees, and nothing before it agreed.
    #expect(divergence.event.sequence == 10)
    #expect(divergence.lastAgreeing == 0)
    #expect(!divergence.isExact)
    #expect(divergence.window == 1...10)
    #expect(divergence.cause.contains("1...10"))
  }

  @Test func aReducerReadingTheWallClockIsNondeterministic() throws {
    let recording = try Recording(count: 30, fingerprintEvery: 5, build: recordingBuild)
    let report = try engine(ClockReadingNotes(), build: thisBuild).run(try recording.input())
    let divergence = try #require(report.divergence)
    #expect(divergence.kind == .nondeterminism)
    // Found by replaying the window twice: the first event that differs is the first add.
    let firstAdd = try #require(recording.events.first { if case .add = $0.action { true } else { false } })
    #expect(divergence.event.sequence == firstAdd.sequence)
    #expect(divergence.isExact)
    #expect(divergence.cause.contains("two replays"))
  }

  @Test func theRecordingBuildNotReproducingItsLogIsNondeterminism() throws {
    let recording = try Recording(count: 30, fingerprintEvery: 1, build: recordingBuild)
    // A deterministic reducer that differs, replayed as the build that recorded: it cannot be a change.
    let report = try engine(ChangedAdd(), build: recordingBuild).run(try recording.input())
    let divergence = try #require(report.divergence)
    #expect(divergence.kind == .nondeterminism)
    #expect(divergence.cause.contains("the build that recorded"))
  }

  @Test func anEventThatDoesNotDecodeIsADecodeFailure() throws {
    let recording = try Recording(count: 30, fingerprintEvery: 1, build: recordingBuild)
    var input = try recording.input()
    let events = recording.events
    input.events = { range, body in
      for event in events where range.contains(event.sequence) {
        if event.sequence == 17 {
          throw FileJournalError.noUpcastPath(
            "add", from: 1, to: 2, missingStep: 1, at: EventLocation(sequence: 17, segment: "s", offset: 0))
        }
        try body(event)
      }
    }
    let report = try engine(Notes(), build: thisBuild).run(input)
    let divergence = try #require(report.divergence)
    #expect(divergence.kind == .decodeFailure)
    #expect(divergence.event.sequence == 17)
    #expect(divergence.lastAgreeing == 16)
    #expect(divergence.cause.contains("upcast"))
  }

  @Test func aRecordingWithoutFingerprintsIsCheckedForDeterminismOnRequest() throws {
    let recording = try Recording(count: 30, fingerprintEvery: 1_000, build: recordingBuild)
    let quiet = try engine(ClockReadingNotes(), build: thisBuild).run(try recording.input())
    #expect(quiet.divergence == nil)
    #expect(quiet.notes.contains { $0.contains("no fingerprints") })
    let checked = try engine(ClockReadingNotes(), build: thisBuild).run(
      try recording.input(), determinism: .always)
    #expect(checked.divergence?.kind == .nondeterminism)
    let clean = try engine(Notes(), build: thisBuild).run(try recording.input(), determinism: .always)
    #expect(clean.divergence == nil)
  }

  @Test func actionTypesAreFullCasePaths() {
    enum Inner { case began(x: Double), ended }
    struct Addressed { var id: Int; var action: Inner }
    enum Outer { case list(Addressed), tap(Int, Inner), plain }
    #expect(ActionCasePath.of(Outer.list(Addressed(id: 3, action: .began(x: 1)))) == "list.began(x:)")
    #expect(ActionCasePath.of(Outer.tap(1, .ended)) == "tap.ended")
    #expect(ActionCasePath.of(Outer.plain) == "plain")
    #expect(ActionCasePath.of(Note.rename(index: 0, title: "t")) == "rename(index:title:)")
    #expect(ActionCasePath.of(HistoryCommand.undo(to: 3)) == "undo(to:)")
    #expect(ActionCasePath.of(42) == "Int")
  }
}

/// `Notes` whose added notes are upper-cased: deterministic, and different from the first add on.
private struct ChangedAdd: Reducer {
  func reduce(into state: inout Notes.State, action: Note) -> Effect<Note> {
    if case .add(let text) = action {
      state.items.append(text.uppercased())
      return .none
    }
    return Notes().reduce(into: &state, action: action)
  }
}
