extension Checkpoints: InvariantChecking {
  /// Checks that there is an origin, that sequence numbers increase, that every checkpoint but the origin
  /// falls on the interval, and that at most `limit` are kept beside the origin; traps naming what is
  /// wrong. O(limit).
  @usableFromInline
  package func _checkInvariants() {
    precondition(!checkpoints.isEmpty, "Checkpoints: no origin")
    precondition(
      checkpoints.count <= limit + 1, "Checkpoints: \(checkpoints.count - 1) kept, over the limit \(limit)")
    for (earlier, later) in zip(checkpoints, checkpoints.dropFirst()) {
      precondition(
        earlier.sequence < later.sequence, "Checkpoints: #\(later.sequence) after #\(earlier.sequence)")
    }
    for checkpoint in checkpoints.dropFirst() {
      precondition(
        checkpoint.sequence % interval == 0,
        "Checkpoints: #\(checkpoint.sequence) off the interval \(interval)")
    }
  }
}
