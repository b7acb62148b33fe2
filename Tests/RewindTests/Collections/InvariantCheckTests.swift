import Testing

@testable import Rewind

/// The invariant checks (`InvariantChecking`): they hold through random edits, and they fire when an
/// invariant is broken on purpose. Each broken structure is made in a child process (an exit test), since a
/// failed check traps.
@Suite struct InvariantCheckTests {
  /// A `PersistentArray`, plain or handed out by an `IdentifiedArray` (its nodes keyed), edited at random
  /// beside a model, passes its check after every step, and so does every version kept on the way.
  @Test(arguments: [1, 2, 3, 2026] as [UInt64])
  func aPersistentArrayPassesItsCheckThroughRandomEdits(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    let rows = IdentifiedArray(uniqueElements: (0..<2_000).map { Mail(id: $0, subject: "mail \($0)") })
    var versions: [(PersistentArray<Mail>, [Mail])] = [
      (rows.elements, Array(rows)), (PersistentArray(Array(rows)), Array(rows)),
    ]
    for step in 0..<400 {
      var (array, model) = versions[Int.random(in: 0..<versions.count, using: &random)]
      let position = Int.random(in: 0..<Swift.max(1, model.count), using: &random)
      switch Int.random(in: 0..<6, using: &random) {
      case 0 where !model.isEmpty:
        array[position].subject += "!"
        model[position].subject += "!"
      case 1:
        let mail = Mail(id: -step, subject: "new \(step)")
        array.insert(mail, at: Swift.min(position, model.count))
        model.insert(mail, at: Swift.min(position, model.count))
      case 2 where !model.isEmpty:
        #expect(array.remove(at: position) == model.remove(at: position))
      case 3:
        let range = Swift.min(position, model.count)..<Swift.min(position + 3, model.count)
        let replacement = [Mail(id: -10_000 - step, subject: "replaced")]
        array.replaceSubrange(range, with: replacement)
        model.replaceSubrange(range, with: replacement)
      case 4:
        array.append(Mail(id: -20_000 - step, subject: "appended"))
        model.append(Mail(id: -20_000 - step, subject: "appended"))
      default:
        let other = Int.random(in: 0..<Swift.max(1, model.count), using: &random)
        if !model.isEmpty {
          array.swapAt(position, other)
          model.swapAt(position, other)
        }
      }
      array._checkInvariants()
      #expect(Array(array) == model, "seed \(seed), step \(step)")
      versions[Int.random(in: 0..<versions.count, using: &random)] = (array, model)
      if versions.count < 6 { versions.append((array, model)) }
    }
    for (array, model) in versions {
      array._checkInvariants()
      #expect(Array(array) == model, "seed \(seed)")
    }
  }

  /// A stale count in an inner node is caught by the check.
  @Test func aStaleCountFailsPersistentArraysCheck() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      var array = PersistentArray(0..<1_000)
      InvariantCheckTests.breakFirstCount(of: &array)
      array._checkInvariants()
    }
    expect(result, said: "PersistentTree: stale count")
  }

  /// Every mutation of a `PersistentArray` runs its check in builds with `-DREWIND_CHECK_INVARIANTS`, and
  /// none does in other builds: an append to an array with a stale count (which the append itself does
  /// not read) traps in the first and goes through in the second.
  @Test func aMutationRunsTheCheckOnlyWhenEnabled() async {
    let expected: ExitTest.Condition = invariantChecksAreEnabled ? .failure : .success
    let result = await #expect(processExitsWith: expected, observing: [\.standardErrorContent]) {
      var array = PersistentArray(0..<1_000)
      InvariantCheckTests.breakFirstCount(of: &array)
      array.append(1_000)
    }
    if invariantChecksAreEnabled { expect(result, said: "PersistentTree: stale count") }
  }

  /// Bits borrowed past a node's width break a borrowing rule (`UnmanagedNode`, rule 6), which the
  /// structure check of `IdentifiedArray` finds.
  @Test func aBorrowedBitPastTheWidthFailsTheCheck() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let base = IdentifiedArray(uniqueElements: (0..<1_000).map { Mail(id: $0, subject: "mail \($0)") })
      var edited = base
      edited[id: 500]?.subject = "edited"
      var node = edited.tree.root
      var offset = 500
      while !node.isLeaf {
        let (index, inner) = node.child(containing: offset)
        node = node.child(at: index)
        offset = inner
      }
      guard node.isBorrowing else { return }  // the exit is then a success, which fails the test
      node.head.pointee.borrowed |= 1 << 63
      edited._checkInvariants()
    }
    expect(result, said: "PersistentTree: borrowed bits past the width")
  }

  /// An id index that leads to another element's label is caught by `IdentifiedArray`'s check.
  @Test func aStaleLabelFailsIdentifiedArraysCheck() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      var array = IdentifiedArray(uniqueElements: (0..<100).map { Mail(id: $0, subject: "mail \($0)") })
      array.index.setLabel(array.tree.key(at: 1), of: 0)
      array._checkInvariants()
    }
    expect(result, said: "IdentifiedArray: stale label for id 0")
  }

  /// Ids out of order in a navigation stack are caught by `StackState`'s check.
  @Test func idsOutOfOrderFailStackStatesCheck() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      var stack = StackState(["a", "b", "c"])
      stack.entries.swapAt(0, 2)
      stack._checkInvariants()
    }
    expect(result, said: "StackState: ids out of order")
  }

  /// Expects the child process to have trapped with a message containing `message` (a failed check's).
  private func expect(
    _ result: ExitTest.Result?, said message: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let output = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
    #expect(output.contains(message), "expected \"\(message)\" in: \(output)", sourceLocation: sourceLocation)
  }

  /// Makes the count of the root's first child one too many: the tree must have more than one leaf.
  static func breakFirstCount(of array: inout PersistentArray<Int>) {
    precondition(!array.tree.root.isLeaf, "the test needs a tree of more than one leaf")
    array.tree.root.ends[0] += 1
  }
}
