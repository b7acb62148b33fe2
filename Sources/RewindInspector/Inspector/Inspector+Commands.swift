import Foundation
import Rewind

/// Why a well-formed command could not be carried out; the reply names it and the connection stays open.
struct CommandError: Error, Equatable {
  /// One word: `range`, `history`, `path`, `disabled`, `decode`, `not-allowed`, `not-live`, `nothing`.
  var code: String
  var reason: String
}

// The commands (Docs/Inspector.md, "Commands"). They run on the attached session's reader thread, one at
// a time.

extension Inspector {
  /// The origin of what a tool sends.
  var toolOrigin: Origin { Origin(actor: options.actor) }

  /// Carries out `command`; returns the reply's fields.
  func perform(_ command: InspectorCommand) -> Result<[(String, InspectorJSON)], CommandError> {
    do {
      switch command {
      case .jump(let to): return .success(try jump(to: to))
      case .live:
        let held = inspection.held.count
        returnToLive(reason: nil)
        return .success([("applied", .integer(Int64(held)))])
      case .pause: return .success(try pause())
      case .skip(let sequence): return .success(try setSkipped(sequence, skipped: true))
      case .unskip(let sequence): return .success(try setSkipped(sequence, skipped: false))
      case .dispatch(let action): return .success(try dispatch(action))
      case .undo: return .success(try undoOrRedo(undo: true))
      case .redo: return .success(try undoOrRedo(undo: false))
      case .events(let from, let to, let changes):
        return .success(try events(from: from, to: to, changes: changes))
      case .state(let at, let path, let offset, let limit, let skipped):
        return .success(try state(at: at, path: path, offset: offset, limit: limit, skipped: skipped))
      case .ping, .bye: return .success([])
      }
    } catch let error as CommandError {
      return .failure(error)
    } catch {
      return .failure(CommandError(code: "history", reason: "\(error)"))
    }
  }

  /// Checks that event `sequence` exists and its state can be rebuilt.
  func checkReachable(_ sequence: UInt64, allowZero: Bool = true) throws(CommandError) {
    let newest = inspection.newest
    guard sequence <= newest else {
      throw CommandError(code: "range", reason: "no event \(sequence): the newest is \(newest)")
    }
    let first = inspection.firstReachable
    guard sequence >= first, allowZero || sequence > 0 else {
      throw CommandError(
        code: "range",
        reason: "event \(sequence) is before the history this store can rebuild (from \(first))")
    }
  }

  /// Holds the app's sends if it is live; returns the sequence number the hold started at, or `nil`.
  func holdIfLive() -> UInt64? {
    guard view.withLock({ $0.mode == .live }) else { return nil }
    return inspection.holdSends()
  }

  func jump(to target: UInt64) throws -> [(String, InspectorJSON)] {
    try checkReachable(target)
    let skipped = view.withLock { $0.skipped }
    let state = try inspection.state(at: target, skipping: skipped)
    _ = holdIfLive()
    inspection.show(state, at: target)
    let changed = skipped.isEmpty ? [] : (try? skipEffects(skipped, through: target).changed) ?? []
    view.withLock { view in
      view.changed = changed
      view.set(.past(at: target))
    }
    return [("shown", .unsigned(target))]
  }

  func pause() throws -> [(String, InspectorJSON)] {
    let at = holdIfLive() ?? inspection.newest
    let skipped = view.withLock { $0.skipped }
    if skipped.isEmpty {
      inspection.showLive()
    } else {
      inspection.show(try inspection.state(at: at, skipping: skipped), at: at)
    }
    view.withLock { $0.set(.paused(at: at)) }
    return [("shown", .unsigned(at))]
  }

  func setSkipped(_ sequence: UInt64, skipped isSkipped: Bool) throws -> [(String, InspectorJSON)] {
    try checkReachable(sequence, allowZero: false)
    guard sequence > inspection.firstReachable else {
      throw CommandError(
        code: "range", reason: "event \(sequence) is part of the state this store's history starts from")
    }
    let held = holdIfLive()
    let (mode, current) = view.withLock { ($0.mode, $0.skipped) }
    var skipped = current
    if isSkipped { skipped.insert(sequence) } else { skipped.remove(sequence) }
    let shown = mode.shown ?? held ?? inspection.newest
    let outcome: (changed: [UInt64], checkedThrough: UInt64, state: State?)
    do {
      outcome = try skipEffects(skipped, through: shown)
    } catch {
      // Nothing changed: a hold this command started ends with it.
      if held != nil { inspection.releaseHeldSends() }
      throw error
    }
    if let state = outcome.state {
      inspection.show(state, at: shown)
    } else {
      inspection.showLive()
    }
    view.withLock { view in
      if view.mode == .live { view.set(.paused(at: shown)) }
      view.skipped = skipped
      view.changed = outcome.changed
      view.version &+= 1
    }
    return [
      ("skipped", .array(skipped.sorted().map(InspectorJSON.unsigned))),
      ("changed", .array(outcome.changed.map(InspectorJSON.unsigned))),
      ("checkedThrough", .unsigned(outcome.checkedThrough)),
    ]
  }

  /// The most events a skip replays to flag the events whose outcome changed.
  static var skipCheckLimit: UInt64 { 20_000 }

