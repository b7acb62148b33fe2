import Foundation
import RewindDiff

/// Suite `diff`: RewindDiff's flat diff on `UUID` identifiers, against the floor any identity-based diff pays.
let diffSuite = Suite(name: "diff", summary: "collection diffing (RewindDiff)") { reporter in
  var random = SplitMix64(seed: 0x5EED_D1FF)

  let readme5k = DiffWorkload.readme(
    count: 5_000, deleted: 1_000, inserted: 1_000, shuffled: 200, using: &random)
  let readme100k = DiffWorkload.readme(
    count: 100_000, deleted: 10_000, inserted: 10_000, shuffled: 2_000, using: &random)
  let ids100k = DiffWorkload.uuids(100_000, using: &random)

  report(reporter, "diff/readme-5k", source: readme5k.source, target: readme5k.target, repetitions: 41)
  report(reporter, "diff/readme-100k", source: readme100k.source, target: readme100k.target, repetitions: 15)
  report(reporter, "diff/reversed-100k", source: ids100k, target: ids100k.reversed(), repetitions: 15)
  let items = ids100k.map { Versioned(id: $0, version: 0) }
  report(
    reporter, "diff/updated-100k", source: items, target: items.map { Versioned(id: $0.id, version: 1) },
    repetitions: 15)
  report(reporter, "diff/identical-100k", source: ids100k, target: ids100k, repetitions: 15)

  // Sectioned, for information: 100 sections of 1,000, README-style edits spread over sections
  // (so many moves cross sections), 4 sections swapped. Baseline: the floor over all element ids.
  let sectioned = DiffWorkload.sectioned(sections: 100, perSection: 1_000, using: &random)
  reportSectioned(
    reporter, "diff/sectioned-100k", source: sectioned.source, target: sectioned.target, repetitions: 15)

  // The standard library's diff, for scale (no baseline: it is quadratic in the changes).
  let stdlib = medianSeconds(repetitions: 5) {
    blackHole(readme5k.target.difference(from: readme5k.source).inferringMoves())
  }
  reporter.report(Measurement(name: "diff/stdlib-readme-5k", unit: "ms", median: stdlib * 1_000))
}

/// Times `StagedChangeset(source:target:)` beside the identity floor for the same pair.
///
/// Diff and floor samples alternate, so a machine shared with other work slows both alike and the
/// ratio stays meaningful; each median is over `repetitions` samples after one warm-up of each.
private func report<Element: Differentiable>(
  _ reporter: Reporter, _ name: String, source: [Element], target: [Element], repetitions: Int
) where Element.DifferenceIdentifier == UUID {
  blackHole(identityFloor(source: source, target: target))
  blackHole(StagedChangeset(source: source, target: target))
  var floorSamples: [Double] = []
  var diffSamples: [Double] = []
  for _ in 0..<repetitions {
    floorSamples.append(time { blackHole(identityFloor(source: source, target: target)) })
    diffSamples.append(time { blackHole(StagedChangeset(source: source, target: target)) })
  }
  reporter.report(
    Measurement(
      name: name, unit: "ms", median: median(diffSamples) * 1_000, baseline: median(floorSamples) * 1_000))
}

/// Times the sectioned `StagedChangeset(source:target:)` beside the identity floor over all elements.
private func reportSectioned(
  _ reporter: Reporter, _ name: String, source: [ArraySection<SectionNumber, UUID>],
  target: [ArraySection<SectionNumber, UUID>],
  repetitions: Int
) {
  let sourceElements = source.flatMap(\.elements)
  let targetElements = target.flatMap(\.elements)
  blackHole(StagedChangeset(source: source, target: target))
  var floorSamples: [Double] = []
  var diffSamples: [Double] = []
  for _ in 0..<repetitions {
    floorSamples.append(time { blackHole(identityFloor(source: sourceElements, target: targetElements)) })
    diffSamples.append(time { blackHole(StagedChangeset(source: source, target: target)) })
  }
  reporter.report(
    Measurement(
      name: name, unit: "ms", median: median(diffSamples) * 1_000, baseline: median(floorSamples) * 1_000))
}

/// The floor any identity-based diff pays: a dictionary of the source identifiers, then one lookup per target identifier.
@inline(never)
private func identityFloor<Element: Differentiable>(source: [Element], target: [Element]) -> Int
where Element.DifferenceIdentifier == UUID {
  var offsets = [UUID: Int](minimumCapacity: source.count)
  for (offset, element) in source.enumerated() { offsets[element.differenceIdentifier] = offset }
  var found = 0
  for element in target where offsets[element.differenceIdentifier] != nil { found &+= 1 }
  return found
}

/// A section model: just a number.
private struct SectionNumber: Hashable, Differentiable {
  var value: Int
}

/// An item whose identity is a `UUID` and whose content is a version number.
private struct Versioned: Differentiable, Equatable {
  var id: UUID
  var version: Int
  var differenceIdentifier: UUID { id }
}

/// Inputs shaped like DifferenceKit's published benchmark.
private enum DiffWorkload {
  /// `count` seeded `UUID`s.
  static func uuids(_ count: Int, using random: inout SplitMix64) -> [UUID] {
    (0..<count).map { _ in
      var bytes = (random.next(), random.next())
      return withUnsafeBytes(of: &bytes) { raw in
        UUID(uuid: raw.load(as: uuid_t.self))
      }
    }
  }

  /// `count` elements, then `deleted` removed and `inserted` new ones added at random positions,
  /// and `shuffled` elements moved by swapping random pairs.
  static func readme(
    count: Int, deleted: Int, inserted: Int, shuffled: Int, using random: inout SplitMix64
  ) -> (source: [UUID], target: [UUID]) {
    let source = uuids(count, using: &random)
    var target = source
    for _ in 0..<deleted { target.remove(at: Int.random(in: 0..<target.count, using: &random)) }
    for id in uuids(inserted, using: &random) {
      target.insert(id, at: Int.random(in: 0...target.count, using: &random))
    }
    for _ in 0..<(shuffled / 2) {
      target.swapAt(
        Int.random(in: 0..<target.count, using: &random), Int.random(in: 0..<target.count, using: &random))
    }
    return (source, target)
  }

  /// `readme` edits on the concatenation of `sections` sections, cut back into sections of the
  /// original sizes, and four pairs of sections swapped.
  static func sectioned(
    sections: Int, perSection: Int, using random: inout SplitMix64
  ) -> (source: [ArraySection<SectionNumber, UUID>], target: [ArraySection<SectionNumber, UUID>]) {
    let count = sections * perSection
    let flat = readme(
      count: count, deleted: count / 10, inserted: count / 10, shuffled: count / 50, using: &random)
    func cut(_ ids: [UUID]) -> [ArraySection<SectionNumber, UUID>] {
      (0..<sections).map { section in
        ArraySection(
          model: SectionNumber(value: section),
          elements: ids[(section * perSection)..<min(ids.count, (section + 1) * perSection)])
      }
    }
    var target = cut(flat.target)
    for _ in 0..<4 {
      target.swapAt(
        Int.random(in: 0..<sections, using: &random), Int.random(in: 0..<sections, using: &random))
    }
    return (cut(flat.source), target)
  }
}

/// `UUID` is its own identity, as in DifferenceKit's benchmark.
extension UUID: Differentiable {}
