/// One edit of a list whose indices shift after every edit, as `NSTableView` applies them between
/// `beginUpdates()` and `endUpdates()`.
enum SequentialRowStep: Hashable, Sendable {
  /// Insert a new row at this index of the list as it stands.
  case insert(Int)
  /// Move the row at `from` to `to`, both indices of the list as it stands.
  case move(from: Int, to: Int)
}

/// Sequential steps equivalent to one flat batch of inserts and moves (no deletes, no reloads).
///
/// Target positions are filled left to right: a new row is inserted there, and a row that belongs
/// there but stands further right is moved in; rows that stay simply slide into place.
/// - Complexity: O(n × moves), fine for the rows of a view.
func sequentialRowSteps(beforeCount: Int, inserted: [Int], moved: [Move<Int>]) -> [SequentialRowStep] {
  let afterCount = beforeCount + inserted.count
  // wanted[j]: the before-row that ends at j, or -1 for a new row.
  var wanted = [Int](repeating: -2, count: afterCount)
  for index in inserted where index >= 0 && index < afterCount { wanted[index] = -1 }
  var movedOut = Set<Int>()
  for move in moved where move.target >= 0 && move.target < afterCount {
    wanted[move.target] = move.source
    movedOut.insert(move.source)
  }
  var staying = (0..<beforeCount).filter { !movedOut.contains($0) }.makeIterator()
  for index in 0..<afterCount where wanted[index] == -2 { wanted[index] = staying.next() ?? -1 }

  var rows = Array(0..<beforeCount)  // before-rows as they stand; -1 marks inserted rows
  var steps: [SequentialRowStep] = []
  for index in 0..<afterCount {
    let row = wanted[index]
    if row < 0 {
      rows.insert(-1, at: Swift.min(index, rows.count))
      steps.append(.insert(index))
    } else if index >= rows.count || rows[index] != row {
      guard let from = rows[index...].firstIndex(of: row) else { continue }
      rows.remove(at: from)
      rows.insert(row, at: index)
      steps.append(.move(from: from, to: index))
    }
  }
  return steps
}
