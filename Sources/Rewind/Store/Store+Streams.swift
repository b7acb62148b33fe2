import RewindDiff

extension Store {
  /// Diffed changes of the flat collection at `keyPath`: first the current elements, then a staged
  /// changeset each time they change.
  ///
  /// ```swift
  /// for await update in store.changesets(of: \.mails) {
  ///   if update.isInitial { table.reloadData(update.elements) } else { table.apply(update.changeset) }
  /// }
  /// ```
  @inlinable
  public func changesets<C: Collection & Sendable>(of keyPath: KeyPath<State, C> & Sendable)
    -> ChangesetSequence<State, C.Element>
  where C.Element: Differentiable & Sendable {
    ChangesetSequence(
      hub: hub, extract: { Self.copyOfElements($0[keyPath: keyPath]) },
      diff: { StagedChangeset(source: $0, target: $1) },
      shared: sharedDiffs.shared(for: keyPath, sectioned: false, of: C.Element.self))
  }

  /// The elements of `collection` in a buffer of their own.
  ///
  /// Not `Array(collection)`, which for an array or an ``IdentifiedArray`` shares the state's buffer: a
  /// subscriber keeps its last delivery until the next one, and a shared buffer would make the store's
  /// next mutation of the collection copy all of it, on the sender's side, after every delivery.
  @inlinable
  static func copyOfElements<C: Collection>(_ collection: C) -> [C.Element] {
    var elements: [C.Element] = []
    elements.reserveCapacity(collection.count)
    elements.append(contentsOf: collection)
    return elements
  }

  /// Diffed changes of the sectioned collection at `keyPath`: section and element deletes, inserts, moves
  /// (also across sections) and updates.
  @inlinable
  public func changesets<Section: DifferentiableSection & Sendable>(
    of keyPath: KeyPath<State, [Section]> & Sendable
  ) -> ChangesetSequence<State, Section> {
    ChangesetSequence(
      hub: hub, extract: { $0[keyPath: keyPath] },
      diff: { StagedChangeset(source: $0, target: $1) },
      shared: sharedDiffs.shared(for: keyPath, sectioned: true, of: Section.self))
  }

  /// The value at `keyPath`: first the current one, then each time it really changes.
  @inlinable
  public func values<Value: Equatable & Sendable>(of keyPath: KeyPath<State, Value> & Sendable)
    -> ValueSequence<State, Value>
  {
    ValueSequence(hub: hub, extract: { $0[keyPath: keyPath] })
  }

  /// Whole-state changes with the events between, from the state when its iterator is made onwards.
  public func changes() -> StateChangeSequence<State, Action> {
    StateChangeSequence(hub: hub, journal: journal)
  }

  /// Ends every subscription (``states``, changesets, values, changes) and cancels running effects.
  ///
  /// Subscribers that have not seen the newest state receive it, then their iteration ends; subscriptions
  /// made afterwards deliver the current state and end. The store still accepts sends.
  public func shutdown() {
    effects.cancelAll()
    hub.finish()
  }
}

extension Store {
  /// The staged changes that turn the collection at `keyPath` as of event `from` into the one as of `to`:
  /// time travel for lists.
  /// - Throws: ``HistoryError`` when either state cannot be rebuilt.
  public func changeset<C: Collection & Sendable>(
    of keyPath: KeyPath<State, C> & Sendable, from: UInt64, to: UInt64
  ) throws -> StagedChangeset<[C.Element]> where C.Element: Differentiable & Sendable {
    StagedChangeset(
      source: Array(try state(at: from)[keyPath: keyPath]), target: Array(try state(at: to)[keyPath: keyPath])
    )
  }

  /// The staged changes that turn the sectioned collection at `keyPath` as of event `from` into the one as
  /// of `to`.
  /// - Throws: ``HistoryError`` when either state cannot be rebuilt.
  public func changeset<Section: DifferentiableSection & Sendable>(
    of keyPath: KeyPath<State, [Section]> & Sendable, from: UInt64, to: UInt64
  ) throws -> StagedChangeset<[Section]> {
    StagedChangeset(
      source: try state(at: from)[keyPath: keyPath], target: try state(at: to)[keyPath: keyPath])
  }
}
