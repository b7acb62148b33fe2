import Testing

@testable import Rewind

/// A row with no spare bit pattern: `PlainRow?` is a byte longer than `PlainRow`, so `subscript(id:)`'s
/// `_modify` takes its temporary path instead of yielding the element in its slot.
struct PlainRow: Identifiable, Equatable, Sendable {
  var id: Int
  var value: Int
}

/// A row whose ids are of any `Hashable` type, for the id index's keys: integers (their own keys) and
/// others (hashed).
struct KeyedRow<ID: Hashable & Sendable>: Identifiable, Equatable, Sendable {
  var id: ID
  var value = 0
}

/// An id whose hash values collide in threes: the id index must tell ids with one hash apart.
struct CollidingID: Hashable, Sendable, CustomStringConvertible {
  var raw: Int
  func hash(into hasher: inout Hasher) { hasher.combine(raw / 3) }
  var description: String { "c\(raw)" }
}

/// Passes `value` to `body` inout: an access through `_modify` that is not optional chaining.
private func access<T>(_ value: inout T, _ body: (inout T) -> Void) { body(&value) }

extension Identifiable {
  /// Runs `body` on `self`: a mutation to reach through optional chaining, `rows[id: id]?.mutate(...)`.
  fileprivate mutating func mutate(_ body: (inout Self) -> Void) { body(&self) }
}

/// Checks `array` against `model` (order, lookup by id and position) and its invariants.
private func expectMatches<Element: Identifiable & Equatable>(
  _ array: IdentifiedArray<Element>, _ model: [Element], _ context: @autoclosure () -> String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  array._checkInvariants()
  #expect(Array(array) == model, "\(context())", sourceLocation: sourceLocation)
  for (position, element) in model.enumerated() where array.index(id: element.id) != position {
    Issue.record("\(context()): \(element.id) not at \(position)", sourceLocation: sourceLocation)
    return
  }
}

/// Random edits through every form of `subscript(id:)` (optional chaining, an inout access, setting),
/// insertions and removals, checked against an array after each step.
private func randomAccesses<Element: Identifiable & Equatable>(
  seed: UInt64, ids: [Element.ID], make: (Element.ID, Int) -> Element, bump: (inout Element) -> Void
) {
  var random = SeededGenerator(seed: seed)
  var model: [Element] = []
  var array = IdentifiedArray<Element>()
  var kept: [(IdentifiedArray<Element>, [Element])] = []
  for step in 0..<400 {
    let id = ids[Int.random(in: 0..<ids.count, using: &random)]
    let position = model.firstIndex { $0.id == id }
    let operation = Int.random(in: 0..<8, using: &random)
    switch operation {
    case 0:
      array[id: id]?.mutate(bump)
      if let position { bump(&model[position]) }
    case 1:
      access(&array[id: id]) { element in element?.mutate(bump) }
      if let position { bump(&model[position]) }
    case 2:
      // Set to nil through `_modify`: the element goes.
      access(&array[id: id]) { $0 = nil }
      if let position { model.remove(at: position) }
    case 3:
      // Set where there is none through `_modify`: the element is appended (or replaced).
      let element = make(id, step)
      access(&array[id: id]) { $0 = element }
      if let position { model[position] = element } else { model.append(element) }
    case 4:
      let element = make(id, step)
      array[id: id] = element
      if let position { model[position] = element } else { model.append(element) }
    case 5:
      if position == nil {
        let at = Int.random(in: 0...model.count, using: &random)
        array.insert(make(id, step), at: at)
        model.insert(make(id, step), at: at)
      }
    case 6:
      #expect(array.remove(id: id) == position.map { model.remove(at: $0) })
    default:
      // Optional chaining on an id that may be absent: nothing happens then.
      var replacement = array[id: id] ?? make(id, -1)
      bump(&replacement)
      array[id: id]? = replacement
      if let position { model[position] = replacement }
    }
    expectMatches(array, model, "seed \(seed), step \(step), operation \(operation), id \(id)")
    if step % 50 == 0 { kept.append((array, model)) }
  }
  for (version, versionModel) in kept { expectMatches(version, versionModel, "seed \(seed), a kept version") }
}

