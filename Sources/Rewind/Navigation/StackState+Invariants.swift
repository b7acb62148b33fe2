extension StackState: InvariantChecking {
  /// Checks that ids increase from the bottom and that the counter is past the top's id, so that the next
  /// push gets a new id; traps naming what is wrong. O(depth).
  @usableFromInline
  package func _checkInvariants() {
    for (lower, upper) in zip(entries, entries.dropFirst()) {
      precondition(lower.id < upper.id, "StackState: ids out of order: \(lower.id) below \(upper.id)")
    }
    precondition(
      entries.last.map { $0.id < nextID } ?? true, "StackState: an id at or past the counter \(nextID)")
  }
}
