import Foundation
import Testing

@testable import Rewind

/// Every node of a tree, by identity.
func nodeIdentities<Value>(_ tree: PersistentTree<Value>) -> Set<ObjectIdentifier> {
  var nodes: Set<ObjectIdentifier> = []
  func visit(_ node: TreeNode<Value>) {
    nodes.insert(ObjectIdentifier(node))
    if !node.isLeaf { for child in node.children { visit(child) } }
  }
  visit(tree.root)
  return nodes
}

@Suite struct IdentifiedArraySharingTests {
  /// Copies kept along a random history never change, whatever happens to the collection afterwards.
  @Test(arguments: [21, 22, 2026] as [UInt64])
  func keptVersionsNeverChange(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    var array = IdentifiedArray(uniqueElements: (0..<600).map { WideRow(id: $0) })
    var model = ReferenceModel(rows: Array(array))
    var nextID = 600
    var kept: [(IdentifiedArray<WideRow>, ReferenceModel, String)] = []
    for step in 0..<300 {
      let operation = applyRandomOperation(to: &array, &model, nextID: &nextID, random: &random)
      if step % 10 == 0 { kept.append((array, model, "seed \(seed), kept at step \(step) (\(operation))")) }
    }
    expectMatches(array, model, "seed \(seed), final")
    for (version, versionModel, context) in kept { expectMatches(version, versionModel, context) }
  }

  /// Copies changed on several threads at once each end as their own model says, and the original stays.
  @Test func copiesChangedOnManyThreadsStayIndependent() async {
    let base = IdentifiedArray(uniqueElements: (0..<2_000).map { WideRow(id: $0) })
    let baseModel = ReferenceModel(rows: Array(base))
    await withTaskGroup(of: Void.self) { group in
      for seed in 0..<8 as Range<UInt64> {
        group.addTask {
          var random = SeededGenerator(seed: 100 + seed)
          var array = base
          var model = baseModel
          var nextID = 10_000 * Int(seed + 1)
          for step in 0..<150 {
            let operation = applyRandomOperation(to: &array, &model, nextID: &nextID, random: &random)
            if step % 30 == 0 { expectMatches(array, model, "thread \(seed), step \(step): \(operation)") }
          }
          expectMatches(array, model, "thread \(seed), final")
        }
      }
    }
    expectMatches(base, baseModel, "the original")
  }

  /// Changing one row of a copy makes new nodes only on the path to it: O(log n) of them, the rest shared.
  @Test func aChangeCopiesOnePath() {
    let base = IdentifiedArray(uniqueElements: (0..<100_000).map { Mail(id: $0, subject: "mail \($0)") })
    let baseNodes = nodeIdentities(base.tree)
    let baseIndexNodes = nodeIdentities(base.index.tree)
    let height = { () -> Int in
      var node = base.tree.root
      var levels = 1
      while !node.isLeaf {
        node = node.children[0]
        levels += 1
      }
      return levels
    }()
    #expect(height >= 3)

    var edited = base
    edited[id: 54_321]?.subject = "edited"
    #expect(nodeIdentities(edited.tree).subtracting(baseNodes).count == height)
    #expect(nodeIdentities(edited.index.tree) == baseIndexNodes, "an edit leaves the id index alone")

    var grown = base
    grown.insert(Mail(id: -1, subject: "new"), at: 500)
    #expect(nodeIdentities(grown.tree).subtracting(baseNodes).count <= 2 * height)
    #expect(nodeIdentities(grown.index.tree).subtracting(baseIndexNodes).count <= 2 * height)

    var shrunk = base
    shrunk.remove(id: 99)
    #expect(nodeIdentities(shrunk.tree).subtracting(baseNodes).count <= 2 * height)
    expectBase(base)
  }

  private func expectBase(_ base: IdentifiedArray<Mail>) {
    #expect(base.count == 100_000)
    #expect(base[id: 54_321]?.subject == "mail 54321")
    #expect(base.index(id: -1) == nil)
    #expect(base.index(id: 99) == 99)
  }

  /// `elements` shares the collection's storage, and changing it leaves the collection alone.
  @Test func elementsShareStorage() {
    let array = IdentifiedArray(uniqueElements: (0..<5_000).map { Mail(id: $0, subject: "\($0)") })
    var elements = array.elements
    #expect(elements.tree.isIdentical(to: array.tree))
    elements.remove(at: 10)
    elements.insert(Mail(id: 10, subject: "again"), at: 0)
    elements[4_000].subject = "changed"
    #expect(array[10].subject == "10")
    #expect(array[4_000].subject == "4000")
    array._checkInvariants()
    elements._checkInvariants()
  }
}
