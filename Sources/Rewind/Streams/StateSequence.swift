/// The newest state of a store, as an async sequence: the current state first, then each newer one.
///
/// It coalesces: a subscriber that is slower than the sends skips straight to the newest state, never to a
/// stale one, and holds one state at a time, however many events went by. The sequence ends when the
/// consuming task is cancelled or the store is released.
///
/// ```swift
/// for await state in store.states {
///   render(state)
/// }
/// ```
public struct StateSequence<State: Sendable>: AsyncSequence, Sendable {
  public typealias Element = State
  public typealias Failure = Never

  @usableFromInline let hub: StateHub<State>

  @usableFromInline
  init(hub: StateHub<State>) { self.hub = hub }

  public func makeAsyncIterator() -> Iterator { Iterator(hub: hub) }

  /// Iterates a ``StateSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let hub: StateHub<State>
    @usableFromInline var lastSequence: UInt64?

    init(hub: StateHub<State>) { self.hub = hub }

    /// The next newer state, on the caller's actor; `nil` when the sequence has ended.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async -> State? {
      guard let snapshot = await hub.next(after: lastSequence, isolation: actor) else { return nil }
      lastSequence = snapshot.sequence
      return snapshot.state
    }

    /// The next newer state; `nil` when the sequence has ended.
    @inlinable
    public mutating func next() async -> State? {
      await next(isolation: nil)
    }
  }
}

extension Store {
  /// The current state and then each newer one, coalescing when the subscriber is slower than the sends.
  ///
  /// Each iteration is an independent subscriber. `send` pays nothing per subscriber beyond waking the
  /// ones waiting for a new state.
  @inlinable
  public var states: StateSequence<State> { StateSequence(hub: hub) }
}
