import Foundation
import Rewind
import RewindLog

/// Replays a recording through this build's reducer and finds the first event where they disagree.
///
/// One pass decodes each event, applies it (a history jump brings back the state of its target), and
/// compares every fingerprint the recording holds with the replayed state. At the first fingerprint that
/// disagrees, the events since the last one that agreed are replayed twice more, fingerprinting every
/// event, to tell nondeterminism (the two differ) from a change of behaviour; then the replay goes on
/// to the nearest recorded state to show the difference by path. An event that does not decode ends the
/// replay there as a decode failure.
struct ReplayEngine<State: Encodable & Sendable, Action: Codable & Sendable>: Sendable {
  /// Applies an action event, its reducer drawing the values the event recorded (effects are not run:
  /// what they sent is in the log).
  let apply: @Sendable (inout State, Event<Action>) -> Void
  /// This build, to tell a fingerprint this build recorded from one another build did.
  let build: BuildIdentity
  /// States kept every this many events, from which a jump's target is replayed.
  var checkpointInterval: UInt64 = 1_024

  /// How hard to look for nondeterminism where every fingerprint agrees.
  enum DeterminismCheck: Sendable {
    /// Only when a fingerprint disagrees (to classify it).
    case onDivergence
    /// Also replay everything a second time and compare the two at every fingerprint and at the end.
    case always
  }

  /// Replays `input` and reports the first divergence.
  /// - Throws: what reading `input` throws other than a decode failure (a damaged log, an I/O error), and
  ///   the state's encoding errors.
  func run(_ input: ReplayInput<State, Action>, determinism: DeterminismCheck = .onDivergence) throws
    -> ReplayReport
  {
    let started = Date()
    var replay = Replaying(engine: self, input: input)
    var report = ReplayReport(
      source: input.name, firstSequence: input.baseSequence + 1, lastSequence: input.baseSequence,
      fingerprintsChecked: 0, divergence: nil)
    defer { report.seconds = Date().timeIntervalSince(started) }
    let redactedFrom = input.redactedFingerprints.keys.min()
    report.redactionChangedOutcomeAt = redactedFrom
    if let redactedFrom {
      report.notes.append(
        "redacted values changed the outcome on the device from event \(redactedFrom) on: the recording's "
          + "fingerprints from there are compared with the device's replay of the redacted events")
    }
    guard input.lastSequence > input.baseSequence else { return report }
    if let expected = input.baseFingerprint, try StateFingerprint.of(input.base) != expected {
      report.divergence = Divergence(
        kind: .decodeFailure,
        event: DivergentEvent(
          sequence: input.baseSequence, type: "start state", actor: nil, source: .system,
          correlationID: input.baseSequence, timestamp: Date(timeIntervalSinceReferenceDate: 0), payload: ""),
        lastAgreeing: max(1, input.baseSequence) - 1,
        cause:
          "the recording's start state (as of event \(input.baseSequence)) decodes into another value in "
          + "this build: its state type changed (a field added, dropped or renamed) since it was recorded",
        redactions: input.redactions(input.baseSequence...input.baseSequence))
      return report
    }

    var lastAgreeing = input.baseSequence
    var agreeingState = input.base
    var disagreement: (event: Event<Action>, replayed: StateFingerprint)?
    var fingerprinted: [(sequence: UInt64, fingerprint: StateFingerprint)] = []
    do {
      try input.events((input.baseSequence + 1)...input.lastSequence) { event in
        try replay.apply(event)
        report.lastSequence = event.sequence
        guard let recorded = event.fingerprint else { return }
        report.fingerprintsChecked += 1
        let replayed = try StateFingerprint.of(replay.state)
        if replayed == input.redactedFingerprints[event.sequence] ?? recorded.state {
          lastAgreeing = event.sequence
          agreeingState = replay.state
          if determinism == .always { fingerprinted.append((event.sequence, replayed)) }
        } else {
          disagreement = (event, replayed)
          throw Stop()
        }
      }
    } catch is Stop {
    } catch let error as FileJournalError where error.isDecodeFailure {
      let sequence = error.location?.sequence ?? report.lastSequence + 1
      report.divergence = decodeFailure(error, at: sequence, lastAgreeing: lastAgreeing, input: input)
      return report
    }

    if let (event, replayed) = disagreement {
      report.divergence = try classify(
        event, replayed: replayed, lastAgreeing: lastAgreeing, from: agreeingState, replay: &replay,
        input: input)
      return report
    }
    if report.fingerprintsChecked == 0 {
      report.notes.append(
        "the recording holds no fingerprints: only decoding\(determinism == .always ? " and determinism" : "") "
          + "was checked")
    }
    if determinism == .always {
      fingerprinted.append((report.lastSequence, try StateFingerprint.of(replay.state)))
      report.divergence = try secondRun(
        from: input.base, at: input.baseSequence, comparing: fingerprinted, replay: &replay, input: input)
    }
    return report
  }