  /// Replays the recorded history and the one without `skipped` side by side, from the first skipped
  /// event through `through`: the events whose own change to the state differs between the two, and the
  /// state as of `through` without the skipped events (`nil` when nothing is skipped).
  func skipEffects(_ skipped: Set<UInt64>, through: UInt64) throws -> (
    changed: [UInt64], checkedThrough: UInt64, state: State?
  ) {
    guard let first = skipped.min(), first <= through else {
      return ([], through, skipped.isEmpty ? nil : try inspection.state(at: through, skipping: skipped))
    }
    var recorded = try inspection.state(at: first - 1)
    var without = recorded
    var changed: [UInt64] = []
    let last = min(through, first + Self.skipCheckLimit)
    let lastSkipped = skipped.max() ?? first
    var sequence = first
    var converged = false
    while sequence <= last && !converged {
      let page = min(last, sequence + 4_095)
      for event in try inspection.events(in: sequence...page) {
        let (recordedBefore, withoutBefore) = (recorded, without)
        try inspection.apply(event, to: &recorded)
        if !skipped.contains(event.sequence) {
          try inspection.apply(event, to: &without, skipping: skipped)
          let recordedChanges = StateDiffer.changes(from: recordedBefore, to: recorded, limit: 200)
          let withoutChanges = StateDiffer.changes(from: withoutBefore, to: without, limit: 200)
          if recordedChanges.changes != withoutChanges.changes { changed.append(event.sequence) }
        }
        // Once both histories reach the same state after the last skip, every later outcome agrees.
        if event.sequence >= lastSkipped, inspectionUnchanged(recorded, without) {
          converged = true
          break
        }
      }
      sequence = page + 1
    }
    // Replayed through `through`, `without` is the answer; otherwise it is rebuilt (after converging it
    // equals the recorded state there).
    let state = converged || last < through ? try inspection.state(at: through, skipping: skipped) : without
    return (changed, converged ? through : last, state)
  }

  func dispatch(_ action: InspectorJSON) throws -> [(String, InspectorJSON)] {
    guard let decode = dispatch.decode else {
      throw CommandError(
        code: "disabled", reason: "this app allows no actions to be dispatched from the inspector")
    }
    guard view.withLock({ $0.mode == .live }) else {
      throw CommandError(code: "not-live", reason: "return to live before dispatching")
    }
    let decoded: Action
    do {
      decoded = try decode(action.bytes)
    } catch {
      throw CommandError(
        code: "decode",
        reason: "the app's codec could not decode the action: \(String(describing: error).prefix(300))")
    }
    let type = ActionTypeName.path(of: decoded)
    guard dispatch.allows(type) else {
      throw CommandError(
        code: "not-allowed",
        reason: "\(type) is not an action type this app allows the inspector to dispatch (allowed: "
          + (dispatch.allowed.isEmpty ? "none" : dispatch.allowed.joined(separator: ", ")) + ")")
    }
    store.send(decoded, from: toolOrigin)
    return [("seq", .unsigned(inspection.newest)), ("actionType", .string(type))]
  }

  func undoOrRedo(undo: Bool) throws -> [(String, InspectorJSON)] {
    guard view.withLock({ $0.mode == .live }) else {
      throw CommandError(code: "not-live", reason: "return to live before \(undo ? "undoing" : "redoing")")
    }
    guard undo ? store.canUndo : store.canRedo else {
      throw CommandError(code: "nothing", reason: "nothing to \(undo ? "undo" : "redo")")
    }
    if undo { store.undo(from: toolOrigin) } else { store.redo(from: toolOrigin) }
    return [("seq", .unsigned(inspection.newest))]
  }

  /// The most events, and bytes of JSON, one `events` reply holds.
  static var eventsPageLimit: UInt64 { 500 }
  static var eventsPageBytes: Int { 4 << 20 }

  func events(from: UInt64, to: UInt64, changes: Bool) throws -> [(String, InspectorJSON)] {
    guard from >= 1, from <= to else {
      throw CommandError(code: "range", reason: "from must be at least 1 and at most to")
    }
    let newest = inspection.newest
    guard to <= newest else {
      throw CommandError(code: "range", reason: "no event \(to): the newest is \(newest)")
    }
    let last = min(to, from + Self.eventsPageLimit - 1)
    var base: State? = changes ? try? inspection.state(at: from - 1) : nil
    let encoder = EventEncoder<Action>()
    var list: [InspectorJSON] = []
    var bytes = 0
    var next: UInt64? = last < to ? last + 1 : nil
    for event in try inspection.events(in: from...last) {
      var found: (changes: [StateChange], omitted: Int)?
      if var state = base {
        let before = state
        if (try? inspection.apply(event, to: &state)) != nil {
          found = StateDiffer.changes(from: before, to: state)
          base = state
        } else {
          base = nil
        }
      }
      let json = encoder.json(event, changes: found)
      bytes += json.bytes.count
      list.append(json)
      if bytes > Self.eventsPageBytes, event.sequence < to {
        next = event.sequence + 1
        break
      }
    }
    return [("events", .array(list)), ("next", next.map(InspectorJSON.unsigned) ?? .null)]
  }

  func state(at sequence: UInt64, path: String, offset: Int, limit: Int, skipped: Bool) throws -> [(
    String, InspectorJSON
  )] {
    try checkReachable(sequence)
    let skips = skipped ? view.withLock { $0.skipped } : []
    let root = try inspection.state(at: sequence, skipping: skips)
    guard let parsed = StatePath(path) else {
      throw CommandError(code: "path", reason: "not a state path: \(path.prefix(100))")
    }
    guard let value = parsed.resolve(in: root) else {
      throw CommandError(
        code: "path", reason: "no value at \(path.prefix(100)) in the state as of event \(sequence)")
    }
    return [
      ("at", .unsigned(sequence)), ("node", StateNode.json(value, path: path, offset: offset, limit: limit)),
    ]
  }
}
