/// Receives each segment file retention is about to remove, so it can be kept elsewhere first.
///
/// Set it in ``FileJournalOptions/archive``. The closure runs on the journal's retention thread, never on
/// an appending one, oldest segment first, before the cut record is written; if it throws, nothing is
/// removed, the failure is reported (``FileJournal/retentionFailure``) and the cut is retried at the next
/// opportunity, handing the same segments again. A segment is therefore handed over at least once, and
/// exactly once when the hook and the process do not fail: make the hook idempotent (the built-in
/// ``cloudEvents(directory:source:)`` rewrites one file per segment).
///
/// ```swift
/// options.archive = SegmentArchive { segment in
///   try FileManager.default.copyItem(atPath: segment.path, toPath: "/backup/" + segment.name)
/// }
/// ```
public struct SegmentArchive: Sendable, Hashable {
  /// A segment about to be removed.
  public struct Segment: Sendable, Hashable {
    /// The segment file's path; the file is there, unchanged, while the hook runs.
    public var path: String
    /// The file's name, e.g. `segment-00000000000000000001.log`.
    public var name: String
    /// The events it holds.
    public var sequences: ClosedRange<UInt64>
    /// The file's size in bytes.
    public var bytes: UInt64
  }

  /// A name for the hook: two archives are equal when their names are (closures cannot be compared).
  public var name: String
  let body: @Sendable (Segment) throws -> Void

  /// An archive that calls `body` with each segment before it is removed.
  /// - Parameters:
  ///   - name: identifies the hook in ``FileJournalOptions``' equality.
  ///   - body: copies or exports the segment; throwing stops the cut.
  public init(name: String = "custom", _ body: @escaping @Sendable (Segment) throws -> Void) {
    self.name = name
    self.body = body
  }

  /// Hands `segment` to the hook.
  func archive(_ segment: Segment) throws { try body(segment) }

  /// Whether two archives have the same ``name``.
  public static func == (lhs: SegmentArchive, rhs: SegmentArchive) -> Bool { lhs.name == rhs.name }
  /// Hashes the archive's ``name``.
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
