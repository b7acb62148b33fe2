import Foundation
import Rewind
import RewindLog

/// What a replay reads: the state it starts from, the events after it, and what the recording says
/// about them (the fingerprints in the events, recorded states, a report's redactions). Made from a log
/// directory (``ReplayInput/log(_:initialState:upcasters:from:through:)``) or a bug report.
struct ReplayInput<State: Sendable, Action: Codable & Sendable> {
  /// The log directory or report file, for messages.
  var name: String
  /// The state the replay starts from, as of event ``baseSequence``.
  var base: State
  /// The event ``base`` is as of: 0 for the initial state.
  var baseSequence: UInt64
  /// The last event to replay.
  var lastSequence: UInt64
  /// Calls its body with each event of the range, decoded and upcast, in order.
  /// - Throws: `FileJournalError` when one does not decode (a decode failure) or the input is damaged,
  ///   and what the body throws.
  var events: (ClosedRange<UInt64>, (Event<Action>) throws -> Void) throws -> Void
  /// The envelope of an event read without the app's types: for an event that does not decode.
  var describe: (UInt64) -> DivergentEvent?
  /// States the recording holds, oldest first, as trees: what a divergence is compared with.
  var recordedStates: [(source: RecordedStateSource, tree: JSONValue)] = []
  /// The fingerprint the recording gives the start state (a report's, computed on the device from the
  /// state it holds): a start state that decodes into another value in this build is a decode failure.
  var baseFingerprint: StateFingerprint?
  /// For a redacted report: the fingerprints the device's replay of the redacted events computed, where
  /// they differ from the recorded ones; a replay compares with them there.
  var redactedFingerprints: [UInt64: StateFingerprint] = [:]
  /// For a redacted report: the redactions that touch the base state or the events of a range.
  var redactions: (ClosedRange<UInt64>) -> [String] = { _ in [] }
}

extension ReplayInput {
  /// The events of the log `reader` reads, from `first` (default 1) through `last` (default the newest),
  /// decoded as `Action` with `upcasters`, starting from `initialState`; the log's snapshots are the
  /// recorded states.
  ///
  /// A replay that starts after event 1 needs the state before it: from a snapshot of the log as of
  /// `first - 1` when `State` decodes (see the `Decodable` overload).
  static func log(
    _ reader: LogReader, initialState: State, upcasters: EventUpcasters, through last: UInt64? = nil
  ) -> ReplayInput {
    let newest = reader.summary.lastSequence
    return ReplayInput(
      name: reader.directory, base: initialState, baseSequence: 0,
      lastSequence: min(last ?? newest, newest),
      events: { range, body in
        try reader.forEachEvent(
          as: Action.self, upcasters: upcasters, from: range.lowerBound, through: range.upperBound, body)
      },
      describe: { sequence in describe(sequence, in: reader) },
      recordedStates: recordedStates(of: reader))
  }

  /// The envelope of event `sequence` of `reader`'s log, read as a tree.
  static func describe(_ sequence: UInt64, in reader: LogReader) -> DivergentEvent? {
    var found: DivergentEvent?
    try? reader.forEachEvent(from: sequence, through: sequence) { event, _ in
      found = DivergentEvent(inspected: event)
    }
    return found
  }

  /// The usable snapshots of `reader`'s log, as trees, oldest first.
  static func recordedStates(of reader: LogReader) -> [(source: RecordedStateSource, tree: JSONValue)] {
    reader.snapshots().filter { $0.problem == nil }.compactMap { summary in
      summary.state.map { (RecordedStateSource.snapshot(sequence: summary.sequence), JSONValue($0)) }
    }.sorted { $0.source.sequence < $1.source.sequence }
  }
}

extension DivergentEvent {
  /// An event read without the app's types: its envelope, and its recorded type name.
  init(inspected event: InspectedEvent) {
    let metadata = event.payload["metadata"]
    let source: EventSource
    if let cause = metadata?[path: "source", "effect", "cause"], case .uint(let sequence) = cause {
      source = .effect(cause: sequence)
    } else if metadata?[path: "source", "system"] != nil {
      source = .system
    } else {
      source = .user
    }
    var actor: String?
    if case .string(let name)? = metadata?["actor"] { actor = name }
    var correlation = event.sequence
    if case .uint(let value)? = metadata?["correlationID"] { correlation = value }
    var timestamp = Date(timeIntervalSinceReferenceDate: 0)
    if case .double(let seconds)? = event.payload["timestamp"] {
      timestamp = Date(timeIntervalSinceReferenceDate: seconds)
    }
    self.init(
      sequence: event.sequence, type: event.typeName, actor: actor, source: source,
      correlationID: correlation, timestamp: timestamp, payload: "")
  }
}
