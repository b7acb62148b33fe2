import RewindDiff

extension PersistentArray where Element: Differentiable {
  /// The staged changes that turn `source` into `target`: the same result as
  /// `StagedChangeset(source:target:)`, in time proportional to what differs when the two share storage.
  ///
  /// The common prefix and suffix (equal identifiers, as the general diff defines them) are found by
  /// walking the two trees from the front and from the back, stepping over the subtrees they share without
  /// looking inside (so a value must be content-equal to itself, as `==` is); the general diff then runs on
  /// what is left between them, and its stages are assembled back onto both collections, sharing their
  /// storage. When what is left is large, the general diff runs on everything.
  ///
  /// - Complexity: O(log n) to find a change between versions of one collection, plus O(w · log n) for
  ///   the w elements between the first and last change (so a one-row edit of a million-row list costs
  ///   O(log n)); O(n) when the two share nothing.
  @inlinable
  public static func stagedChangeset(from source: Self, to target: Self) -> StagedChangeset<Self> {
    if source.tree.isIdentical(to: target.tree) { return StagedChangeset() }
    let sourceCount = source.count
    let targetCount = target.count
    let shorter = Swift.min(sourceCount, targetCount)
    // The common prefix and suffix exactly as the general diff finds them (equal identifiers), with the
    // content updates inside them; shared subtrees are stepped over, as they hold no update.
    // Comparing value by value through the trees costs more than the general diff's scan of two arrays:
    // when about an eighth of the values would be, little is shared and the general diff runs instead.
    let budget = (sourceCount &+ targetCount) / 8 &+ 64
    var updates: [(target: Int, source: Int)] = []
    let prefixRun = source.tree.sharedRun(with: target.tree, forward: true, limit: shorter, budget: budget) {
      old, new, offset in
      guard old.differenceIdentifier == new.differenceIdentifier else { return false }
      if !new.isContentEqual(to: old) { updates.append((offset, offset)) }
      return true
    }
    guard let prefix = prefixRun else { return StagedChangeset(source: source, target: target) }
    var suffixUpdates: [(target: Int, source: Int)] = []
    let suffixRun = source.tree.sharedRun(
      with: target.tree, forward: false, limit: shorter &- prefix, budget: budget
    ) { old, new, offset in
      guard old.differenceIdentifier == new.differenceIdentifier else { return false }
      if !new.isContentEqual(to: old) {
        suffixUpdates.append((targetCount &- 1 &- offset, sourceCount &- 1 &- offset))
      }
      return true
    }
    guard let suffix = suffixRun else { return StagedChangeset(source: source, target: target) }

    let sourceMiddle = prefix..<(sourceCount &- suffix)
    let targetMiddle = prefix..<(targetCount &- suffix)
    // Splicing costs about log n per element; past an eighth of the collection, the general diff is cheaper.
    if (sourceMiddle.count &+ targetMiddle.count) &* 8 > sourceCount &+ targetCount &+ 64 {
      return StagedChangeset(source: source, target: target)
    }
    let oldMiddle = source.tree.values(in: sourceMiddle)
    let newMiddle = target.tree.values(in: targetMiddle)
    let middle = StagedChangeset<[Element]>(source: oldMiddle, target: newMiddle)
    return assemble(
      middle, prefix: prefix, oldMiddle: oldMiddle, source: source, target: target,
      sourceMiddle: sourceMiddle, targetMiddle: targetMiddle,
      endUpdates: updates + suffixUpdates.reversed())
  }

  /// The changeset of the whole collections from the general diff of their middles (`middle`, computed
  /// between `oldMiddle` and the target's middle) and the content updates found in the common prefix and
  /// suffix (`endUpdates`, target and source offsets, in increasing order).
  @inlinable
  static func assemble(
    _ middle: StagedChangeset<[Element]>, prefix: Int, oldMiddle: [Element], source: Self, target: Self,
    sourceMiddle: Range<Int>, targetMiddle: Range<Int>, endUpdates: [(target: Int, source: Int)]
  ) -> StagedChangeset<Self> {
    func shifted(_ path: ElementPath) -> ElementPath {
      ElementPath(element: path.element &+ prefix, section: 0)
    }
    var deleted: [ElementPath] = []
    var inserted: [ElementPath] = []
    var moved: [Move<ElementPath>] = []
    var middleUpdated: [ElementPath] = []
    var middleWithOldContent: [Element]?
    for stage in middle {
      deleted.append(contentsOf: stage.elementDeleted.map(shifted))
      inserted.append(contentsOf: stage.elementInserted.map(shifted))
      moved.append(
        contentsOf: stage.elementMoved.map { Move(source: shifted($0.source), target: shifted($0.target)) })
      middleUpdated.append(contentsOf: stage.elementUpdated.map(shifted))
      // The inserts-and-moves stage shows updated elements with their old content (unless it is last).
      if !stage.elementInserted.isEmpty || !stage.elementMoved.isEmpty { middleWithOldContent = stage.data }
    }
    // The prefix's updates come first, then the middle's, then the suffix's: increasing target offsets.
    let split = endUpdates.firstIndex { $0.target >= targetMiddle.upperBound } ?? endUpdates.count
    let updated =
      endUpdates[..<split].map { ElementPath(element: $0.target, section: 0) } + middleUpdated
      + endUpdates[split...].map { ElementPath(element: $0.target, section: 0) }

    var stages: [Changeset<Self>] = []
    if !deleted.isEmpty {
      // The source without the deleted elements.
      var survivors: [Element] = []
      survivors.reserveCapacity(oldMiddle.count)
      var next = 0
      for (offset, element) in oldMiddle.enumerated() {
        if next < deleted.count && deleted[next].element == prefix &+ offset {
          next &+= 1
        } else {
          survivors.append(element)
        }
      }
      var data = source
      data.replaceSubrange(sourceMiddle, with: survivors)
      stages.append(Changeset(data: data, elementDeleted: deleted))
    }
    if !inserted.isEmpty || !moved.isEmpty {
      // The target, with updated elements still showing their old content until the update stage.
      var data = target
      if !updated.isEmpty {
        if !middleUpdated.isEmpty, let middleWithOldContent {
          data.replaceSubrange(targetMiddle, with: middleWithOldContent)
        }
        for update in endUpdates { data[update.target] = source[update.source] }
      }
      stages.append(Changeset(data: data, elementInserted: inserted, elementMoved: moved))
    }
    if !updated.isEmpty {
      stages.append(Changeset(data: target, elementUpdated: updated))
    }
    // The last stage ends exactly at the target, as in the general diff.
    if !stages.isEmpty { stages[stages.count &- 1].data = target }
    return StagedChangeset(stages)
  }
}

extension IdentifiedArray where Element: Differentiable {
  /// The staged changes that turn `source` into `target`, equal to the general diff of their elements, in
  /// time proportional to what differs when they are versions of one collection (see
  /// ``PersistentArray/stagedChangeset(from:to:)``).
  @inlinable
  public static func stagedChangeset(from source: Self, to target: Self) -> StagedChangeset<
    PersistentArray<Element>
  > {
    PersistentArray.stagedChangeset(from: source.elements, to: target.elements)
  }
}