  // MARK: Classifying

  /// The divergence at `event`, whose recorded fingerprint the replayed state (`replayed`) disagrees
  /// with, the last agreement being at `lastAgreeing` with `agreeingState`.
  private func classify(
    _ event: Event<Action>, replayed: StateFingerprint, lastAgreeing: UInt64, from agreeingState: State,
    replay: inout Replaying, input: ReplayInput<State, Action>
  ) throws -> Divergence {
    let window = (lastAgreeing + 1)...event.sequence
    let recorded = event.fingerprint
    var kind: DivergenceKind
    var divergent = DivergentEvent(event)
    var cause: String
    if let differing = try firstDifference(from: agreeingState, over: window, replay: &replay, input: input) {
      kind = .nondeterminism
      cause =
        "two replays of event \(differing.event.sequence) on this build give different states "
        + "(\(differing.first.short)… and \(differing.second.short)…): the reducer reads something the log "
        + "does not hold (the wall clock, a random source, a global) instead of the action or a recorded "
        + "dependency"
      divergent = differing.event
    } else if let build = recorded?.build, build == self.build {
      kind = .nondeterminism
      cause =
        "the build that recorded event \(event.sequence) (build \(build)) computes a different state "
        + "replaying it (\(replayed.short)… where it recorded \(recorded?.state.short ?? "?")…): the reducer "
        + "read something the log does not hold when the event was recorded"
    } else {
      kind = .behaviourChange
      let recordedBuild = recorded?.build.map { "build \($0)" } ?? "an unknown build"
      cause =
        "this build (\(self.build)) computes \(replayed.short)… after event \(event.sequence) where the "
        + "recording (\(recordedBuild)) has \(recorded?.state.short ?? "?")…"
    }
    if divergent.sequence == event.sequence, lastAgreeing + 1 < event.sequence, kind != .nondeterminism {
      cause +=
        "; the log holds no fingerprints between events \(lastAgreeing) and \(event.sequence), so the first "
        + "event that differs lies in \(window.lowerBound)...\(window.upperBound)"
    }
    // The window once more, keeping the states around the event (not kept in the first pass: holding a
    // copy of every state would make each event copy what the next one changes).
    var run = replay.restarted(at: agreeingState)
    var before = agreeingState
    try input.events(window) { windowEvent in
      if windowEvent.sequence == event.sequence { before = run.state }
      try run.apply(windowEvent)
    }
    let replayedChange = StateChange.between(try tree(before), try tree(run.state))
    let (changes, compared) = try compareWithRecorded(
      after: event.sequence, state: run.state, replay: &replay, input: input)
    return Divergence(
      kind: kind, event: divergent,
      lastAgreeing: divergent.sequence == event.sequence ? lastAgreeing : divergent.sequence - 1,
      recorded: divergent.sequence == event.sequence ? recorded : nil,
      replayed: divergent.sequence == event.sequence ? replayed : nil, cause: cause, changes: changes,
      comparedWith: compared, replayedChange: replayedChange,
      redactions: input.redactions(input.baseSequence...event.sequence))
  }

  /// Replays `window` twice from `state` (as of `window.lowerBound - 1`), fingerprinting every event,
  /// and returns the first event where the two replays differ.
  private func firstDifference(
    from state: State, over window: ClosedRange<UInt64>, replay: inout Replaying,
    input: ReplayInput<State, Action>
  ) throws -> (event: DivergentEvent, first: StateFingerprint, second: StateFingerprint)? {
    var firstRun: [StateFingerprint] = []
    firstRun.reserveCapacity(Int(clamping: window.count))
    var events: [DivergentEvent] = []
    var run = replay.restarted(at: state)
    try input.events(window) { event in
      try run.apply(event)
      firstRun.append(try StateFingerprint.of(run.state))
      events.append(DivergentEvent(event))
    }
    run = replay.restarted(at: state)
    var index = 0
    var found: (DivergentEvent, StateFingerprint, StateFingerprint)?
    do {
      try input.events(window) { event in
        try run.apply(event)
        let second = try StateFingerprint.of(run.state)
        if index < firstRun.count, second != firstRun[index] {
          found = (events[index], firstRun[index], second)
          throw Stop()
        }
        index += 1
      }
    } catch is Stop {}
    return found
  }

