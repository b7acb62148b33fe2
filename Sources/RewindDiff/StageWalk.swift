/// A collection as a table view sees it: section models and each section's elements.
@usableFromInline
struct StageLayout<Model: Differentiable, Element: Differentiable> {
  var models: [Model]
  var elements: [[Element]]
}

/// The model of the single section of a flat collection.
@usableFromInline
struct FlatSectionModel: Hashable, Differentiable {}

/// The batch-update model behind both the validator and `apply(to:)`: replays one stage on the
/// layout before it exactly as a table view's `performBatchUpdates` would, checking every rule.
///
/// Rules (UIKit's, a little stricter): deletes, reloads and move sources address the layout before
/// the stage; inserts and move targets address the stage's data. No index appears twice on either
/// side. Element changes may not touch a section that the same stage deletes, inserts, reloads or
/// moves. Rows the table keeps (not inserted, not reloaded) must have the identity and content the
/// data says they have, so no row is wrong or stale after the stage.
enum StageWalk {
  private enum Use { case deleted, reloaded, movedOut }

  /// The layout after `changes`, taking fresh values (inserts, reloads) from `data`.
  static func step<Model, Element, Data>(
    stage: Int, from before: StageLayout<Model, Element>, through changes: Changeset<Data>,
    data after: StageLayout<Model, Element>
  ) throws(BatchUpdateError) -> StageLayout<Model, Element> {
    func failure(_ rule: BatchUpdateError.Rule, section: Int? = nil, element: ElementPath? = nil)
      -> BatchUpdateError
    {
      BatchUpdateError(stage: stage, rule: rule, section: section, element: element)
    }
    let beforeCount = before.models.count
    let afterCount = after.models.count

    // Sections: before-side uses, after-side origins.
    var beforeUse = [Use?](repeating: nil, count: beforeCount)
    func markBefore(_ section: Int, _ use: Use) throws(BatchUpdateError) {
      guard section >= 0 && section < beforeCount else { throw failure(.sectionOutOfRange, section: section) }
      guard beforeUse[section] == nil else { throw failure(.sectionTouchedTwice, section: section) }
      beforeUse[section] = use
    }
    for section in changes.sectionDeleted { try markBefore(section, .deleted) }
    for section in changes.sectionUpdated { try markBefore(section, .reloaded) }
    for move in changes.sectionMoved { try markBefore(move.source, .movedOut) }

    // afterOrigin[a]: -2 free, -1 inserted, else the before-section it comes from.
    var afterOrigin = [Int](repeating: -2, count: afterCount)
    var afterTaken = [Bool](repeating: false, count: afterCount)
    func markAfter(_ section: Int, origin: Int) throws(BatchUpdateError) {
      guard section >= 0 && section < afterCount else { throw failure(.sectionOutOfRange, section: section) }
      guard afterOrigin[section] == -2 else { throw failure(.sectionTouchedTwice, section: section) }
      afterOrigin[section] = origin
      afterTaken[section] = true
    }
    for section in changes.sectionInserted { try markAfter(section, origin: -1) }
    for move in changes.sectionMoved { try markAfter(move.target, origin: move.source) }

    // Sections that stay (kept or reloaded) fill the free after-slots in order.
    var stationary = 0
    for section in 0..<afterCount where afterOrigin[section] == -2 {
      while stationary < beforeCount
        && (beforeUse[stationary] == .deleted || beforeUse[stationary] == .movedOut)
      {
        stationary &+= 1
      }
      guard stationary < beforeCount else { throw failure(.sectionCountMismatch) }
      afterOrigin[section] = stationary
      stationary &+= 1
    }
    while stationary < beforeCount
      && (beforeUse[stationary] == .deleted || beforeUse[stationary] == .movedOut)
    {
      stationary &+= 1
    }
    guard stationary == beforeCount else { throw failure(.sectionCountMismatch) }

    // Elements: before-side marks (0 kept, 1 deleted, 2 reloaded, 3 moved out).
    var beforeMarks: [[UInt8]] = []
    beforeMarks.reserveCapacity(beforeCount)
    for section in 0..<beforeCount {
      beforeMarks.append([UInt8](repeating: 0, count: before.elements[section].count))
    }
    func markElementBefore(_ path: ElementPath, _ mark: UInt8) throws(BatchUpdateError) {
      guard path.section >= 0 && path.section < beforeCount, path.element >= 0,
        path.element < before.elements[path.section].count
      else { throw failure(.elementOutOfRange, element: path) }
      guard beforeUse[path.section] == nil else { throw failure(.elementInChangedSection, element: path) }
      guard beforeMarks[path.section][path.element] == 0 else {
        throw failure(.elementTouchedTwice, element: path)
      }
      beforeMarks[path.section][path.element] = mark
    }
    for path in changes.elementDeleted { try markElementBefore(path, 1) }
    for path in changes.elementUpdated { try markElementBefore(path, 2) }
    for move in changes.elementMoved { try markElementBefore(move.source, 3) }

    // After-side slots of each kept section: -1 free (a row that stays fills it), -2 inserted,
    // otherwise the offset of the move in `changes.elementMoved` that lands there.
    var slots: [[Int]] = []
    slots.reserveCapacity(afterCount)
    for section in 0..<afterCount { slots.append([Int](repeating: -1, count: after.elements[section].count)) }
    func markElementAfter(_ path: ElementPath, slot: Int) throws(BatchUpdateError) {
      guard path.section >= 0 && path.section < afterCount, path.element >= 0,
        path.element < after.elements[path.section].count
      else { throw failure(.elementOutOfRange, element: path) }
      let origin = afterOrigin[path.section]
      guard !afterTaken[path.section], origin >= 0, beforeUse[origin] == nil else {
        throw failure(.elementInChangedSection, element: path)
      }
      guard slots[path.section][path.element] == -1 else {
        throw failure(.elementTouchedTwice, element: path)
      }
      slots[path.section][path.element] = slot
    }
    for path in changes.elementInserted { try markElementAfter(path, slot: -2) }
    for (offset, move) in changes.elementMoved.enumerated() {
      try markElementAfter(move.target, slot: offset)
    }

    var result = StageLayout<Model, Element>(models: [], elements: [])
    result.models.reserveCapacity(afterCount)
    result.elements.reserveCapacity(afterCount)
    for section in 0..<afterCount {
      let origin = afterOrigin[section]
      // Inserted and reloaded sections are read afresh from the data.
      guard origin >= 0, beforeUse[origin] != .reloaded else {
        result.models.append(after.models[section])
        result.elements.append(after.elements[section])
        continue
      }
      let model = before.models[origin]
      guard model.differenceIdentifier == after.models[section].differenceIdentifier else {
        throw failure(.identityMismatch, section: section)
      }
      guard after.models[section].isContentEqual(to: model) else {
        throw failure(.staleContent, section: section)
      }

      // Hoisted per section: nested-array access is slow in debug builds, where the tests run.
      let wantedElements = after.elements[section]
      let sectionSlots = slots[section]
      let beforeElements = before.elements[origin]
      let marks = beforeMarks[origin]
      var elements: [Element] = []
      elements.reserveCapacity(wantedElements.count)
      var kept = 0  // the next before-offset that may stay in place
      for offset in 0..<wantedElements.count {
        let wanted = wantedElements[offset]
        let slot = sectionSlots[offset]
        if slot == -2 {
          elements.append(wanted)
          continue
        }
        var value: Element
        var reloaded = false
        if slot >= 0 {
          let source = changes.elementMoved[slot].source
          value = before.elements[source.section][source.element]
        } else {
          while kept < marks.count && (marks[kept] == 1 || marks[kept] == 3) { kept &+= 1 }
          guard kept < marks.count else { throw failure(.elementCountMismatch, section: section) }
          value = beforeElements[kept]
          reloaded = marks[kept] == 2
          kept &+= 1
        }
        guard value.differenceIdentifier == wanted.differenceIdentifier else {
          throw failure(.identityMismatch, element: ElementPath(element: offset, section: section))
        }
        if reloaded {
          value = wanted  // reloaded in place: the table asks the data for it again
        } else if !wanted.isContentEqual(to: value) {
          throw failure(.staleContent, element: ElementPath(element: offset, section: section))
        }
        elements.append(value)
      }
      while kept < marks.count && (marks[kept] == 1 || marks[kept] == 3) { kept &+= 1 }
      guard kept == marks.count else { throw failure(.elementCountMismatch, section: section) }
      result.models.append(model)
      result.elements.append(elements)
    }
    return result
  }

  /// Replays every stage from `source`, returning the layout after the last one.
  static func replay<Model, Element, Data>(
    _ staged: StagedChangeset<Data>, from source: StageLayout<Model, Element>,
    layout: (Data) -> StageLayout<Model, Element>
  ) throws(BatchUpdateError) -> StageLayout<Model, Element> {
    var current = source
    try staged.walkStages { offset, changes throws(BatchUpdateError) in
      current = try step(stage: offset, from: current, through: changes, data: layout(changes.data))
    }
    return current
  }
}

extension StageLayout where Model == FlatSectionModel {
  /// The one-section layout of a flat collection.
  init<Data: Collection>(flat data: Data) where Data.Element == Element {
    self.init(models: [FlatSectionModel()], elements: [Array(data)])
  }
}

extension StageLayout where Model: DifferentiableSection, Model.Collection.Element == Element {
  /// The layout of a sectioned collection; the sections double as their models.
  init<Data: Collection>(sectioned data: Data) where Data.Element == Model {
    self.init(models: Array(data), elements: data.map { Array($0.elements) })
  }
}
