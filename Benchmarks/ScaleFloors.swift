import Foundation
import Rewind

/// What a one-row edit costs *without a store*, by size: the floors under the `scale` growth goals.
///
/// - `scale/edit-by-id-rows=N`: µs per `rows[id:]?.flag.toggle()` on an `IdentifiedArray` alone, its
///   storage unique; `baseline`: the same edit of a `[Int: Row]` dictionary (a mutable hash table, which
///   keeps no versions).
/// - `scale/edit-by-id-kept-rows=N`: the same while the list's first version is kept, as a store's first
///   checkpoint, a subscriber or the caller keep one: the first edit of each leaf copies it. `baseline`:
///   the dictionary.
/// - `scale/array-latency-rows=N`: µs per edit of a plain array when each edit waits for the one before (its
///   index depends on the row read last): the latency of a cache miss. `baseline`: the same edits made
///   independently, the `scale/<config>` baseline, whose misses the processor overlaps. A store's sends
///   are one after another, so they pay the latency.
///
/// Each figure is the median of five runs of the suite's edits on fresh collections.
func editFloors(rows: Int, ids: [Int]) -> [Measurement] {
  let ids = opaque(ids)
  var unique: [Double] = []
  var kept: [Double] = []
  var dictionary: [Double] = []
  var dependent: [Double] = []
  var independent: [Double] = []
  for _ in 0..<5 {
    var list = IdentifiedArray(uniqueElements: (0..<rows).map(ScaleList.row))
    unique.append(time { toggleUnique(&list, ids) })
    let first = IdentifiedArray(uniqueElements: (0..<rows).map(ScaleList.row))
    var version = first
    kept.append(time { version = toggledVersion(of: first, ids) })
    var table = Dictionary(uniqueKeysWithValues: (0..<rows).map { ($0, ScaleList.row($0)) })
    dictionary.append(time { toggleDictionary(&table, ids) })
    var array = (0..<rows).map(ScaleList.row)
    dependent.append(time { toggleOneAfterAnother(&array, ids) })
    independent.append(time { toggle(&array, ids) })
    blackHole((list, first, version, table, array))
  }
  let perEdit = { (samples: [Double]) in median(samples) / Double(ids.count) * 1e6 }
  return [
    Measurement(
      name: "scale/edit-by-id-rows=\(rows)", unit: "us", median: perEdit(unique),
      baseline: perEdit(dictionary)),
    Measurement(
      name: "scale/edit-by-id-kept-rows=\(rows)", unit: "us", median: perEdit(kept),
      baseline: perEdit(dictionary)),
    Measurement(
      name: "scale/array-latency-rows=\(rows)", unit: "us", median: perEdit(dependent),
      baseline: perEdit(independent)),
  ]
}

/// µs per edit of a kept version of a list of `rows` rows (as `scale/edit-by-id-kept-rows=N`), median of five
/// runs: the part of a send the growth goals do not count as the store's.
func keptEditMicroseconds(rows: Int, ids: [Int]) -> Double {
  let ids = opaque(ids)
  let first = IdentifiedArray(uniqueElements: (0..<rows).map(ScaleList.row))
  var samples: [Double] = []
  for _ in 0..<5 {
    var version: IdentifiedArray<ScaleList.Row>?
    samples.append(time { version = toggledVersion(of: first, ids) })
    blackHole(version)  // freed here, outside the timing
  }
  return median(samples) / Double(ids.count) * 1e6
}

// Each floor's loop is a function of its own that calls no other, so that `Scripts/scale-callgrind.sh ROWS
// floors` reads each one's count directly (inclusive), with nothing to subtract.

/// `ids` toggled in `list`, whose storage is unique.
@inline(never)
private func toggleUnique(_ list: inout IdentifiedArray<ScaleList.Row>, _ ids: [Int]) {
  for id in ids { list[id: id]?.flag.toggle() }
}

/// `first` with `ids` toggled, `first` kept: the first edit of each leaf copies it.
@inline(never)
private func toggledVersion(
  of first: IdentifiedArray<ScaleList.Row>, _ ids: [Int]
) -> IdentifiedArray<ScaleList.Row> {
  var version = first
  for id in ids { version[id: id]?.flag.toggle() }
  return version
}

/// `ids` toggled in a dictionary of the same rows.
@inline(never)
private func toggleDictionary(_ table: inout [Int: ScaleList.Row], _ ids: [Int]) {
  for id in ids { table[id]?.flag.toggle() }
}

@inline(never)
private func toggle(_ array: inout [ScaleList.Row], _ ids: [Int]) {
  for id in ids { array[id].flag.toggle() }
}

/// Each index is offset by a value read from the row before (zero, since a row's id is its index, which
/// the optimizer cannot know), so no edit starts before the last one's load has come back.
@inline(never)
private func toggleOneAfterAnother(_ array: inout [ScaleList.Row], _ ids: [Int]) {
  var carry = 0
  for id in ids {
    let index = id &+ carry
    array[index].flag.toggle()
    carry = array[index].id &- index
  }
}
