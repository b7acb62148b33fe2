import RewindDiff
import Testing

@testable import Rewind

/// A row wide enough (128 bytes) that leaves hold 16 elements: small collections then span several leaves
/// and levels, so exhaustive checks at small sizes reach the tree's splitting and merging.
struct WideRow: Identifiable, Equatable, Hashable, Sendable, Codable, Differentiable {
  var id: Int
  var title: String
  var flag = false
  var padding: [Int] { [a, b, c, d, e, f, g, h, i, j, k, l, m] }
  private var a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, i = 0, j = 0, k = 0, l = 0, m = 0

  init(id: Int, title: String = "", flag: Bool = false) {
    self.id = id
    self.title = title.isEmpty ? "row \(id)" : title
    self.flag = flag
  }

  var differenceIdentifier: Int { id }
}

/// The reference an IdentifiedArray is checked against: an array, with positions found by scanning.
struct ReferenceModel {
  var rows: [WideRow] = []

  func position(of id: Int) -> Int? { rows.firstIndex { $0.id == id } }
}

/// Checks `array` against `model` in every way it can be read, and its internal invariants.
func expectMatches(
  _ array: IdentifiedArray<WideRow>, _ model: ReferenceModel, _ context: @autoclosure () -> String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  array._checkInvariants()
  guard array.count == model.rows.count, Array(array) == model.rows else {
    let first =
      (0..<Swift.min(array.count, model.rows.count)).first { array[$0] != model.rows[$0] }
      ?? Swift.min(array.count, model.rows.count)
    Issue.record(
      "\(context()): differs at \(first) (counts \(array.count), \(model.rows.count))",
      sourceLocation: sourceLocation)
    return
  }
  for (position, row) in model.rows.enumerated() {
    guard array.index(id: row.id) == position, array[id: row.id] == row, array[position] == row else {
      Issue.record(
        "\(context()): row \(row.id) at \(position) not found as such", sourceLocation: sourceLocation)
      return
    }
  }
  #expect(array.index(id: -1) == nil, "\(context())", sourceLocation: sourceLocation)
  #expect(array.elements.count == model.rows.count, sourceLocation: sourceLocation)
}

