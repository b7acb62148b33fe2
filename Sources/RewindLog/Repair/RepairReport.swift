/// What ``FileJournal/repair(directory:key:)`` kept and set aside.
public struct RepairReport: Sendable, Hashable, CustomStringConvertible {
  /// The newest event kept.
  public var lastSequence: UInt64
  /// Paths of the files and byte ranges moved into the quarantine directory.
  public var quarantined: [String]

  public var description: String {
    quarantined.isEmpty
      ? "nothing to repair; \(lastSequence) events"
      : "kept events 1...\(lastSequence); set aside \(quarantined.joined(separator: ", "))"
  }
}
