/// A change of a store's whole state: the state before, the state after, and the events between.
public struct StateChange<State, Action> {
  /// The state as of ``from``.
  public var old: State
  /// The state as of ``to``.
  public var new: State
  /// The sequence number of the last event applied to ``old``.
  public var from: UInt64
  /// The sequence number of the last event applied to ``new``.
  public var to: UInt64
  /// The events after ``from`` through ``to``, read from the journal.
  public var events: [Event<Action>]
}

extension StateChange: Sendable where State: Sendable, Action: Sendable {}

/// Whole-state changes as an async sequence: each element goes from the state the previous one ended at
/// (at first, the state when the iterator was made) to the newest, with the events between.
///
/// Coalesces: a slow subscriber receives one change spanning many events. The events are read from the
/// journal when the change is delivered, which is why iteration can throw.
public struct StateChangeSequence<State: Sendable, Action: Sendable>: AsyncSequence, Sendable {
  public typealias Element = StateChange<State, Action>
  public typealias Failure = any Error

  let hub: StateHub<State>
  let journal: any Journal<Action>

  /// Starts iterating from the store's state at this moment.
  public func makeAsyncIterator() -> Iterator { Iterator(sequence: self, start: hub.snapshot) }

  /// Iterates a ``StateChangeSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    let sequence: StateChangeSequence
    var last: StateHub<State>.Snapshot

    init(sequence: StateChangeSequence, start: StateHub<State>.Snapshot) {
      self.sequence = sequence
      self.last = start
    }

    /// The next change, on the caller's actor; `nil` when the sequence has ended.
    public mutating func next(isolation actor: isolated (any Actor)?) async throws -> StateChange<
      State, Action
    >? {
      let start = last
      guard let newest = await sequence.hub.next(after: start.sequence, isolation: actor) else { return nil }
      last = newest
      let events = try sequence.journal.events(in: (start.sequence + 1)...newest.sequence)
      return StateChange(
        old: start.state, new: newest.state, from: start.sequence, to: newest.sequence, events: events)
    }

    /// The next change; `nil` when the sequence has ended.
    public mutating func next() async throws -> StateChange<State, Action>? { try await next(isolation: nil) }
  }
}
