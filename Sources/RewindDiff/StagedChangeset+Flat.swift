extension StagedChangeset where Collection: RangeReplaceableCollection, Collection.Element: Differentiable {
  /// The staged changes that turn the flat collection `source` into `target`.
  ///
  /// At most three stages, each omitted when empty: element deletes; element inserts and moves;
  /// element updates. Paths use section 0.
  /// - Complexity: O(n + m) expected, plus O(k log k) for the k paired items outside the common
  ///   prefix and suffix when they are shuffled. Equal prefixes and suffixes are found with `==` on
  ///   identifiers alone, so an unchanged collection costs one comparison per element.
  @inlinable
  public init(source sourceCollection: Collection, target targetCollection: Collection) {
    let source = Array(sourceCollection)
    let target = Array(targetCollection)
    let sourceCount = source.count
    let targetCount = target.count

    // Common prefix and suffix: paired in place, no hashing.
    let shorter = Swift.min(sourceCount, targetCount)
    var prefix = 0
    while prefix < shorter && source[prefix].differenceIdentifier == target[prefix].differenceIdentifier {
      prefix &+= 1
    }
    var suffix = 0
    while suffix < shorter &- prefix
      && source[sourceCount &- 1 &- suffix].differenceIdentifier
        == target[targetCount &- 1 &- suffix].differenceIdentifier
    {
      suffix &+= 1
    }
    let sourceMiddle = prefix..<(sourceCount &- suffix)
    let targetMiddle = prefix..<(targetCount &- suffix)

    var matching =
      sourceMiddle.isEmpty || targetMiddle.isEmpty
      ? IdentifierMatching(sourceCount: sourceMiddle.count, targetCount: targetMiddle.count)
      : source.withUnsafeBufferPointer { source in
        target.withUnsafeBufferPointer { target in
          matchIdentifiers(
            source: UnsafeBufferPointer(rebasing: source[sourceMiddle]),
            target: UnsafeBufferPointer(rebasing: target[targetMiddle]))
        }
      }

    // Deletes; then each surviving middle element's offset among the middle survivors replaces its
    // pairing (which `targetToSource` still holds), saving an array.
    var deleted: [ElementPath] = []
    var middleSurvivors = 0
    matching.sourceToTarget.withUnsafeMutableBufferPointer { sourceToTarget in
      for local in 0..<sourceToTarget.count {
        if sourceToTarget[local] < 0 {
          deleted.append(ElementPath(element: prefix &+ local, section: 0))
        } else {
          sourceToTarget[local] = Int32(truncatingIfNeeded: middleSurvivors)
          middleSurvivors &+= 1
        }
      }
    }
    let survivorOffset = matching.sourceToTarget

    // Paired middle elements keep their place along a longest increasing run; the rest move.
    var pairedSources: [Int32] = []
    pairedSources.reserveCapacity(targetMiddle.count)
    for local in 0..<targetMiddle.count where matching.targetToSource[local] >= 0 {
      pairedSources.append(matching.targetToSource[local])
    }
    let stays = markLongestIncreasingSubsequence(pairedSources)

    var inserted: [ElementPath] = []
    var moved: [Move<ElementPath>] = []
    var updated: [ElementPath] = []
    var updatedSource: [Int] = []  // the source offset of each updated element, in step with `updated`
    for offset in 0..<prefix where !target[offset].isContentEqual(to: source[offset]) {
      updated.append(ElementPath(element: offset, section: 0))
      updatedSource.append(offset)
    }
    var paired = 0
    for local in 0..<targetMiddle.count {
      let targetOffset = prefix &+ local
      let sourceLocal = Int(matching.targetToSource[local])
      guard sourceLocal >= 0 else {
        inserted.append(ElementPath(element: targetOffset, section: 0))
        continue
      }
      if !stays[paired] {
        moved.append(
          Move(
            source: ElementPath(element: prefix &+ Int(survivorOffset[sourceLocal]), section: 0),
            target: ElementPath(element: targetOffset, section: 0)))
      }
      paired &+= 1
      let sourceOffset = prefix &+ sourceLocal
      if !target[targetOffset].isContentEqual(to: source[sourceOffset]) {
        updated.append(ElementPath(element: targetOffset, section: 0))
        updatedSource.append(sourceOffset)
      }
    }
    for back in 0..<suffix {
      let targetOffset = targetCount &- suffix &+ back
      let sourceOffset = sourceCount &- suffix &+ back
      if !target[targetOffset].isContentEqual(to: source[sourceOffset]) {
        updated.append(ElementPath(element: targetOffset, section: 0))
        updatedSource.append(sourceOffset)
      }
    }

    var stages: [Changeset<Collection>] = []
    if !deleted.isEmpty {
      var data = Collection()
      data.reserveCapacity(prefix &+ middleSurvivors &+ suffix)
      data.append(contentsOf: source[0..<prefix])
      for local in 0..<sourceMiddle.count where survivorOffset[local] >= 0 {
        data.append(source[prefix &+ local])
      }
      data.append(contentsOf: source[(sourceCount &- suffix)...])
      stages.append(Changeset(data: data, elementDeleted: deleted))
    }
    if !inserted.isEmpty || !moved.isEmpty {
      var data = targetCollection
      if !updated.isEmpty {
        // Updated elements keep their old content until the update stage reloads them.
        var withOldContent = target
        for (path, sourceOffset) in zip(updated, updatedSource) {
          withOldContent[path.element] = source[sourceOffset]
        }
        data = Collection(withOldContent)
      }
      stages.append(Changeset(data: data, elementInserted: inserted, elementMoved: moved))
    }
    if !updated.isEmpty {
      stages.append(Changeset(data: targetCollection, elementUpdated: updated))
    }
    // The last stage ends exactly at the target, even where values differ beyond their content.
    if !stages.isEmpty { stages[stages.count &- 1].data = targetCollection }
    self.init(stages)
  }
}
