import Rewind
import RewindTesting
import Testing

/// Collection diffs for the inspector: through random edits of versions that share storage, the changes
/// listed are exactly the elements that differ (compared with a plain scan).
@Suite struct InspectableCollectionTests {
  struct Row: Identifiable, Equatable, Sendable {
    var id: Int
    var title: String
  }

  @Test(arguments: [1 as UInt64, 2, 3])
  func identifiedArrayChangesMatchAScan(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var rows = IdentifiedArray(uniqueElements: (0..<2_000).map { Row(id: $0, title: "row \($0)") })
    var nextID = 2_000
    for round in 0..<60 {
      let before = rows
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
          let index = Int.random(in: 0..<rows.count, using: &random)
          rows.updateElement(at: index) { $0.title += "!" }
        case 1:
          rows.insert(Row(id: nextID, title: "new"), at: Int.random(in: 0...rows.count, using: &random))
          nextID += 1
        case 2: _ = rows.remove(at: Int.random(in: 0..<rows.count, using: &random))
        default:
          rows.move(
            from: Int.random(in: 0..<rows.count, using: &random),
            to: Int.random(in: 0..<rows.count, using: &random))
        }
      }
      guard let found = rows.inspectionChanges(from: before, limit: 10_000) else {
        Issue.record("seed \(seed): no changes for the same type")
        return
      }
      let old = Dictionary(uniqueKeysWithValues: before.map { ($0.id, $0) })
      let new = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
      var expected: Set<String> = []
      for (id, row) in new where old[id] != row { expected.insert("\(id)") }
      for id in old.keys where new[id] == nil { expected.insert("\(id)") }
      let listed = Set(
        found.changes.map { change -> String in
          guard case .id(let text) = change.key else { return "?" }
          return text
        })
      #expect(listed == expected, "seed \(seed), round \(round)")
      let keptOld = before.map(\.id).filter { new[$0] != nil }
      let keptNew = rows.map(\.id).filter { old[$0] != nil }
      #expect(found.reordered == (keptOld != keptNew), "seed \(seed), round \(round)")
    }
  }

  @Test func persistentArrayChangesArePositional() {
    let before = PersistentArray((0..<500).map { "v\($0)" })
    var after = before
    after[7] = "changed"
    after.append("added")
    let found = after.inspectionChanges(from: before, limit: 100)
    #expect(found?.changes.map(\.key) == [.position(7), .position(500)])
    #expect(found?.changes.last?.old == nil)
    #expect(after.inspectionChanges(from: after, limit: 100)?.changes.isEmpty == true)
    // Changed in place, the same shape: only the leaves the versions do not share are compared.
    var edited = before
    edited[3] = "three"
    edited[400] = "four hundred"
    let inPlace = edited.inspectionChanges(from: before, limit: 100)
    #expect(inPlace?.changes.map(\.key) == [.position(3), .position(400)])
    #expect(inPlace?.changes.first?.new as? String == "three")
    #expect(after.inspectionChanges(from: 3, limit: 100) == nil, "another type")
  }

  @Test func theLimitCountsWhatIsLeftOut() {
    let before = IdentifiedArray(uniqueElements: (0..<100).map { Row(id: $0, title: "") })
    var after = before
    for index in 0..<100 { after.updateElement(at: index) { $0.title = "x" } }
    let found = after.inspectionChanges(from: before, limit: 10)
    #expect(found?.changes.count == 10)
    #expect(found?.omitted == 90)
  }
}
