import RewindDiff

/// Everything a flat diff must satisfy; returns what went wrong, or nil.
func flatProblem(source: [Item], target: [Item]) -> String? {
  let staged = StagedChangeset(source: source, target: target)
  if staged.count > 3 { return "more than 3 stages: \(staged)" }
  if staged.contains(where: { !$0.hasChanges }) { return "empty stage: \(staged)" }
  if let last = staged.last, last.data != target { return "last data is not the target: \(staged)" }
  if staged.isEmpty && source != target { return "no stages for different collections" }
  for stage in staged where stage.sectionChangeCount > 0 { return "section change in flat diff: \(stage)" }
  // The pairing is maximal: identifiers pair up min(count in source, count in target) times.
  var balance: [Int: (source: Int, target: Int)] = [:]
  for item in source { balance[item.id, default: (0, 0)].source += 1 }
  for item in target { balance[item.id, default: (0, 0)].target += 1 }
  let paired = balance.values.reduce(0) { $0 + min($1.source, $1.target) }
  let deleted = staged.reduce(0) { $0 + $1.elementDeleted.count }
  let inserted = staged.reduce(0) { $0 + $1.elementInserted.count }
  if deleted != source.count - paired || inserted != target.count - paired {
    return "not a maximal pairing: \(deleted) deletes, \(inserted) inserts, \(paired) pairs: \(staged)"
  }
  do {
    // The validator's replay checks every stage (throwing on the first broken rule) and returns
    // the collection a table shows afterwards: applying the changeset, validated.
    let applied = try BatchUpdateValidator.replay(staged, from: source)
    if applied != target { return "applying gives \(applied): \(staged)" }
  } catch {
    return "\(error): \(staged)"
  }
  return nil
}

/// Everything a sectioned diff must satisfy; returns what went wrong, or nil.
func sectionedProblem(source: [TestSection], target: [TestSection]) -> String? {
  let staged = StagedChangeset(source: source, target: target)
  if staged.count > 5 { return "more than 5 stages: \(staged)" }
  if staged.contains(where: { !$0.hasChanges }) { return "empty stage: \(staged)" }
  if let last = staged.last, last.data != target { return "last data is not the target: \(staged)" }
  if staged.isEmpty && source != target { return "no stages for different collections" }
  do {
    // The validator's replay checks every stage (throwing on the first broken rule) and returns
    // the collection a table shows afterwards: applying the changeset, validated.
    let applied = try BatchUpdateValidator.replay(staged, from: source)
    if applied != target { return "applying gives \(applied): \(staged)" }
  } catch {
    return "\(error): \(staged)"
  }
  return nil
}
