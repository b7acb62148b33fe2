/// Follows a log's hash chain frame by frame, over frames from any source: the segment files that
/// ``LogAudit/verify(directory:key:anchor:progress:)`` reads, or frames rebuilt from events that were
/// shipped elsewhere (a server-side verifier), or a range of a log handed over in a bug report.
///
/// Each frame must start at ``nextSequence``; its chain value must be `SHA-256(chain ‖ frame)` over the
/// chain value before it and the frame's bytes (`HMAC-SHA-256` under the key of a keyed log); and every
/// record in it must decode (``UndecodableRecord``). A frame that passes moves the walk on to the next
/// sequence number and its chain value. One that does not is reported as a ``FrameProblem`` and leaves
/// the walk where it was, so the caller can look further (a verifier that sees the frames after it tells
/// a deletion from a reordering) and decide what to report.
///
/// ```swift
/// var chain = ChainVerifier(logID: logID, key: key)   // or ChainVerifier(after: anchor, key: key)
/// for frame in frames {                                // ChainedFrame, rebuilt from what arrived
///   if let problem = chain.verify(frame) {
///     print("\(problem.kind) at event \(chain.nextSequence): \(problem)")
///     break
///   }
/// }
/// let head = chain.head                                // the anchor of the last verified frame
/// ```
///
/// The chain covers whole frames: the events of one frame (a group commit) are verified together.
public struct ChainVerifier: Sendable {
  /// The key of a keyed log; `nil` for a plain SHA-256 chain.
  public let key: ChainKey?
  /// The sequence number the next frame must start at.
  public private(set) var nextSequence: UInt64
  /// The chain value the next frame must continue: the value after the last verified frame.
  public private(set) var chain: SHA256.Digest
  /// The anchor of the last verified frame (or the one the walk started after); `nil` before any.
  public private(set) var head: LogAnchor?

  /// A walk from the start of the log with id `logID` (its 16 bytes), expecting event 1 first.
  public init(logID: [UInt8], key: ChainKey? = nil) {
    self.init(chain: SegmentHeader.genesisChain(logID: logID), nextSequence: 1, key: key)
  }

  /// A walk that continues after `anchor`: a point verified earlier, or a retention cut (its last event and
  /// the chain value after it).
  public init(after anchor: LogAnchor, key: ChainKey? = nil) {
    // An anchor at the last number there is (read from a crafted file) has no successor: the walk then
    // expects that number again, and the frame-numbering check below refuses any frame that holds it.
    let next = anchor.sequence == .max ? anchor.sequence : anchor.sequence + 1
    self.init(chain: anchor.chain, nextSequence: next, key: key)
    head = anchor
  }

  init(chain: SHA256.Digest, nextSequence: UInt64, key: ChainKey?) {
    self.key = key
    self.chain = chain
    self.nextSequence = nextSequence
  }

  /// Checks `frame` against the chain; on success the walk moves past it.
  /// - Returns: `nil` when the frame continues the chain and its records decode, else the first problem.
  public mutating func verify(_ frame: ChainedFrame) -> FrameProblem? {
    guard !frame.records.isEmpty else { return .malformed("a frame without events") }
    let (bytes, parsed) = frame.encoded
    return verify(parsed, in: bytes)
  }

  /// Checks the frame `frame`, parsed from `bytes` (a segment's read window), like ``verify(_:)``.
  mutating func verify(_ frame: Frame.Parsed, in bytes: [UInt8]) -> FrameProblem? {
    if let problem = problem(with: frame, in: bytes) { return problem }
    let last = frame.firstSequence + UInt64(frame.count) - 1
    (nextSequence, chain, head) = (
      last + 1, frame.storedChain, LogAnchor(sequence: last, chain: frame.storedChain)
    )
    return nil
  }

  private func problem(with frame: Frame.Parsed, in bytes: [UInt8]) -> FrameProblem? {
    // Event numbers start at 1, and the one after a frame's last must be a number too: the numbers come
    // from a file or a network peer, and the walk's arithmetic on them must not overflow.
    guard frame.count > 0, frame.firstSequence >= 1, frame.firstSequence <= UInt64.max - UInt64(frame.count)
    else {
      return .malformed("a frame numbers its events outside 1...\(UInt64.max - 1)")
    }
    if frame.firstSequence < nextSequence {
      return .startsBefore(first: frame.firstSequence, count: frame.count, expected: nextSequence)
    }
    if frame.firstSequence > nextSequence {
      return .startsAfter(first: frame.firstSequence, expected: nextSequence)
    }
    guard links(frame, in: bytes) else { return .chainMismatch(keyed: key != nil) }
    for (position, range) in frame.records.enumerated() {
      if let problem = RecordCheck.problem(in: bytes, range, sequence: frame.firstSequence + UInt64(position))
      {
        return .undecodable(problem)
      }
    }
    return nil
  }

  /// Whether `frame`'s stored chain value is the one computed from ``chain`` and its bytes.
  func links(_ frame: Frame.Parsed, in bytes: [UInt8]) -> Bool {
    Frame.chainValue(previous: chain, hashed: bytes[frame.hashed], key: key) == frame.storedChain
  }
}