  /// Replays everything a second time and compares it with the first replay's fingerprints: the
  /// determinism check of a recording every fingerprint of which agreed.
  private func secondRun(
    from base: State, at baseSequence: UInt64,
    comparing first: [(sequence: UInt64, fingerprint: StateFingerprint)], replay: inout Replaying,
    input: ReplayInput<State, Action>
  ) throws -> Divergence? {
    var run = replay.restarted(at: base)
    var next = 0
    var lastAgreeing = baseSequence
    var agreeingState = base
    var mismatch: UInt64?
    do {
      try input.events((baseSequence + 1)...input.lastSequence) { event in
        try run.apply(event)
        guard next < first.count, first[next].sequence == event.sequence else { return }
        if try StateFingerprint.of(run.state) != first[next].fingerprint {
          mismatch = event.sequence
          throw Stop()
        }
        lastAgreeing = event.sequence
        agreeingState = run.state
        next += 1
      }
    } catch is Stop {}
    guard let mismatch else { return nil }
    let window = (lastAgreeing + 1)...mismatch
    guard
      let differing = try firstDifference(from: agreeingState, over: window, replay: &replay, input: input)
    else {
      // The two fingerprinting replays agreed: the difference came and went with the first replay alone.
      return nil
    }
    return Divergence(
      kind: .nondeterminism, event: differing.event, lastAgreeing: differing.event.sequence - 1,
      replayed: differing.second,
      cause: "two replays of event \(differing.event.sequence) on this build give different states "
        + "(\(differing.first.short)… and \(differing.second.short)…): the reducer reads something the log "
        + "does not hold (the wall clock, a random source, a global)")
  }

  /// The replayed state against the first recorded state at or after event `sequence`: the replay goes on
  /// from `state` (as of `sequence`) to it.
  private func compareWithRecorded(
    after sequence: UInt64, state: State, replay: inout Replaying, input: ReplayInput<State, Action>
  ) throws -> ([StateChange], RecordedStateSource?) {
    guard let recorded = input.recordedStates.first(where: { $0.source.sequence >= sequence }),
      recorded.source.sequence <= input.lastSequence
    else {
      return ([], nil)
    }
    var run = replay.restarted(at: state)
    if recorded.source.sequence > sequence {
      do {
        try input.events((sequence + 1)...recorded.source.sequence) { try run.apply($0) }
      } catch let error as FileJournalError where error.isDecodeFailure {
        return ([], nil)
      }
    }
    return (StateChange.between(recorded.tree, try tree(run.state)), recorded.source)
  }

  /// A decode failure at event `sequence`.
  private func decodeFailure(
    _ error: FileJournalError, at sequence: UInt64, lastAgreeing: UInt64, input: ReplayInput<State, Action>
  ) -> Divergence {
    let event =
      input.describe(sequence)
      ?? DivergentEvent(
        sequence: sequence, type: error.eventType ?? "?", actor: nil, source: .user, correlationID: sequence,
        timestamp: Date(timeIntervalSinceReferenceDate: 0), payload: "")
    return Divergence(
      kind: .decodeFailure, event: event, lastAgreeing: lastAgreeing, cause: error.description,
      redactions: input.redactions(input.baseSequence...sequence))
  }

  func tree(_ state: State) throws -> JSONValue { JSONValue(try BinaryEncoder().encodeTree(state)) }

  /// Ends a pass early from inside an event callback.
  private struct Stop: Error {}
}

extension FileJournalError {
  /// Whether the event is well formed but does not decode as the app's action type (its schema changed,
  /// no upcaster covers it, or an upcaster failed), rather than the log being damaged.
  var isDecodeFailure: Bool {
    [.undecodableEvent, .unknownEventType, .noUpcastPath, .upcastFailed].contains(code)
  }
}
