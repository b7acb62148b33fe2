import Synchronization
import Testing

@testable import Rewind

/// Counts the ``LifeToken``s alive, so that a test sees a reference that a tree kept too long (a leak) or
/// released too early (it crashes, or the count falls short).
final class LifeCounter: Sendable {
  let live = Mutex(0)
  var count: Int { live.withLock { $0 } }
}

final class LifeToken: Sendable {
  let counter: LifeCounter
  init(_ counter: LifeCounter) {
    self.counter = counter
    counter.live.withLock { $0 += 1 }
  }
  deinit { counter.live.withLock { $0 -= 1 } }
}

/// A row that holds a reference (its token) besides its string: what a leaf copy must keep alive.
struct TrackedRow: Identifiable, Equatable, Sendable {
  var id: Int
  var title: String
  var token: LifeToken

  static func == (a: TrackedRow, b: TrackedRow) -> Bool {
    a.id == b.id && a.title == b.title && a.token === b.token
  }
}

/// Borrowing copies (`TreeNode+Borrowing`): a copy made to change one value borrows the rest from the node
/// it copies; these tests check that no version ever sees another's change, and that every reference is
/// released exactly once.
@Suite struct TreeBorrowingTests {
  /// A pool of versions, each changed in turn from a copy of another, checked against a model after
  /// every step; then every version is dropped and every token must go.
  @Test(arguments: [1, 2, 3, 2026] as [UInt64])
  func versionsStayApartAndEveryReferenceIsReleasedOnce(seed: UInt64) {
    let counter = LifeCounter()
    var random = SeededGenerator(seed: seed)
    var nextID = 0
    let row = { (id: Int) in
      TrackedRow(id: id, title: "row \(id) of a tracked list", token: LifeToken(counter))
    }
    do {
      var versions = { () -> [(IdentifiedArray<TrackedRow>, [TrackedRow])] in
        let first = (0..<700).map { _ in
          nextID += 1
          return row(nextID)
        }
        return Array(repeating: (IdentifiedArray(uniqueElements: first), first), count: 5)
      }()
      for step in 0..<600 {
        var (array, model) = versions[Int.random(in: 0..<versions.count, using: &random)]
        let count = model.count
        let position = Int.random(in: 0..<Swift.max(1, count), using: &random)
        let operation = Int.random(in: 0..<9, using: &random)
        switch operation {
        case 0 where count > 0:
          array[id: model[position].id]?.title += "!"
          model[position].title += "!"
        case 1 where count > 0:
          let fresh = LifeToken(counter)
          array.updateElement(id: model[position].id) { $0.token = fresh }
          model[position].token = fresh
        case 2 where count > 0:
          array[position].title = "set \(step)"
          model[position].title = "set \(step)"
        case 3 where count > 0:
          let replacement = TrackedRow(id: model[position].id, title: "replaced", token: LifeToken(counter))
          array[id: replacement.id] = replacement
          model[position] = replacement
        case 4:
          nextID += 1
          let new = row(nextID)
          array.insert(new, at: Swift.min(position, count))
          model.insert(new, at: Swift.min(position, count))
        case 5 where count > 0:
          #expect(array.remove(id: model[position].id) == model.remove(at: position))
        case 6 where count > 0:
          array[id: model[position].id] = nil
          model.remove(at: position)
        case 7 where count > 1:
          let other = Int.random(in: 0..<count, using: &random)
          array.swapAt(position, other)
          model.swapAt(position, other)
        default:
          for _ in 0..<20 where count > 0 {
            let target = Int.random(in: 0..<count, using: &random)
            array[id: model[target].id]?.title += "."
            model[target].title += "."
          }
        }
        array._checkInvariants()
        let differs = (0..<Swift.max(array.count, model.count)).first {
          $0 >= array.count || $0 >= model.count || array[$0] != model[$0]
        }
        #expect(
          differs == nil, "seed \(seed), step \(step), operation \(operation): differs at \(differs ?? -1)")
        versions[Int.random(in: 0..<versions.count, using: &random)] = (array, model)
      }
      for (array, model) in versions {
        array._checkInvariants()
        #expect(Array(array) == model)
        for element in model { #expect(array[id: element.id] == element) }
      }
      // The trees go first: the tokens left are exactly those the models hold.
      let held = Set(versions.flatMap { $0.1.map { ObjectIdentifier($0.token) } })
      let models = versions.map(\.1)
      versions = []
      #expect(counter.count == held.count)
      withExtendedLifetime(models) {}
    }
    #expect(counter.count == 0, "seed \(seed): tokens still alive after every version went")
  }