@Suite struct IdentifiedArrayAccessTests {
  @Test func layoutsTakeBothPaths() {
    #expect(IdentifiedArray<WideRow>.optionalSharesLayout)
    #expect(!IdentifiedArray<PlainRow>.optionalSharesLayout)
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func elementsWithSpareBitsAreAccessedInPlace(seed: UInt64) {
    randomAccesses(seed: seed, ids: Array(0..<150), make: { WideRow(id: $0, title: "made \($1)") }) {
      $0.title += "!"
    }
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func elementsWithoutSpareBitsGoThroughATemporary(seed: UInt64) {
    randomAccesses(seed: seed, ids: Array(0..<150), make: { PlainRow(id: $0, value: $1) }) { $0.value += 1 }
  }

  @Test func integerIDsOfEveryWidthAndSign() {
    let ints =
      [Int.min, Int.min + 1, -70_000, -1, 0, 1, 2, 63, 64, 70_000, Int.max - 1, Int.max]
      + Array(-300..<300)
    randomAccesses(seed: 4, ids: ints, make: { KeyedRow(id: $0, value: $1) }) { $0.value += 1 }
    let int64s = ints.map(Int64.init)
    randomAccesses(seed: 5, ids: int64s, make: { KeyedRow(id: $0, value: $1) }) { $0.value += 1 }
    let int32s = [Int32.min, -1, 0, 1, Int32.max] + Array(-300..<300)
    randomAccesses(seed: 6, ids: int32s, make: { KeyedRow(id: $0, value: $1) }) { $0.value += 1 }
    let uints = [UInt.max, UInt.max - 1, 1 << 63, (1 << 63) - 1, 0, 1] + Array(0..<600)
    randomAccesses(seed: 7, ids: uints, make: { KeyedRow(id: $0, value: $1) }) { $0.value += 1 }
    randomAccesses(seed: 8, ids: uints.map(UInt64.init), make: { KeyedRow(id: $0, value: $1) }) {
      $0.value += 1
    }
    randomAccesses(seed: 9, ids: [UInt32.max, 0] + Array(0..<600), make: { KeyedRow(id: $0, value: $1) }) {
      $0.value += 1
    }
  }

  @Test func hashedIDs() {
    let strings = (0..<400).map { "id \($0)" }
    randomAccesses(seed: 10, ids: strings, make: { KeyedRow(id: $0, value: $1) }) { $0.value += 1 }
  }

  /// Ids whose hashes collide sit side by side in the id index, runs of three that may straddle leaves.
  @Test(arguments: [11, 12] as [UInt64])
  func collidingHashes(seed: UInt64) {
    let ids = (0..<450).map(CollidingID.init)
    randomAccesses(seed: seed, ids: ids, make: { KeyedRow(id: $0, value: $1) }) { $0.value += 1 }
    let built = IdentifiedArray(uniqueElements: ids.map { KeyedRow(id: $0) })
    expectMatches(built, ids.map { KeyedRow(id: $0) }, "colliding ids, built in bulk")
  }

  /// An edit through `_modify` of a copy changes the copy alone.
  @Test func editsOfACopyLeaveTheOriginal() {
    let original = IdentifiedArray(uniqueElements: (0..<2_000).map { PlainRow(id: $0, value: 0) })
    var copy = original
    for id in stride(from: 0, to: 2_000, by: 7) { copy[id: id]?.value += 1 }
    #expect(original.allSatisfy { $0.value == 0 })
    #expect(copy.filter { $0.value == 1 }.count == 286)
    var wide = IdentifiedArray(uniqueElements: (0..<2_000).map { WideRow(id: $0) })
    let wideOriginal = wide
    for id in stride(from: 0, to: 2_000, by: 7) { wide[id: id]?.flag = true }
    #expect(!wideOriginal.contains { $0.flag })
    #expect(wide.filter(\.flag).count == 286)
  }

  /// `updateElement(id:_:)`, what `forEach` edits through: the body's result, `nil` for an absent id,
  /// and a copy changed alone.
  @Test func updateElementByID() {
    let original = IdentifiedArray(uniqueElements: (0..<1_000).map { PlainRow(id: $0, value: 0) })
    var array = original
    for id in 0..<1_000 where id.isMultiple(of: 3) {
      #expect(
        array.updateElement(id: id) { row -> Int in
          row.value = id
          return row.id
        } == id)
    }
    #expect(array.updateElement(id: 5_000) { $0.value = 1 } == nil)
    #expect(Array(array) == (0..<1_000).map { PlainRow(id: $0, value: $0.isMultiple(of: 3) ? $0 : 0) })
    #expect(original.allSatisfy { $0.value == 0 })
    array._checkInvariants()
  }

  /// Iteration from every start, over trees of one to four levels (16 wide rows a leaf).
  @Test func iterationFromAnyPosition() {
    for size in [0, 1, 15, 16, 17, 300, 512, 513, 2_000, 17_000] {
      let rows = (0..<size).map { WideRow(id: $0) }
      let array = IdentifiedArray(uniqueElements: rows)
      #expect(Array(array) == rows, "size \(size)")
      var random = SeededGenerator(seed: UInt64(size))
      for _ in 0..<20 where size > 0 {
        let lower = Int.random(in: 0...size, using: &random)
        let upper = Int.random(in: lower...size, using: &random)
        #expect(array.tree.values(in: lower..<upper) == Array(rows[lower..<upper]), "size \(size)")
      }
    }
  }
}
