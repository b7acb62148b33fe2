import RewindDiff
import Synchronization

/// The newest extraction and diff of one collection, shared by every subscriber to it.
///
/// Subscribers woken by the same send move between the same two sequence numbers, so the first to get
/// there extracts the elements and diffs them, and the others reuse both. Diffing still happens on the
/// subscribers' side, never in `send`; a subscriber whose range differs (a slow one) diffs its own range.
/// Holds one collection and one changeset: O(state), shared with the state's own storage where it can be.
@usableFromInline
final class SharedDiff<Element: Sendable>: Sendable {
  struct Entry: Sendable {
    var from: UInt64
    var to: UInt64
    var changeset: StagedChangeset<PersistentArray<Element>>
  }

  private struct Latest: Sendable {
    var elements: (sequence: UInt64, elements: PersistentArray<Element>)?
    var diff: Entry?
  }

  private let latest = Locked(Latest())

  /// The elements as of `sequence`, extracting them from `state` unless another subscriber already did.
  @usableFromInline
  func elements<State>(
    at sequence: UInt64, from state: State, extract: (State) -> PersistentArray<Element>
  ) -> PersistentArray<Element> {
    if let cached = latest.withLock({ $0.elements }), cached.sequence == sequence { return cached.elements }
    let elements = extract(state)
    latest.withLock { latest in
      if (latest.elements?.sequence ?? 0) <= sequence { latest.elements = (sequence, elements) }
    }
    return elements
  }

  /// The changes from `old` (as of `from`) to `new` (as of `to`), computing them unless another subscriber
  /// already did.
  @usableFromInline
  func changeset(
    from: UInt64, to: UInt64, old: PersistentArray<Element>, new: PersistentArray<Element>,
    diff: (PersistentArray<Element>, PersistentArray<Element>) -> StagedChangeset<PersistentArray<Element>>
  ) -> StagedChangeset<PersistentArray<Element>> {
    if let cached = latest.withLock({ $0.diff }), cached.from == from, cached.to == to {
      return cached.changeset
    }
    let changeset = diff(old, new)
    latest.withLock { latest in
      if (latest.diff?.to ?? 0) <= to { latest.diff = Entry(from: from, to: to, changeset: changeset) }
    }
    return changeset
  }
}

/// The store's ``SharedDiff``s, one per collection key path and kind of diff.
@usableFromInline
final class SharedDiffRegistry: Sendable {
  private struct Key: Hashable, @unchecked Sendable {
    // @unchecked: key paths are immutable; AnyKeyPath is simply not marked Sendable.
    var keyPath: AnyKeyPath
    var sectioned: Bool
  }

  private let diffs = Locked<[Key: any Sendable]>([:])

  @usableFromInline
  func shared<Element: Sendable>(for keyPath: AnyKeyPath, sectioned: Bool, of _: Element.Type) -> SharedDiff<
    Element
  > {
    diffs.withLock { diffs in
      let key = Key(keyPath: keyPath, sectioned: sectioned)
      if let existing = diffs[key] as? SharedDiff<Element> { return existing }
      let created = SharedDiff<Element>()
      diffs[key] = created
      return created
    }
  }
}
