import Testing

@testable import Rewind

/// A row of an app-shaped list, with two strings so that a leaf holds 18 of them (three levels of nodes
/// from about 600 rows).
private struct DigestRow: Identifiable, Codable, Hashable, Sendable {
  var id: Int
  var title: String
  var note = ""
  var flag = false
  var count = 0
}

/// A row whose encoding fails while its title is "unencodable".
private struct FallibleRow: Identifiable, Codable, Equatable, Sendable {
  struct Refused: Error {}
  var id: Int
  var title: String

  func encode(to encoder: any Encoder) throws {
    if title == "unencodable" { throw Refused() }
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(title, forKey: .title)
  }
}

/// A row holding a list of its own: its digest is made of the nested tree's cached digest.
private struct NestedDigestRow: Identifiable, Codable, Equatable, Sendable {
  var id: Int
  var children: IdentifiedArray<DigestRow>
}

/// The digests tree nodes cache (`TreeNode+Digest.swift`): after any sequence of changes, on any version,
/// the fingerprint of a collection equals the digest of the same elements in a plain array, and after a
/// one-row edit a fingerprint digests only the path to that row.
@Suite struct TreeDigestCacheTests {
  /// A pool of versions (undo versions kept alive, sharing nodes), each changed in turn from a copy of
  /// another by a random operation, some fingerprinted (which fills caches that other versions share),
  /// each compared with the digest of its model, a plain array, after every step. In builds with
  /// `-DREWIND_CHECK_INVARIANTS` every mutation also checks every cache against its recomputed digest.
  @Test(arguments: [1, 2026] as [UInt64])
  func cachedFingerprintsEqualThoseOfThePlainArray(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    var nextID = 0
    let row = { (id: Int) in DigestRow(id: id, title: "row \(id) of a list", note: "note \(id % 7)") }
    let first = (0..<700).map { _ in
      nextID += 1
      return row(nextID)
    }
    var versions = Array(repeating: (IdentifiedArray(uniqueElements: first), first), count: 4)
    var plain = PlainDigest()
    for step in 0..<80 {
      var (array, model) = versions[Int.random(in: 0..<versions.count, using: &random)]
      let count = model.count
      let position = Int.random(in: 0..<Swift.max(1, count), using: &random)
      let operation = Int.random(in: 0..<12, using: &random)
      switch operation {
      case 0 where count > 0:
        array[id: model[position].id]?.title += "!"
        model[position].title += "!"
      case 1 where count > 0:
        array.updateElement(id: model[position].id) { $0.count += 1 }
        model[position].count += 1
      case 2 where count > 0:
        array[position].flag.toggle()
        model[position].flag.toggle()
      case 3:
        nextID += 1
        array.insert(row(nextID), at: Swift.min(position, count))
        model.insert(row(nextID), at: Swift.min(position, count))
      case 4:
        // Appends at the end split full nodes their own way.
        for _ in 0..<Int.random(in: 1...8, using: &random) {
          nextID += 1
          array.append(row(nextID))
          model.append(row(nextID))
        }
      case 5 where count > 0:
        #expect(array.remove(id: model[position].id) == model.remove(at: position))
      case 6 where count > 40:
        // A run of removals: underfull nodes are merged and evened out.
        let start = Swift.min(position, count - 40)
        for _ in 0..<Int.random(in: 10...40, using: &random) { model.remove(at: start) }
        array.replaceSubrange(start..<(start + (count - model.count)), with: [])
      case 7 where count > 1:
        let other = Int.random(in: 0..<count, using: &random)
        array.swapAt(position, other)
        model.swapAt(position, other)
      case 8 where count > 1:
        let destination = Int.random(in: 0..<count, using: &random)
        array.move(from: position, to: destination)
        model.insert(model.remove(at: position), at: destination)
      case 9:
        array.sort { ($0.title.count, $0.id) > ($1.title.count, $1.id) }
        model.sort { ($0.title.count, $0.id) > ($1.title.count, $1.id) }
      case 10 where count > 0:
        // The same tree through a `PersistentArray`, changed by position (its changes drop keys).
        var elements = array.elements
        elements[position].note = "via elements"
        var plain = model
        plain[position].note = "via elements"
        let digest = try StateFingerprint.of(elements)
        #expect(digest == (try StateFingerprint.of(plain)), "seed \(seed), step \(step): PersistentArray")
        elements.remove(at: position)
        plain.remove(at: position)
        #expect(try StateFingerprint.of(elements) == StateFingerprint.of(plain), "seed \(seed), step \(step)")
      default:
        for _ in 0..<4 where count > 0 {
          let target = Int.random(in: 0..<count, using: &random)
          array[id: model[target].id]?.title += "."
          model[target].title += "."
        }
      }
      // Caches left from earlier fingerprints must still hold, on the changed version too.
      array._checkInvariants()
      // Fingerprint some versions (filling caches they share with others), compare all of them.
      if Bool.random(using: &random) {
        let other = versions[Int.random(in: 0..<versions.count, using: &random)]
        #expect(try StateFingerprint.of(other.0) == plain.digest(of: other.1), "seed \(seed), step \(step)")
      }
      #expect(
        try StateFingerprint.of(array) == plain.digest(of: model),
        "seed \(seed), step \(step), operation \(operation)")
      versions[Int.random(in: 0..<versions.count, using: &random)] = (array, model)
    }
    for (array, model) in versions {
      array._checkInvariants()
      #expect(Array(array) == model)
      // From scratch, every element encoded again.
      #expect(try StateFingerprint.of(array) == StateFingerprint.of(model), "seed \(seed): a kept version")
      var work = DigestWork()
      #expect(try array.tree.digestLanes(work: &work) == array.tree.uncachedDigestLanes())
    }
  }

  /// At 100,000 rows, a fingerprint after a one-row edit digests the nodes on the path to the row (one
  /// per level) and encodes that row alone, counted by the digest itself; an insertion or a removal that
  /// reshapes nodes digests at most the nodes it changed. The kept version's caches stay valid.
  @Test func aOneRowEditRedigestsOnlyItsPath() throws {
    let count = 100_000
    var model = (0..<count).map { DigestRow(id: $0, title: "row \($0) of a list", note: "note") }
    let base = IdentifiedArray(uniqueElements: model)
    let depth = height(of: base.tree)
    let leafCapacity = TreeNode<DigestRow>.leafCapacity
    var plain = PlainDigest()
    var work = DigestWork()
    let full = try base.tree.digestLanes(work: &work)
    #expect(work.elements == count)
    #expect(CanonicalValue.sequence(full) == (try plain.digest(of: model)))

    var edited = base
    edited[id: 54_321]?.title = "edited"
    model[54_321].title = "edited"
    work = DigestWork()
    let afterEdit = try edited.tree.digestLanes(work: &work)
    #expect(work.nodes == depth + 1, "the root, each inner node on the path, and the leaf")
    #expect(work.elements == 1, "the copied leaf takes the other rows' digests from base's leaf")
    #expect(CanonicalValue.sequence(afterEdit) == (try plain.digest(of: model)))

    edited.insert(DigestRow(id: -1, title: "inserted"), at: 12_345)
    model.insert(DigestRow(id: -1, title: "inserted"), at: 12_345)
    edited.remove(id: 77_777)
    model.remove(at: 77_778)
    work = DigestWork()
    let afterReshape = try edited.tree.digestLanes(work: &work)
    #expect(work.nodes <= 4 * (depth + 1), "two paths, each node with at most one new sibling")
    #expect(work.elements <= 4 * leafCapacity)
    #expect(CanonicalValue.sequence(afterReshape) == (try plain.digest(of: model)))

    // The kept version shares every other node; its own digest is still whole in its root's cache.
    work = DigestWork()
    #expect(try base.tree.digestLanes(work: &work) == full)
    #expect(work.nodes == 0 && work.elements == 0)
  }

  /// A leaf changed only in place keeps its rows' digests: the next fingerprint encodes exactly the rows
  /// edited since the last one, however often each was edited; a copy made for a kept version encodes
  /// only the rows it changed; a leaf whose rows moved is encoded whole. Each fingerprint equals the plain
  /// array's.
  @Test func editsInPlaceEncodeOnlyTheEditedRows() throws {
    var model = (0..<10_000).map { DigestRow(id: $0, title: "row \($0) of a list", note: "note") }
    var array = IdentifiedArray(uniqueElements: model)
    var plain = PlainDigest()
    func fingerprint(encodes expected: Int?, _ comment: Comment) throws {
      var work = DigestWork()
      let lanes = try array.tree.digestLanes(work: &work)
      if let expected { #expect(work.elements == expected, comment) }
      #expect(CanonicalValue.sequence(lanes) == (try plain.digest(of: model)), comment)
      array._checkInvariants()
    }
    func edit(_ id: Int, _ title: String) {
      array[id: id]?.title = title
      model[id].title = title
    }
    try fingerprint(encodes: model.count, "the first fingerprint encodes every row")
    for id in [5, 6, 7, 5, 5_000, 9_999] { edit(id, "edited \(id)") }
    edit(5, "edited twice")
    try fingerprint(encodes: 5, "five rows edited, one of them three times")
    try fingerprint(encodes: 0, "nothing edited since")

    edit(6, "edited again")
    try fingerprint(encodes: 1, "one row edited since the last fingerprint of its leaf")

    // An insertion moves the rows of the leaf after it: that leaf is encoded whole.
    edit(7, "edited before a move")
    array.insert(DigestRow(id: -1, title: "inserted"), at: 3)
    model.insert(DigestRow(id: -1, title: "inserted"), at: 3)
    var work = DigestWork()
    _ = try array.tree.digestLanes(work: &work)
    #expect(work.elements > 1)
    try fingerprint(encodes: 0, "the reshaped leaf's new block is valid")

    // A kept version (an undo step): the edit makes a borrowing copy of the leaf, which takes the
    // digests of the rows it still borrows from the kept leaf's block.
    let kept = array
    array[id: 4_000]?.flag.toggle()
    model[4_001].flag.toggle()
    try fingerprint(encodes: 1, "the copy encodes only the row it owns")
    work = DigestWork()
    _ = try kept.tree.digestLanes(work: &work)
    #expect(work.elements == 0, "the kept version's caches are untouched")
    // Edits of the copy after its first fingerprint reuse its block again.
    array[id: 4_000]?.flag.toggle()
    model[4_001].flag.toggle()
    try fingerprint(encodes: 1, "the copy, digested once, keeps its rows' digests")

    // A version kept before any fingerprint, fingerprinted after the edit: the copy has no block, and
    // takes the digests of the rows it borrows from its lender's.
    let fresh = IdentifiedArray(uniqueElements: model)
    array = fresh
    array[id: 2_000]?.title = "edited after the copy"
    model[2_001].title = "edited after the copy"
    work = DigestWork()
    _ = try fresh.tree.digestLanes(work: &work)
    #expect(work.elements == model.count)
    try fingerprint(encodes: 1, "the copy encodes only the row it owns")
  }

  /// Copies of copies (what a checkpoint or an undo step forces on every edit of a kept leaf) borrow from
  /// the first leaf copied: a fingerprint digests that lender once, if no fingerprint had, and every later
  /// copy encodes only the rows it owns. A lender changed in place before it was lent lends the digests
  /// of its rows not changed since.
  @Test func copiesOfCopiesEncodeOnlyTheRowsTheyOwn() throws {
    var model = (0..<10_000).map { DigestRow(id: $0, title: "row \($0) of a list", note: "note") }
    var array = IdentifiedArray(uniqueElements: model)
    var plain = PlainDigest()
    var kept: [IdentifiedArray<DigestRow>] = [array]
    func fingerprint(encodes expected: Int, _ comment: Comment) throws {
      var work = DigestWork()
      let lanes = try array.tree.digestLanes(work: &work)
      #expect(work.elements == expected, comment)
      #expect(CanonicalValue.sequence(lanes) == (try plain.digest(of: model)), comment)
      array._checkInvariants()
    }
    func edit(_ id: Int, _ title: String) {
      kept.append(array)  // a checkpoint: the next edit of each leaf copies it
      array[id: id]?.title = title
      model[id].title = title
    }
    // The first copy's lender, the kept leaf, was never digested: it is, once (18 rows), then the copy
    // encodes its own row.
    edit(5, "edited")
    try fingerprint(encodes: model.count + 1, "every row, and the copy's own row once more")
    edit(6, "edited")
    try fingerprint(encodes: 2, "a copy of the copy: the two rows it owns")
    edit(7, "edited")
    try fingerprint(encodes: 3, "the three rows it owns")

    // A lender changed in place after its last fingerprint, then lent: its stale block lends the rows
    // not changed since.
    kept.removeAll()
    array = IdentifiedArray(uniqueElements: model)
    try fingerprint(encodes: model.count, "a new list: every row")
    array[id: 4_000]?.title = "changed in place"
    model[4_000].title = "changed in place"
    kept.append(array)
    array[id: 4_001]?.title = "changed in a copy"
    model[4_001].title = "changed in a copy"
    try fingerprint(encodes: 2, "the row the lender changed and the row the copy changed")
    #expect(kept.count == 1)
  }

  /// Several threads fingerprint versions sharing nodes at once while others change their own copies:
  /// the caches are filled by compare-and-exchange and read with acquiring loads (ThreadSanitizer checks
  /// this test in CI), and every thread sees the digest of its own version.
  @Test func concurrentFingerprintsOfSharedNodesAgree() async throws {
    let rows = (0..<3_000).map { DigestRow(id: $0, title: "row \($0)") }
    let shared = IdentifiedArray(uniqueElements: rows)
    let expected = try StateFingerprint.of(rows)
    let results = try await withThrowingTaskGroup(of: Bool.self) { group in
      for worker in 0..<4 {
        group.addTask {
          var mine = shared
          var plain = rows
          for round in 0..<5 {
            guard try StateFingerprint.of(shared) == expected else { return false }
            let position = (worker * 701 + round * 331) % rows.count
            mine[position].title = "worker \(worker) round \(round)"
            plain[position].title = "worker \(worker) round \(round)"
            guard try StateFingerprint.of(mine) == StateFingerprint.of(plain) else { return false }
          }
          return true
        }
      }
      return try await group.reduce(into: [Bool]()) { $0.append($1) }
    }
    #expect(results == [true, true, true, true])
  }

  /// An in-place edit only marks the lanes on its path stale; when several threads then fingerprint the
  /// edited version at once, each of those nodes gets one set of lanes (the thread that publishes them
  /// frees the stale ones, the others their own copies) and every thread sees the plain array's digest.
  /// ThreadSanitizer checks this test in CI.
  @Test func concurrentFingerprintsReplaceStaleLanes() async throws {
    var rows = (0..<3_000).map { DigestRow(id: $0, title: "row \($0)") }
    var array = IdentifiedArray(uniqueElements: rows)
    for round in 0..<4 {
      _ = try StateFingerprint.of(array)
      array[id: round * 701]?.title = "edited in round \(round)"
      rows[round * 701].title = "edited in round \(round)"
      #expect(array.tree.root.cachedDigest == nil)
      let expected = try StateFingerprint.of(rows)
      let shared = array
      let results = try await withThrowingTaskGroup(of: StateFingerprint.self) { group in
        for _ in 0..<4 { group.addTask { try StateFingerprint.of(shared) } }
        return try await group.reduce(into: [StateFingerprint]()) { $0.append($1) }
      }
      #expect(results == Array(repeating: expected, count: 4))
      #expect(array.tree.root.cachedDigest != nil)
      array._checkInvariants()
    }
  }

  /// A row that holds a list of its own: an edit deep inside changes the outer digest too, as both
  /// trees' paths forget their caches.
  @Test func nestedListsForgetTheirCachesAlongBothPaths() throws {
    let children = IdentifiedArray(uniqueElements: (0..<200).map { DigestRow(id: $0, title: "child \($0)") })
    var outer = IdentifiedArray(uniqueElements: (0..<300).map { NestedDigestRow(id: $0, children: children) })
    let before = try StateFingerprint.of(outer)
    outer[id: 150]?.children[id: 99]?.title = "changed deep inside"
    outer._checkInvariants()
    let after = try StateFingerprint.of(outer)
    #expect(after != before)
    let plain = outer.map { PlainNestedRow(id: $0.id, children: Array($0.children)) }
    #expect(after == (try StateFingerprint.of(plain)))
  }

  /// A digest that fails (an element does not encode) caches nothing above the failure; once the
  /// element encodes again, the fingerprint is the plain array's.
  @Test func aFailedDigestCachesNothingAboveTheFailure() throws {
    var rows = (0..<1_000).map { FallibleRow(id: $0, title: "row \($0)") }
    var array = IdentifiedArray(uniqueElements: rows)
    _ = try StateFingerprint.of(array)
    array[id: 500]?.title = "unencodable"
    #expect(throws: FallibleRow.Refused.self) { try StateFingerprint.of(array) }
    #expect(array.tree.root.cachedDigest == nil)
    array._checkInvariants()
    array[id: 500]?.title = "fine again"
    rows[500].title = "fine again"
    #expect(try StateFingerprint.of(array) == StateFingerprint.of(rows))
    array._checkInvariants()
  }

  /// The number of inner levels above the leaves.
  private func height<Value>(of tree: PersistentTree<Value>) -> Int {
    var node = tree.root
    var levels = 0
    while !node.isLeaf {
      node = node.child(at: 0)
      levels += 1
    }
    return levels
  }
}

/// The digest of a plain array of rows, as `StateFingerprint.of` computes it, with each row's own digest
/// remembered by value: the randomized test compares every version after every step, and encoding
/// every row of every model again was most of its time.
private struct PlainDigest {
  var rows: [DigestRow: StateFingerprint] = [:]

  mutating func digest(of model: [DigestRow]) throws -> StateFingerprint {
    var lanes = DigestLanes()
    for row in model {
      let digest = try rows[row] ?? StateFingerprint.of(row)
      rows[row] = digest
      CanonicalValue.append(element: digest, to: &lanes)
    }
    return CanonicalValue.sequence(lanes)
  }
}

/// A nested row as plain arrays, for the from-scratch digest (the fields and encoding of `NestedDigestRow`).
private struct PlainNestedRow: Encodable {
  var id: Int
  var children: [DigestRow]
}
