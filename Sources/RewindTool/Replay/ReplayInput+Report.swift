import Rewind
import RewindLog

extension ReplayInput {
  /// The events of the bug report `report`, decoded as `Action` with `upcasters`, from its start state
  /// (decoded by `decodeState`; `initialState` when it starts at event 1); its end state is the recorded
  /// state, its manifest's redactions are noted, and where its redactions changed the outcome on the
  /// device, the device's fingerprints are the ones compared.
  /// - Throws: ``ToolError`` when the start state does not decode.
  static func report(
    _ report: ReportBundle, initialState: State, upcasters: EventUpcasters,
    decodeState: (ReportBundle) throws -> State?
  ) throws -> ReplayInput {
    let metadata = report.metadata
    let base: State
    do {
      base = try decodeState(report) ?? initialState
    } catch {
      throw ToolError.damaged(path: report.path, cause: "\(error)")
    }
    let manifest = metadata.redaction
    var recorded: [(source: RecordedStateSource, tree: JSONValue)] = []
    if let end = report.endStateTree {
      recorded.append((.report(sequence: metadata.lastSequence), JSONValue(end)))
    }
    var input = ReplayInput(
      name: report.path, base: base, baseSequence: metadata.firstSequence - 1,
      lastSequence: metadata.lastSequence,
      events: { range, body in
        try report.forEachEvent(
          as: Action.self, upcasters: upcasters, from: range.lowerBound, through: range.upperBound, body)
      },
      describe: { sequence in
        var found: DivergentEvent?
        try? report.forEachInspectedEvent(from: sequence, through: sequence) {
          found = DivergentEvent(inspected: $0)
        }
        return found
      },
      recordedStates: recorded)
    input.baseFingerprint = metadata.baseFingerprint
    input.redactedFingerprints = Dictionary(
      manifest.changedFingerprints.map { ($0.sequence, $0.fingerprint) },
      uniquingKeysWith: { first, _ in first })
    let baseSequence = metadata.firstSequence - 1
    input.redactions = { range in
      manifest.redacted.filter { value in
        switch value.place {
        case .state(let sequence): sequence == baseSequence
        case .event(let sequence): range.contains(sequence)
        }
      }.map(\.description)
    }
    return input
  }
}
