/// How far a verification or an export has come, for a progress bar.
public struct AuditProgress: Sendable, Hashable {
  /// The bytes of segment files processed so far.
  public var bytesDone: UInt64
  /// The total size of the segment files when the work started.
  public var bytesTotal: UInt64
  /// The frames processed so far.
  public var framesDone: Int

  /// `bytesDone / bytesTotal`, between 0 and 1 (1 for an empty log).
  public var fraction: Double {
    bytesTotal == 0 ? 1 : min(1, Double(bytesDone) / Double(bytesTotal))
  }
}
