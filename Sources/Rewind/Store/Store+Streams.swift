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
    // A collection of any other kind is copied into a PersistentArray of its own for each delivery (as an
    // array was before): O(n), like the general diff that follows.
    ChangesetSequence(
      hub: hub, extract: { PersistentArray($0[keyPath: keyPath]) },
      diff: { StagedChangeset(source: $0, target: $1) },
      shared: sharedDiffs.shared(for: keyPath, sectioned: false, of: C.Element.self))
  }

  /// Diffed changes of the ``IdentifiedArray`` at `keyPath`: first the current elements, then a staged
  /// changeset each time they change.
  ///
  /// Each delivery shares the state's storage (extracting the elements is O(1)) and the diff steps over
  /// what the two versions share: a one-row edit costs a subscriber O(log n), whatever the list's length.
  @inlinable
  public func changesets<Element: Differentiable & Identifiable & Sendable>(
    of keyPath: KeyPath<State, IdentifiedArray<Element>> & Sendable
  ) -> ChangesetSequence<State, Element> where Element.ID: Sendable {
    ChangesetSequence(
      hub: hub, extract: { $0[keyPath: keyPath].elements },
      diff: { PersistentArray.stagedChangeset(from: $0, to: $1) },
      shared: sharedDiffs.shared(for: keyPath, sectioned: false, of: Element.self))
  }

  /// Diffed changes of the ``PersistentArray`` at `keyPath`, sharing the state's storage like
  /// the `IdentifiedArray` overload of `changesets(of:)`.
  @inlinable
  public func changesets<Element: Differentiable & Sendable>(
    of keyPath: KeyPath<State, PersistentArray<Element>> & Sendable
  ) -> ChangesetSequence<State, Element> {
    ChangesetSequence(
      hub: hub, extract: { $0[keyPath: keyPath] },
      diff: { PersistentArray.stagedChangeset(from: $0, to: $1) },
      shared: sharedDiffs.shared(for: keyPath, sectioned: false, of: Element.self))
  }

  /// Diffed changes of the sectioned collection at `keyPath`: section and element deletes, inserts, moves
  /// (also across sections) and updates.
  @inlinable
  public func changesets<Section: DifferentiableSection & Sendable>(
    of keyPath: KeyPath<State, [Section]> & Sendable
  ) -> ChangesetSequence<State, Section> {
    ChangesetSequence(
      hub: hub, extract: { PersistentArray($0[keyPath: keyPath]) },
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

  /// Ends every subscription (``states``, changesets, values, changes) and cancels running effects, but
  /// leaves the store taking sends and its journal open.
  ///
  /// Subscribers that have not seen the newest state receive it, then their iteration ends; subscriptions
  /// made afterwards deliver the current state and end.
  @available(
    *, deprecated,
    message: "use close(), which also stops sends and closes the journal (a file journal's directory too)"
  )
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
  ) throws -> StagedChangeset<PersistentArray<C.Element>> where C.Element: Differentiable & Sendable {
    StagedChangeset(
      source: PersistentArray(try state(at: from)[keyPath: keyPath]),
      target: PersistentArray(try state(at: to)[keyPath: keyPath]))
  }

  /// The staged changes that turn the ``IdentifiedArray`` at `keyPath` as of event `from` into the one as of
  /// `to`, stepping over the storage the two versions share.
  /// - Throws: ``HistoryError`` when either state cannot be rebuilt.
  public func changeset<Element: Differentiable & Identifiable & Sendable>(
    of keyPath: KeyPath<State, IdentifiedArray<Element>> & Sendable, from: UInt64, to: UInt64
  ) throws -> StagedChangeset<PersistentArray<Element>> where Element.ID: Sendable {
    IdentifiedArray.stagedChangeset(
      from: try state(at: from)[keyPath: keyPath], to: try state(at: to)[keyPath: keyPath])
  }

  /// The staged changes that turn the sectioned collection at `keyPath` as of event `from` into the one as
  /// of `to`.
  /// - Throws: ``HistoryError`` when either state cannot be rebuilt.
  public func changeset<Section: DifferentiableSection & Sendable>(
    of keyPath: KeyPath<State, [Section]> & Sendable, from: UInt64, to: UInt64
  ) throws -> StagedChangeset<PersistentArray<Section>> {
    StagedChangeset(
      source: PersistentArray(try state(at: from)[keyPath: keyPath]),
      target: PersistentArray(try state(at: to)[keyPath: keyPath]))
  }
}
