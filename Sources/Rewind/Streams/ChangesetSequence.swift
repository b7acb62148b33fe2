import RewindDiff

/// Diffed changes of one collection in a store's state, as an async sequence of ``CollectionUpdate``s.
///
/// The diff runs on the subscriber's side, when it asks for the next update: from the collection it was
/// last given to the newest one. A slow subscriber therefore receives one coalesced changeset and holds one
/// collection, however many events went by; `send` does no work for it beyond a wake-up. The collection is
/// a ``PersistentArray``: for an ``IdentifiedArray`` (or a `PersistentArray`) in state it shares the
/// state's storage, and the diff steps over what the two versions share, so a delivery costs O(log n) for a
/// one-row edit whatever the list's length. Deliveries whose
/// collection did not change are skipped (their events are covered by the next delivery). Subscribers of
/// the same collection moving between the same two events share one extraction and one diff. Iteration
/// runs on the caller's actor, so a `@MainActor` loop applies changesets without extra hops.
public struct ChangesetSequence<State: Sendable, Element: Sendable>: AsyncSequence, Sendable {
  public typealias Failure = Never

  @usableFromInline let hub: StateHub<State>
  @usableFromInline let extract: @Sendable (State) -> PersistentArray<Element>
  @usableFromInline let diff:
    @Sendable (PersistentArray<Element>, PersistentArray<Element>) -> StagedChangeset<
      PersistentArray<Element>
    >
  @usableFromInline let shared: SharedDiff<Element>

  // Made by the store's inlinable `changesets(of:)`, so that `extract` and `diff` are specialized for the
  // app's element type where it subscribes: an unspecialized diff cost several times more per delivery.
  @usableFromInline
  init(
    hub: StateHub<State>, extract: @escaping @Sendable (State) -> PersistentArray<Element>,
    diff:
      @escaping @Sendable (PersistentArray<Element>, PersistentArray<Element>) -> StagedChangeset<
        PersistentArray<Element>
      >,
    shared: SharedDiff<Element>
  ) {
    (self.hub, self.extract, self.diff, self.shared) = (hub, extract, diff, shared)
  }

  public func makeAsyncIterator() -> Iterator { Iterator(sequence: self) }

  /// Iterates a ``ChangesetSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let sequence: ChangesetSequence
    @usableFromInline var delivered: (elements: PersistentArray<Element>, sequence: UInt64)?
    @usableFromInline var lastSequence: UInt64?

    init(sequence: ChangesetSequence) { self.sequence = sequence }

    /// The next update, on the caller's actor; `nil` when the sequence has ended.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async -> CollectionUpdate<Element>? {
      while let snapshot = await sequence.hub.next(after: lastSequence, isolation: actor) {
        lastSequence = snapshot.sequence
        let elements = sequence.shared.elements(
          at: snapshot.sequence, from: snapshot.state, extract: sequence.extract)
        guard let previous = delivered else {
          delivered = (elements, snapshot.sequence)
          return CollectionUpdate(
            elements: elements, changeset: StagedChangeset(), events: nil, sequence: snapshot.sequence)
        }
        let changeset = sequence.shared.changeset(
          from: previous.sequence, to: snapshot.sequence, old: previous.elements, new: elements,
          diff: sequence.diff)
        guard !changeset.stages.isEmpty else { continue }
        delivered = (elements, snapshot.sequence)
        return CollectionUpdate(
          elements: elements, changeset: changeset, events: (previous.sequence + 1)...snapshot.sequence,
          sequence: snapshot.sequence)
      }
      return nil
    }

    /// The next update; `nil` when the sequence has ended.
    @inlinable
    public mutating func next() async -> CollectionUpdate<Element>? { await next(isolation: nil) }
  }
}
