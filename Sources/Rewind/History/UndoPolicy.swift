/// How an action takes part in undo.
public enum UndoPolicy: Sendable, Hashable {
  /// Its own undo step, shown in menus as `name` ("Undo Archive").
  case step(name: String?)
  /// Merged into the previous step when that step has the same `key` and its last action was at most
  /// `window` earlier (typing, scrolling); otherwise a new step named `name`.
  case coalesce(key: String, window: Duration, name: String?)
  /// Not undoable: transient updates such as a gesture's intermediate positions. Undoing an earlier step
  /// brings back the state before that step, so it also takes back such changes made after it.
  case ignore
  /// Clears the undo and redo history: nothing before it can be undone.
  case barrier

  /// Its own unnamed undo step.
  public static let step = UndoPolicy.step(name: nil)
}

/// How a store keeps history: the undo policy and limit, and the checkpoints that bound time travel.
public struct HistoryConfiguration<Action>: Sendable {
  /// How each action takes part in undo; `nil` turns undo off.
  public var undoPolicy: (@Sendable (Action) -> UndoPolicy)?
  /// The most undo steps kept; older ones are forgotten.
  public var undoLimit: Int
  /// A copy of the state is kept every this many events, so ``Store/state(at:)`` replays at most this many.
  public var checkpointInterval: Int
  /// The most checkpoints kept in memory; older ones are dropped (time travel before them replays from the
  /// start).
  public var checkpointLimit: Int

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - undoLimit: the most undo steps kept (default 100).
  ///   - checkpointInterval: events between kept states, the bound on a `state(at:)` replay (default 8,192:
  ///     a kept state costs nothing when taken, but the first change of each part of the state after it
  ///     copies that part, so on a big list a short interval makes most sends copy a leaf).
  ///   - checkpointLimit: the most checkpoints kept (default 4,096).
  ///   - undoPolicy: how each action takes part in undo; `nil` (the default) turns undo off.
  public init(
    undoLimit: Int = 100, checkpointInterval: Int = 8_192, checkpointLimit: Int = 4_096,
    undoPolicy: (@Sendable (Action) -> UndoPolicy)? = nil
  ) {
    self.undoPolicy = undoPolicy
    self.undoLimit = max(0, undoLimit)
    self.checkpointInterval = max(1, checkpointInterval)
    self.checkpointLimit = max(1, checkpointLimit)
  }

  /// Undo off; time travel with the default checkpoints.
  public static var standard: HistoryConfiguration { HistoryConfiguration() }

  /// Every action its own unnamed undo step.
  public static var undoEveryAction: HistoryConfiguration { HistoryConfiguration { _ in .step } }
}
