import RewindDiff
import Testing

/// An identifier whose hash is chosen by the test, to force collisions in the pairing table.
private struct Colliding: Hashable, Sendable {
  var value: Int
  var hash: Int

  static func == (lhs: Colliding, rhs: Colliding) -> Bool { lhs.value == rhs.value }
  func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

private struct CollidingItem: Differentiable, Equatable, Sendable {
  var id: Colliding
  var content: Int
  var differenceIdentifier: Colliding { id }
  func isContentEqual(to source: CollidingItem) -> Bool { content == source.content }
}

@Suite("Hash collisions")
struct HashCollisionTests {
  @Test("identifiers that all hash alike still pair correctly, duplicates included", arguments: [1, 7])
  func collisions(hashes: Int) throws {
    var random = TestRandom(seed: 0xC011_1DE5 &+ UInt64(hashes))
    for round in 0..<200 {
      let make = { (random: inout TestRandom) in
        (0..<random.below(60)).map { _ in
          let value = random.below(20)
          return CollidingItem(id: Colliding(value: value, hash: value % hashes), content: random.below(2))
        }
      }
      let source = make(&random)
      let target = make(&random)
      let staged = StagedChangeset(source: source, target: target)
      #expect(try staged.apply(to: source) == target, "round \(round), \(hashes) distinct hashes")
    }
  }
}
