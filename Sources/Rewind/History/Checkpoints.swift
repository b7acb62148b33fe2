/// Copies of the state kept every so many events, so that the state at any sequence number is at most
/// one interval of replay away.
@usableFromInline
struct Checkpoints<State> {
  @usableFromInline
  struct Checkpoint {
    @usableFromInline
    var sequence: UInt64
    @usableFromInline
    var state: State

    @inlinable
    init(sequence: UInt64, state: State) {
      self.sequence = sequence
      self.state = state
    }
  }

  @usableFromInline
  let interval: UInt64
  @usableFromInline
  let limit: Int
  /// In increasing sequence order; the first is where history starts (the initial state or a snapshot),
  /// and is kept even when the limit drops older ones.
  @usableFromInline
  var checkpoints: [Checkpoint]
  /// The initial state, as of event 0, when history starts at a snapshot: the state as of an event before
  /// the origin is replayed from it (reading the log's older events), rather than refused.
  @usableFromInline
  var genesis: Checkpoint?

  @inlinable
  init(origin: Checkpoint, interval: Int, limit: Int) {
    self.interval = UInt64(max(1, interval))
    self.limit = max(1, limit)
    checkpoints = [origin]
  }

  /// The sequence number history starts from.
  @usableFromInline
  var origin: Checkpoint { checkpoints[0] }

  /// Keeps `state` if `sequence` falls on the interval.
  @inlinable
  mutating func offer(_ state: @autoclosure () -> State, at sequence: UInt64) {
    guard sequence % interval == 0, sequence > (checkpoints.last?.sequence ?? 0) else { return }
    defer { checkInvariantsIfEnabled() }
    checkpoints.append(Checkpoint(sequence: sequence, state: state()))
    if checkpoints.count > limit + 1 { checkpoints.remove(at: 1) }
  }

  /// The newest checkpoint at or before `sequence`, or the genesis state for a sequence number before the
  /// origin; `nil` when there is none.
  @inlinable
  func start(atOrBefore sequence: UInt64) -> Checkpoint? {
    sequence >= origin.sequence ? nearest(atOrBefore: sequence) : genesis
  }

  /// The newest checkpoint at or before `sequence`.
  /// - Complexity: O(log n).
  @inlinable
  func nearest(atOrBefore sequence: UInt64) -> Checkpoint {
    var low = 0
    var high = checkpoints.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if checkpoints[mid].sequence <= sequence { low = mid } else { high = mid - 1 }
    }
    return checkpoints[low]
  }
}

extension Checkpoints: Sendable where State: Sendable {}
extension Checkpoints.Checkpoint: Sendable where State: Sendable {}
