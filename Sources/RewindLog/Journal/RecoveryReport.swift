/// What opening a log found and did.
public struct RecoveryReport: Sendable, Hashable, CustomStringConvertible {
  /// The newest event after recovery; 0 for an empty log.
  public var lastSequence: UInt64
  /// The torn tail that was cut off, if the previous writer died mid-frame.
  public var tornTail: TornTail?
  /// The number of segment files.
  public var segmentCount: Int
  /// Segment files at or before the log's cut that a cut interrupted by a crash left behind, removed
  /// when the log was opened (see ``RetentionPolicy``).
  public var finishedCut: [String] = []

  public var description: String {
    "recovered \(lastSequence) events in \(segmentCount) segment(s)" + (tornTail.map { "; \($0)" } ?? "")
      + (finishedCut.isEmpty ? "" : "; finished an interrupted cut (\(finishedCut.count) segment(s) removed)")
  }
}
