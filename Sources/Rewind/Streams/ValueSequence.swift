/// One value of a store's state, delivered only when it really changes (by `==`).
///
/// The first element is the current value. Coalesces like ``StateSequence``.
public struct ValueSequence<State: Sendable, Value: Equatable & Sendable>: AsyncSequence, Sendable {
  public typealias Element = Value
  public typealias Failure = Never

  @usableFromInline let hub: StateHub<State>
  @usableFromInline let extract: @Sendable (State) -> Value

  @usableFromInline
  init(hub: StateHub<State>, extract: @escaping @Sendable (State) -> Value) {
    (self.hub, self.extract) = (hub, extract)
  }

  public func makeAsyncIterator() -> Iterator { Iterator(sequence: self) }

  /// Iterates a ``ValueSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let sequence: ValueSequence
    @usableFromInline var last: Value?
    @usableFromInline var lastSequence: UInt64?

    init(sequence: ValueSequence) { self.sequence = sequence }

    /// The next different value, on the caller's actor; `nil` when the sequence has ended.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
      while let snapshot = await sequence.hub.next(after: lastSequence, isolation: actor) {
        lastSequence = snapshot.sequence
        let value = sequence.extract(snapshot.state)
        if let last, last == value { continue }
        last = value
        return value
      }
      return nil
    }

    /// The next different value; `nil` when the sequence has ended.
    @inlinable
    public mutating func next() async -> Value? { await next(isolation: nil) }
  }
}
