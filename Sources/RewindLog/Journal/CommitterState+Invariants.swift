import Rewind

extension CommitterState: InvariantChecking {
  /// Checks the state after a transition, trapping with a message naming what is wrong: progress never
  /// runs ahead of what was appended and written; the frames are gapless, in segment order, in segments
  /// the state knows, and the last one ends what was written; the first starts right after the cut (or at
  /// the frame an open from a snapshot started at); a queued waiter is one whose outcome is not known yet,
  /// and no observer is left after a failure. O(frames and waiters).
  @usableFromInline
  func _checkInvariants() {
    precondition(
      durable <= written && written <= lastAppended,
      "CommitterState: progress runs ahead: \(durable) \(written) \(lastAppended)")
    precondition(
      frames.last.map { $0.lastSequence == written } ?? (written == 0),
      "CommitterState: the last frame is not what was written")
    for (earlier, later) in zip(frames, frames.dropFirst()) {
      precondition(
        later.firstSequence == earlier.lastSequence + 1,
        "CommitterState: frames are not gapless (\(earlier.lastSequence), then \(later.firstSequence))")
      precondition(later.segment >= earlier.segment, "CommitterState: frames out of segment order")
    }
    precondition(
      frames.last.map { $0.segment < segmentBase + segments.count } ?? true,
      "CommitterState: a frame in a segment it does not know")
    // The index starts right after the cut, or at the frame an open from a snapshot started at.
    let first = unindexedBefore?.frameFirstSequence ?? (cut?.throughSequence ?? 0) + 1
    precondition(
      frames.first.map { $0.firstSequence == first && $0.segment >= segmentBase } ?? true,
      "CommitterState: the first frame does not start right after the cut or at the frame the open started at"
    )
    for waiter in waiters {
      precondition(
        outcome(waiter.progress, through: waiter.target) == nil,
        "CommitterState: a decided waiter is still queued")
    }
    precondition(failure == nil || observers.isEmpty, "CommitterState: observers left after a failure")
  }
}
