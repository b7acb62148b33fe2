/// Everything a store keeps about its past beside the journal: undo stacks, checkpoints and branches.
@usableFromInline
struct StoreHistory<State> {
  @usableFromInline
  var undo: UndoHistory<State>
  @usableFromInline
  var checkpoints: Checkpoints<State>
  @usableFromInline
  var branches: [HistoryBranch]

  @inlinable
  init(
    origin state: State, sequence: UInt64, genesis: State? = nil, undoLimit: Int, checkpointInterval: Int,
    checkpointLimit: Int
  ) {
    undo = UndoHistory(limit: undoLimit)
    checkpoints = Checkpoints(
      origin: .init(sequence: sequence, state: state), interval: checkpointInterval, limit: checkpointLimit)
    if sequence > 0, let genesis { checkpoints.genesis = .init(sequence: 0, state: genesis) }
    branches = [HistoryBranch(base: sequence, first: sequence + 1, last: sequence)]
  }

  /// Starts a branch at jump event `sequence`, which brought back the state as of `base`.
  @inlinable
  mutating func startBranch(at sequence: UInt64, from base: UInt64) {
    branches.append(HistoryBranch(base: base, first: sequence, last: sequence))
  }
}

/// A run of events applied one after another.
///
/// The first branch starts where the store's history starts. Each undo, redo or restore starts a new one
/// from the state it brought back; the branch it left stays in the log, reachable with
/// ``Store/state(at:)`` and ``Store/restore(to:from:)``.
public struct HistoryBranch: Sendable, Hashable, CustomStringConvertible {
  /// The sequence number whose state the branch continues from.
  public var base: UInt64
  /// Its first event: the jump that started it (for the first branch, the first event after the origin).
  public var first: UInt64
  /// Its last event so far; `first - 1` while it is empty.
  public var last: UInt64

  /// Creates a branch.
  public init(base: UInt64, first: UInt64, last: UInt64) {
    self.base = base
    self.first = first
    self.last = last
  }

  /// Its events, in order.
  public var events: ClosedRange<UInt64>? { last >= first ? first...last : nil }

  public var description: String {
    "from #\(base): " + (events.map { "#\($0.lowerBound)…#\($0.upperBound)" } ?? "empty")
  }
}

extension StoreHistory: Sendable where State: Sendable {}
