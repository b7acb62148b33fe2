import RewindDiff

/// One delivery of a ``ChangesetSequence``: the collection as of an event, and the staged changes from the
/// previous delivery's collection to it.
///
/// The first delivery is the subscription's starting snapshot: `changeset` is empty and `events` is `nil`.
/// Every later delivery covers the events after the previous one; applying its `changeset` to the previous
/// `elements` gives these `elements` exactly.
public struct CollectionUpdate<Element> {
  /// The collection as of event ``sequence``, sharing storage with the store's state where the state holds
  /// an ``IdentifiedArray`` or a ``PersistentArray`` (`Array(elements)` copies it into an array).
  public var elements: PersistentArray<Element>
  /// The changes from the previous delivery's elements to these; empty for the first delivery.
  public var changeset: StagedChangeset<PersistentArray<Element>>
  /// The events this delivery covers (after the previous delivery, through ``sequence``); `nil` for the first.
  public var events: ClosedRange<UInt64>?
  /// The sequence number of the last event applied to ``elements``.
  public var sequence: UInt64

  /// Whether this is the subscription's starting snapshot.
  public var isInitial: Bool { events == nil }

  /// Creates an update.
  public init(
    elements: PersistentArray<Element>, changeset: StagedChangeset<PersistentArray<Element>>,
    events: ClosedRange<UInt64>?, sequence: UInt64
  ) {
    self.elements = elements
    self.changeset = changeset
    self.events = events
    self.sequence = sequence
  }
}

extension CollectionUpdate: Sendable where Element: Sendable {}
