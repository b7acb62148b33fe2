import Rewind

/// The live stream of events to one tool: the last event sent, and the state as of it, from which each
/// next event is replayed to find its changes.
struct EventStream<State: Sendable, Action: Sendable> {
  let inspection: StoreInspection<State, Action>
  let encoder = EventEncoder<Action>()
  /// The last event sent (or skipped over with a gap).
  private(set) var cursor: UInt64
  let firstReachable: UInt64
  /// The state as of `cursor`, when known; replayed forward as events are sent.
  private var base: State?
  private var baseKnown = false

  init(inspection: StoreInspection<State, Action>, cursor: UInt64, firstReachable: UInt64) {
    self.inspection = inspection
    self.cursor = cursor
    self.firstReachable = firstReachable
  }

  /// The frames that bring the tool from `cursor` to `newest`: a `gap` first when it is more than `maxLag`
  /// behind (or the history before it cannot be rebuilt), then `events` frames of at most
  /// ``InspectorSession/batchLimit`` events. `snapshot` is the store's state as of `newest` when known.
  mutating func advance(
    to newest: UInt64, snapshot: (state: State, sequence: UInt64)?, maxLag: UInt64
  ) -> [InspectorJSON] {
    var frames: [InspectorJSON] = []
    if newest > cursor, newest - cursor > maxLag || cursor < firstReachable {
      let gapEnd = newest - cursor > maxLag ? newest : firstReachable
      frames.append(
        .object([("type", .string("gap")), ("from", .unsigned(cursor + 1)), ("to", .unsigned(gapEnd))]))
      cursor = gapEnd
      if let snapshot, snapshot.sequence == gapEnd {
        base = snapshot.state
        baseKnown = true
      } else {
        baseKnown = false
      }
    }
    guard newest > cursor else { return frames }
    if !baseKnown {
      base = try? inspection.state(at: cursor)
      baseKnown = true
    }
    let last = min(newest, cursor + UInt64(InspectorSession<State, Action>.batchLimit))
    guard let events = try? inspection.events(in: (cursor + 1)...last), !events.isEmpty else { return frames }
    var batch: [InspectorJSON] = []
    var bytes = 0
    for event in events {
      var changes: (changes: [StateChange], omitted: Int)?
      if var state = base {
        let before = state
        do {
          try inspection.apply(event, to: &state)
          changes = StateDiffer.changes(from: before, to: state)
          base = state
        } catch {
          base = nil
        }
      }
      let json = encoder.json(event, changes: changes)
      bytes += json.bytes.count
      batch.append(json)
      cursor = event.sequence
      if bytes > InspectorSession<State, Action>.batchBytes { break }
    }
    frames.append(.object([("type", .string("events")), ("events", .array(batch))]))
    return frames
  }
}
