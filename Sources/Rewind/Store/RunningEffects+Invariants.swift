extension RunningEffects: InvariantChecking {
  /// Checks the bookkeeping of the running tasks: the count of child tasks is the number of entries with a
  /// lifetime, every token was reserved, no more cancelled tasks finished than were cancelled, and no waiter waits for idleness while nothing runs (it would
  /// never be woken). Traps naming what is wrong. O(tasks).
  @usableFromInline
  func _checkInvariants() {
    precondition(
      childEntries == entries.values.count { !$0.lifetime.isEmpty },
      "RunningEffects: \(childEntries) child entries counted for \(entries.count) tasks")
    precondition(
      entries.keys.allSatisfy { $0 < nextToken }, "RunningEffects: a token past the counter \(nextToken)")
    precondition(
      cancelledStillRunning >= 0, "RunningEffects: \(cancelledStillRunning) cancelled tasks still running")
    precondition(
      !entries.isEmpty || idleWaiters.isEmpty,
      "RunningEffects: \(idleWaiters.count) idle waiters kept with no task running")
  }
}
