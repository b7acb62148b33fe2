import Testing

@testable import Rewind

/// Descents of trees of 4,096 values or more prefetch each node before reading it; the prefetch is a hint,
/// so these tests check that such trees still find, change and share exactly what smaller ones do, and
/// that every inner node knows whether its children are leaves (what the prefetch relies on).
@Suite struct TreePrefetchTests {
  @Test func onlyTreesOf4096ValuesOrMorePrefetch() {
    #expect(!IdentifiedArray(uniqueElements: (0..<4_095).map { PlainRow(id: $0, value: 0) }).tree.prefetches)
    #expect(IdentifiedArray(uniqueElements: (0..<4_096).map { PlainRow(id: $0, value: 0) }).tree.prefetches)
  }

  @Test(arguments: [4_096, 12_000])
  func bigTreesFindAndChangeWhatAModelHolds(count: Int) {
    var rows = IdentifiedArray(uniqueElements: (0..<count).map { PlainRow(id: $0 * 3, value: $0) })
    var model = (0..<count).map { PlainRow(id: $0 * 3, value: $0) }
    let first = rows
    var random = SeededGenerator(seed: UInt64(count))
    for step in 0..<400 {
      let position = Int.random(in: 0..<model.count, using: &random)
      let id = model[position].id
      switch step % 4 {
      case 0:  // a unique slot by key
        rows[id: id]?.value += 1
        model[position].value += 1
      case 1:
        rows.updateElement(id: id) { $0.value -= 2 }
        model[position].value -= 2
      case 2:  // a unique spot by position
        rows[position].value = step
        model[position].value = step
      default:  // splits nodes, so new inner nodes
        rows.insert(PlainRow(id: -step, value: step), at: position)
        model.insert(PlainRow(id: -step, value: step), at: position)
        continue
      }
      #expect(rows[id: id] == model[position])  // a lookup by key
      #expect(rows[position] == model[position])  // a read by position
    }
    rows._checkInvariants()
    first._checkInvariants()
    #expect(Array(rows) == model)
    #expect(Array(first) == (0..<count).map { PlainRow(id: $0 * 3, value: $0) })
  }
}