  /// Changing one row of a kept list copies each node on the path by borrowing: the copy's leaf borrows
  /// from the kept list's leaf, and owns only the changed row.
  @Test func anEditOfAKeptListBorrowsTheRestOfTheLeaf() throws {
    let counter = LifeCounter()
    let base = trackedList(count: 10_000, counter: counter)
    var edited = base
    edited[id: 4_321]?.title = "edited"
    let leaf = try #require(leafNode(of: edited.tree, containing: 4_321))
    let baseLeaf = try #require(leafNode(of: base.tree, containing: 4_321))
    #expect(leaf !== baseLeaf)
    #expect(leaf.isBorrowing)
    #expect(leaf.lender == UnmanagedNode(baseLeaf))
    #expect(leaf.head.pointee.borrowed.nonzeroBitCount == leaf.width - 1)
    #expect(edited[4_321].title == "edited" && base[4_321].title == "row 4321 of a list")
    #expect(edited[4_321].token === base[4_321].token, "the changed row's other fields are shared")
    #expect(counter.count == 10_000)
  }

  /// When the kept list goes, a change to the shape of the copy takes its lenders over: every row stays,
  /// and nothing is kept alive that no version holds.
  @Test func theLastBorrowerTakesItsLenderOver() throws {
    let counter = LifeCounter()
    var edited: IdentifiedArray<TrackedRow>
    do {
      let base = trackedList(count: 5_000, counter: counter)
      edited = base
      edited[id: 100]?.token = LifeToken(counter)
      #expect(counter.count == 5_001)
    }
    #expect(counter.count == 5_001, "the replaced token lives on in the lender")
    // (Not kept in a variable: a reference held here would make the insertion copy the leaf.)
    #expect(try #require(leafNode(of: edited.tree, containing: 100)).isBorrowing)
    edited.insert(TrackedRow(id: -1, title: "new", token: LifeToken(counter)), at: 101)
    edited._checkInvariants()
    #expect(counter.count == 5_001, "the lender released the replaced token and gave the rest over")
    #expect(edited.count == 5_001)
    #expect(edited[id: 4_999]?.title == "row 4999 of a list")
    #expect(try #require(leafNode(of: edited.tree, containing: 100)).isBorrowing == false)
  }

  /// A copy that has come to own more than a quarter of its leaf owns it all, so that a lender never keeps
  /// alive more than a quarter of a leaf of replaced rows for a borrower.
  @Test func aBorrowerOwningOverAQuarterOwnsItAll() throws {
    let counter = LifeCounter()
    let base = trackedList(count: 2_000, counter: counter)
    var edited = base
    let width = try #require(leafNode(of: edited.tree, containing: 0)).width
    for position in 0..<(width / 4) { edited[position].title = "edited \(position)" }
    #expect(try #require(leafNode(of: edited.tree, containing: 0)).isBorrowing)
    edited[width / 4].title = "one more"
    #expect(try #require(leafNode(of: edited.tree, containing: 0)).isBorrowing == false)
    #expect(base[0].title == "row 0 of a list" && edited[0].title == "edited 0")
    edited._checkInvariants()
  }

  /// A row with a `weak` field is not bitwise-takable (the runtime counts weak references), so its leaves
  /// are copied whole, never borrowed: a borrowed copy of the weak reference dangled once its lender went
  /// (found by review with AddressSanitizer).
  @Test func rowsThatAreNotBitwiseTakableAreCopiedWhole() throws {
    final class Owner: Sendable {}
    struct WeakRow: Identifiable, Sendable {
      var id: Int
      var count = 0
      weak var owner: Owner?
    }
    #expect(!UnmanagedNode<WeakRow>.valuesAreBitwiseTakable)
    let owner = Owner()
    var edited: IdentifiedArray<WeakRow>
    do {
      let base = IdentifiedArray(uniqueElements: (0..<200).map { WeakRow(id: $0, owner: owner) })
      edited = base
      edited[id: 3]?.count = 1
      #expect(try #require(leafNode(of: edited.tree, containing: 3)).isBorrowing == false)
      #expect(base[3].count == 0)
    }
    edited.insert(WeakRow(id: -1, owner: owner), at: 5)
    #expect(edited.allSatisfy { $0.owner === owner })
    #expect(edited[id: 3]?.count == 1)
    withExtendedLifetime(owner) {}
  }

  /// A list of `count` rows titled "row <id> of a list", each with a token counted by `counter`.
  private func trackedList(count: Int, counter: LifeCounter) -> IdentifiedArray<TrackedRow> {
    IdentifiedArray(
      uniqueElements: (0..<count).map {
        TrackedRow(id: $0, title: "row \($0) of a list", token: LifeToken(counter))
      })
  }

  /// The leaf that holds `position`.
  private func leafNode<Value>(of tree: PersistentTree<Value>, containing position: Int) -> TreeNode<Value>? {
    var node = tree.root
    var offset = position
    while !node.isLeaf {
      let (index, inner) = node.child(containing: offset)
      node = node.children[index]
      offset = inner
    }
    return node
  }
}
