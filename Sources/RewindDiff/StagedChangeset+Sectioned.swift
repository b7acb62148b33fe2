extension StagedChangeset
where Collection: RangeReplaceableCollection, Collection.Element: DifferentiableSection {
  /// The staged changes that turn the sectioned collection `source` into `target`.
  ///
  /// At most five stages, each omitted when empty:
  /// 1. element deletes (in sections that stay);
  /// 2. section deletes, inserts and moves;
  /// 3. section updates;
  /// 4. element inserts and moves, also across sections;
  /// 5. element updates.
  ///
  /// Elements are paired across all sections that stay. Elements of a deleted section leave with it,
  /// and elements of an inserted section arrive with it; they are never paired.
  /// - Complexity: O(n + m) expected over sections and elements, plus O(k log k) for shuffled pairs.
  @inlinable
  public init(source sourceCollection: Collection, target targetCollection: Collection) {
    typealias Section = Collection.Element
    typealias Element = Section.Collection.Element
    let sourceSections = Array(sourceCollection)
    let targetSections = Array(targetCollection)
    let sections = sourceSections.withUnsafeBufferPointer { source in
      targetSections.withUnsafeBufferPointer { target in matchIdentifiers(source: source, target: target) }
    }
    let sourceElements = sourceSections.map { Array($0.elements) }
    let targetElements = targetSections.map { Array($0.elements) }

    // Pair the elements of every section that stays, across sections.
    // The offset of each section in `sourceIDs`.
    var sourceStart = [Int](repeating: 0, count: sourceSections.count)
    var sourceIDs: [IdentifierItem<Element.DifferenceIdentifier>] = []
    var sourceLocation: [ElementPath] = []
    for section in sourceSections.indices where sections.sourceToTarget[section] >= 0 {
      sourceStart[section] = sourceIDs.count
      for (offset, element) in sourceElements[section].enumerated() {
        sourceIDs.append(IdentifierItem(element.differenceIdentifier))
        sourceLocation.append(ElementPath(element: offset, section: section))
      }
    }
    var targetStart = [Int](repeating: 0, count: targetSections.count)
    var targetIDs: [IdentifierItem<Element.DifferenceIdentifier>] = []
    for section in targetSections.indices where sections.targetToSource[section] >= 0 {
      targetStart[section] = targetIDs.count
      targetIDs.append(
        contentsOf: targetElements[section].lazy.map { IdentifierItem($0.differenceIdentifier) })
    }
    let elements = sourceIDs.withUnsafeBufferPointer { source in
      targetIDs.withUnsafeBufferPointer { target in matchIdentifiers(source: source, target: target) }
    }

    // Stage 1: element deletes; each survivor's offset in its section afterwards.
    var elementDeleted: [ElementPath] = []
    var survivorOffset = [Int32](repeating: -1, count: sourceIDs.count)
    var survivors = [[Element]](repeating: [], count: sourceSections.count)
    for section in sourceSections.indices where sections.sourceToTarget[section] >= 0 {
      for offset in sourceElements[section].indices {
        let flat = sourceStart[section] &+ offset
        if elements.sourceToTarget[flat] < 0 {
          elementDeleted.append(ElementPath(element: offset, section: section))
        } else {
          survivorOffset[flat] = Int32(truncatingIfNeeded: survivors[section].count)
          survivors[section].append(sourceElements[section][offset])
        }
      }
    }

    // Stage 2: sections. Paired sections keep their place along a longest increasing run.
    var sectionDeleted: [Int] = []
    for section in sourceSections.indices where sections.sourceToTarget[section] < 0 {
      sectionDeleted.append(section)
    }
    var sectionInserted: [Int] = []
    var pairedSections: [Int32] = []
    for section in targetSections.indices {
      let origin = sections.targetToSource[section]
      if origin < 0 { sectionInserted.append(section) } else { pairedSections.append(origin) }
    }
    let sectionStays = markLongestIncreasingSubsequence(pairedSections)
    var sectionMoved: [Move<Int>] = []
    var sectionUpdated: [Int] = []
    var paired = 0
    for section in targetSections.indices {
      let origin = Int(sections.targetToSource[section])
      guard origin >= 0 else { continue }
      if !sectionStays[paired] { sectionMoved.append(Move(source: origin, target: section)) }
      paired &+= 1
      if !targetSections[section].isContentEqual(to: sourceSections[origin]) {
        sectionUpdated.append(section)
      }
    }

    // Stage 4: element inserts and moves, addressed in the sections' target order.
    var elementInserted: [ElementPath] = []
    var elementMoved: [Move<ElementPath>] = []
    var elementUpdated: [ElementPath] = []
    var updatedSource: [ElementPath] = []  // in step with `elementUpdated`
    for section in targetSections.indices {
      let origin = Int(sections.targetToSource[section])
      guard origin >= 0 else { continue }
      var local: [Int32] = []  // survivor offsets of elements that come from `origin`, in target order
      for offset in targetElements[section].indices {
        let from = Int(elements.targetToSource[targetStart[section] &+ offset])
        if from >= 0 && sourceLocation[from].section == origin { local.append(survivorOffset[from]) }
      }
      let stays = markLongestIncreasingSubsequence(local)
      var next = 0
      for offset in targetElements[section].indices {
        let path = ElementPath(element: offset, section: section)
        let from = Int(elements.targetToSource[targetStart[section] &+ offset])
        guard from >= 0 else {
          elementInserted.append(path)
          continue
        }
        let location = sourceLocation[from]
        var moves = true
        if location.section == origin {
          moves = !stays[next]
          next &+= 1
        }
        if moves {
          let before = ElementPath(
            element: Int(survivorOffset[from]), section: Int(sections.sourceToTarget[location.section]))
          elementMoved.append(Move(source: before, target: path))
        }
        if !targetElements[section][offset].isContentEqual(
          to: sourceElements[location.section][location.element])
        {
          elementUpdated.append(path)
          updatedSource.append(location)
        }
      }
    }

    var stages: [Changeset<Collection>] = []
    if !elementDeleted.isEmpty {
      var data = Collection()
      for section in sourceSections.indices {
        data.append(
          sections.sourceToTarget[section] < 0
            ? sourceSections[section] : Section(source: sourceSections[section], elements: survivors[section])
        )
      }
      stages.append(Changeset(data: data, elementDeleted: elementDeleted))
    }
    // Sections in target order holding their survivors; `modelsUpdated` picks the model.
    func survivorSections(modelsUpdated: Bool) -> Collection {
      var data = Collection()
      let updated = Set(sectionUpdated)
      for section in targetSections.indices {
        let origin = Int(sections.targetToSource[section])
        if origin < 0 {
          data.append(targetSections[section])
        } else {
          let model =
            modelsUpdated || !updated.contains(section) ? targetSections[section] : sourceSections[origin]
          data.append(Section(source: model, elements: survivors[origin]))
        }
      }
      return data
    }
    if !sectionDeleted.isEmpty || !sectionInserted.isEmpty || !sectionMoved.isEmpty {
      stages.append(
        Changeset(
          data: survivorSections(modelsUpdated: false), sectionDeleted: sectionDeleted,
          sectionInserted: sectionInserted, sectionMoved: sectionMoved))
    }
    if !sectionUpdated.isEmpty {
      stages.append(Changeset(data: survivorSections(modelsUpdated: true), sectionUpdated: sectionUpdated))
    }
    if !elementInserted.isEmpty || !elementMoved.isEmpty {
      var data = targetCollection
      if !elementUpdated.isEmpty {
        // Updated elements keep their old content until the last stage reloads them.
        var withOldContent = targetElements
        for (path, location) in zip(elementUpdated, updatedSource) {
          withOldContent[path.section][path.element] = sourceElements[location.section][location.element]
        }
        data = Collection()
        for section in targetSections.indices {
          data.append(Section(source: targetSections[section], elements: withOldContent[section]))
        }
      }
      stages.append(Changeset(data: data, elementInserted: elementInserted, elementMoved: elementMoved))
    }
    if !elementUpdated.isEmpty {
      stages.append(Changeset(data: targetCollection, elementUpdated: elementUpdated))
    }
    // The last stage ends exactly at the target, even where values differ beyond their content.
    if !stages.isEmpty { stages[stages.count &- 1].data = targetCollection }
    self.init(stages)
  }
}