/// One random operation, applied to both the collection and the model.
func applyRandomOperation(
  to array: inout IdentifiedArray<WideRow>, _ model: inout ReferenceModel, nextID: inout Int,
  random: inout SeededGenerator
) -> String {
  let count = model.rows.count
  let existing = count > 0 ? model.rows[Int.random(in: 0..<count, using: &random)].id : -1
  switch Int.random(in: 0..<16, using: &random) {
  case 0, 1:
    nextID += 1
    let row = WideRow(id: nextID)
    let result = array.append(row)
    model.rows.append(row)
    #expect(result == (true, count))
    return "append \(nextID)"
  case 2, 3:
    nextID += 1
    let position = Int.random(in: 0...count, using: &random)
    array.insert(WideRow(id: nextID), at: position)
    model.rows.insert(WideRow(id: nextID), at: position)
    return "insert \(nextID) at \(position)"
  case 4:
    guard count > 0 else { return "nothing" }
    let position = Int.random(in: 0..<count, using: &random)
    #expect(array.remove(at: position) == model.rows.remove(at: position))
    return "remove at \(position)"
  case 5:
    let removed = array.remove(id: existing)
    #expect(removed == model.position(of: existing).map { model.rows.remove(at: $0) })
    return "remove id \(existing)"
  case 6:
    guard count > 0 else { return "nothing" }
    let from = Int.random(in: 0..<count, using: &random)
    let to = Int.random(in: 0..<count, using: &random)
    array.move(from: from, to: to)
    model.rows.insert(model.rows.remove(at: from), at: to)
    return "move \(from) → \(to)"
  case 7:
    array[id: existing]?.title += "!"
    if let position = model.position(of: existing) { model.rows[position].title += "!" }
    return "edit id \(existing)"
  case 8:
    guard count > 0 else { return "nothing" }
    let position = Int.random(in: 0..<count, using: &random)
    array.updateElement(at: position) { $0.flag.toggle() }
    model.rows[position].flag.toggle()
    return "toggle at \(position)"
  case 9:
    let title = "replaced \(Int.random(in: 0..<100, using: &random))"
    if count > 0, let position = model.position(of: existing) {
      array[id: existing] = WideRow(id: existing, title: title)
      model.rows[position] = WideRow(id: existing, title: title)
    }
    return "replace id \(existing)"
  case 10:
    array[id: existing] = nil
    if let position = model.position(of: existing) { model.rows.remove(at: position) }
    return "set nil id \(existing)"
  case 11:
    guard count > 1 else { return "nothing" }
    let (i, j) = (Int.random(in: 0..<count, using: &random), Int.random(in: 0..<count, using: &random))
    array.swapAt(i, j)
    model.rows.swapAt(i, j)
    return "swap \(i) \(j)"
  case 12:
    // Sorting by title then id: deterministic.
    let order = { (a: WideRow, b: WideRow) in (a.title, a.id) < (b.title, b.id) }
    array.sort(by: order)
    model.rows.sort(by: order)
    return "sort"
  case 13:
    let modulus = Int.random(in: 2...9, using: &random)
    array.removeAll { $0.id % modulus == 0 }
    model.rows.removeAll { $0.id % modulus == 0 }
    return "remove ids divisible by \(modulus)"
  case 14:
    let lower = Int.random(in: 0...count, using: &random)
    let upper = Int.random(in: lower...Swift.min(count, lower + 5), using: &random)
    let replacements = (0..<Int.random(in: 0...5, using: &random)).map { _ in
      nextID += 1
      return WideRow(id: nextID)
    }
    array.replaceSubrange(lower..<upper, with: replacements)
    model.rows.replaceSubrange(lower..<upper, with: replacements)
    return "replace \(lower)..<\(upper) with \(replacements.count)"
  default:
    let appended = array.append(WideRow(id: existing, title: "duplicate"))
    if count > 0 { #expect(appended == (false, model.position(of: existing) ?? -1)) }
    return "append existing id \(existing)"
  }
}

@Suite struct IdentifiedArrayModelTests {
  @Test func wideRowsMakeSmallLeaves() {
    #expect(TreeNode<WideRow>.leafCapacity == 16)
  }

  /// Random operation sequences checked against the model after every step; the sizes grow into trees
  /// of three levels (beyond 16 · 32 = 512 rows).
  @Test(arguments: [1, 2, 3, 2026] as [UInt64])
  func randomOperationsMatchTheModel(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    let initial = (0..<Int.random(in: 0...700, using: &random)).map { WideRow(id: $0) }
    var array = IdentifiedArray(uniqueElements: initial)
    var model = ReferenceModel(rows: initial)
    var nextID = initial.count
    expectMatches(array, model, "seed \(seed), initial")
    for step in 0..<300 {
      let operation = applyRandomOperation(to: &array, &model, nextID: &nextID, random: &random)
      expectMatches(array, model, "seed \(seed), step \(step): \(operation)")
    }
  }

  /// Every insertion, removal and move position for every size up to 40 (up to three leaves).
  @Test func everyPositionOfEverySmallSize() {
    for size in 0...40 {
      let base = IdentifiedArray(uniqueElements: (0..<size).map { WideRow(id: $0) })
      let rows = (0..<size).map { WideRow(id: $0) }
      for position in 0...size {
        var inserted = base
        inserted.insert(WideRow(id: 1_000), at: position)
        var model = ReferenceModel(rows: rows)
        model.rows.insert(WideRow(id: 1_000), at: position)
        expectMatches(inserted, model, "size \(size), insert at \(position)")
        guard position < size else { continue }
        var removed = base
        removed.remove(at: position)
        expectMatches(
          removed, ReferenceModel(rows: rows.filter { $0.id != position }), "size \(size), remove \(position)"
        )
        for destination in 0..<size {
          var moved = base
          moved.move(from: position, to: destination)
          var movedModel = ReferenceModel(rows: rows)
          movedModel.rows.insert(movedModel.rows.remove(at: position), at: destination)
          expectMatches(moved, movedModel, "size \(size), move \(position) → \(destination)")
        }
      }
      expectMatches(base, ReferenceModel(rows: rows), "size \(size), base unchanged")
    }
  }

  /// Building by appends, by prepends, and by inserting always at one spot, then taking it all apart from
  /// the front, the back and the middle: the splits and merges of every edge.
  @Test func growingAndShrinkingAtEveryEdge() {
    for pattern in ["append", "prepend", "middle"] {
      var array = IdentifiedArray<WideRow>()
      var model = ReferenceModel()
      for id in 0..<1_200 {
        let position =
          pattern == "append" ? model.rows.count : pattern == "prepend" ? 0 : model.rows.count / 2
        array.insert(WideRow(id: id), at: position)
        model.rows.insert(WideRow(id: id), at: position)
        if id % 97 == 0 { expectMatches(array, model, "\(pattern), \(id) inserted") }
      }
      expectMatches(array, model, "\(pattern), built")
      for (index, end) in ["front", "back", "middle"].enumerated() {
        var shrinking = array
        var shrinkingModel = model
        while shrinkingModel.rows.count > index * 100 {
          let position =
            end == "front" ? 0 : end == "back" ? shrinkingModel.rows.count - 1 : shrinkingModel.rows.count / 2
          #expect(shrinking.remove(at: position) == shrinkingModel.rows.remove(at: position))
          if shrinkingModel.rows.count % 89 == 0 {
            expectMatches(shrinking, shrinkingModel, "\(pattern), removing from the \(end)")
          }
        }
        expectMatches(shrinking, shrinkingModel, "\(pattern), removed from the \(end)")
      }
      expectMatches(array, model, "\(pattern), unchanged by its shrinking copies")
    }
  }

  /// Inserting again and again at one spot exhausts the labels there; relabelling must stay local and
  /// cheap: few labels change per insertion, on average.
  @Test func relabellingStaysLocal() {
    for spot in ["front", "middle", "back-but-one"] {
      var array = IdentifiedArray(uniqueElements: (0..<64).map { WideRow(id: $0) })
      var model = ReferenceModel(rows: array.map { $0 })
      var changedLabels = 0
      let insertions = 2_000
      for id in 1_000..<(1_000 + insertions) {
        let before = array.tree.allKeys
        let position = spot == "front" ? 0 : spot == "middle" ? model.rows.count / 2 : model.rows.count - 1
        array.insert(WideRow(id: id), at: position)
        model.rows.insert(WideRow(id: id), at: position)
        var after = array.tree.allKeys
        after.remove(at: position)
        changedLabels += zip(before, after).filter { $0 != $1 }.count
      }
      expectMatches(array, model, "\(spot): after \(insertions) insertions")
      #expect(Double(changedLabels) / Double(insertions) < 20, "\(spot): \(changedLabels) labels changed")
    }
  }

  @Test func sortFilterAndReplace() {
    var array = IdentifiedArray(
      uniqueElements: (0..<100).map { WideRow(id: $0, title: "t\(($0 * 37) % 100)") })
    array.sort { $0.title < $1.title }
    #expect(array.map(\.title) == array.map(\.title).sorted())
    let even = array.filter { $0.id.isMultiple(of: 2) }
    #expect(even.count == 50)
    #expect(even.allSatisfy { $0.id.isMultiple(of: 2) })
    #expect(even.index(id: 3) == nil)
    #expect(array.count == 100, "filter leaves the original alone")
    array.replaceSubrange(0..<100, with: [WideRow(id: 7)])
    #expect(array.ids == [7])
    array._checkInvariants()
  }

  @Test func uniquingKeepsTheFirstPositionAndCombines() {
    let array = IdentifiedArray([WideRow(id: 1, title: "a"), WideRow(id: 2), WideRow(id: 1, title: "b")]) {
      WideRow(id: $0.id, title: $0.title + $1.title)
    }
    #expect(array.map(\.title) == ["ab", "row 2"])
  }
}
