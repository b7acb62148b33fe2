import Foundation

/// What a log directory holds, read without opening it for writing: for tools.
public struct LogSummary: Sendable, Hashable {
  /// One segment file.
  public struct Segment: Sendable, Hashable {
    /// The file name.
    public var name: String
    /// The first event it holds.
    public var firstSequence: UInt64
    /// The bytes of valid frames (header included).
    public var validBytes: UInt64
  }

  /// The segments in order.
  public var segments: [Segment]
  /// The number of frames (group commits).
  public var frameCount: Int
  /// The newest valid event; 0 for an empty log.
  public var lastSequence: UInt64
  /// The commit time of the first and of the last frame.
  public var commitTimes: ClosedRange<Date>?
  /// The chain value after the last frame, in hexadecimal.
  public var headChain: String?
  /// Damage at the end of the newest segment that opening for writing would cut off.
  public var tornTail: TornTail?
  /// Whether the chain is keyed with HMAC-SHA-256.
  public var isKeyed: Bool
  /// The log id, in hexadecimal.
  public var logID: String?
  /// What retention cut from the start of the log, when it did: the log then starts after it.
  public var cut: LogCut?

  /// The first event the log holds (1, or the first after a cut); events before it cannot be read.
  public var firstSequence: UInt64 { (cut?.throughSequence ?? 0) + 1 }

  /// The total size of the valid segment data in bytes.
  public var validBytes: UInt64 { segments.reduce(0) { $0 + $1.validBytes } }
}
