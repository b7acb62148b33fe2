import Foundation

/// What retention removed from the start of a log, as its cut record (`cut.anchor`) says.
///
/// Events 1 through ``throughSequence`` are gone; the log starts at `throughSequence + 1` and its chain
/// continues from ``chain``. The counts are cumulative over every cut of the log.
public struct LogCut: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The last event removed.
  public var throughSequence: UInt64
  /// The chain value after event ``throughSequence``, in hexadecimal: what the kept part continues.
  public var chain: String
  /// When the newest cut was made (wall time).
  public var date: Date
  /// How many events were removed in all.
  public var eventsCut: UInt64
  /// How many segment bytes were removed in all.
  public var bytesCut: UInt64
  /// How many segment files were removed in all.
  public var segmentsCut: UInt64
  /// Whether the cut record is authenticated with the log's chain key (HMAC-SHA-256).
  public var isKeyed: Bool

  /// The first event the log still holds.
  public var firstKeptSequence: UInt64 { throughSequence + 1 }

  public var description: String {
    "events 1...\(throughSequence) cut (\(segmentsCut) segments, \(bytesCut) bytes), newest cut at \(date)"
  }
}
