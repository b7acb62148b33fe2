import RewindLog

/// Checks a stream's messages in stream order, as a verifier receives them: each must be the next event
/// of the same log and frames must be whole and in order; each whole frame goes through `RewindLog`'s
/// `ChainVerifier` (its chain value after the previous frame's, HMAC with the key for a keyed log, and
/// every record decoding), the same check `rewind verify` makes of segment files.
///
/// Pure: the verifier feeds it messages; tests feed it forged streams.
struct RemoteChainWalk {
  /// The events of the frame being collected.
  private struct OpenFrame {
    var first: UInt64
    var count: UInt64
    var commitTime: Int64
    var previous: SHA256.Digest
    var startPosition: UInt64
    var records: [[UInt8]] = []
  }

  /// Why a walk cannot go on at all (not a finding about one message).
  enum Refusal: Error, Hashable {
    case keyRequired
    case notKeyed
  }

  let key: ChainKey?
  private(set) var logID: String?
  private(set) var keyed = false
  /// The event the next message must hold.
  private(set) var expected: UInt64?
  /// The log's chain, followed frame by frame once the first frame's start is known.
  private var verifier: ChainVerifier?
  private var open: OpenFrame?
  /// The first event seen, and whether its chain value before it is the log's genesis value.
  private(set) var firstEvent: UInt64?
  private(set) var startsAtGenesis = false
  /// The last stream sequence whose frame is complete and verified.
  private(set) var verifiedThrough: UInt64 = 0
  /// The event at ``verifiedThrough``.
  private(set) var verifiedEvent: UInt64 = 0
  /// The last stream sequence accepted (its frame may still be open).
  private(set) var acceptedThrough: UInt64 = 0

  init(key: ChainKey?) { self.key = key }

  /// Checks the message at `position`. `later` reads the event numbers of up to 64 following messages
  /// (for telling a missing event from a reordered one).
  mutating func accept(
    position: UInt64, headers: NATSHeaders?, payload: [UInt8], later: (UInt64) -> [UInt64]
  ) throws(Refusal) -> RemoteFinding? {
    let event: ReceivedEvent
    do { event = try ReceivedEvent(headers: headers, payload: payload) } catch {
      return RemoteFinding(
        kind: .forged, streamSequence: position, eventSequence: nil, detail: "not a shipped event: \(error)")
    }
    func finding(_ kind: RemoteFinding.Kind, _ detail: String) -> RemoteFinding {
      RemoteFinding(kind: kind, streamSequence: position, eventSequence: event.sequence, detail: detail)
    }
    if logID == nil {
      if event.keyed && key == nil { throw .keyRequired }
      if !event.keyed && key != nil { throw .notKeyed }
      logID = event.logID
      keyed = event.keyed
    }
    guard event.logID == logID else { return finding(.forged, "it belongs to log \(event.logID)") }
    guard event.keyed == keyed else { return finding(.forged, "its chain type differs from the stream's") }
    if let last = event.expectedLastSequence, last != position - 1 {
      return finding(.forged, "it names stream sequence \(last) as its predecessor, not \(position - 1)")
    }
    if let expected, event.sequence != expected {
      if event.sequence < expected {
        return finding(.duplicated, "event \(event.sequence) again where event \(expected) belongs")
      }
      if later(position).contains(expected) {
        return finding(
          .reordered, "event \(event.sequence) where event \(expected) belongs; event \(expected) comes later"
        )
      }
      return finding(
        .missing,
        "events \(expected)...\(event.sequence - 1) are missing: the stream goes on with event \(event.sequence)"
      )
    }
    if var frame = open {
      guard event.frameFirst == frame.first, event.frameCount == frame.count,
        event.commitTime == frame.commitTime
      else {
        return finding(
          .forged,
          "the frame of events \(frame.first)...\(frame.first + frame.count - 1) is cut short by a message of another frame"
        )
      }
      frame.records.append(event.record)
      open = frame
    } else {
      guard event.isFrameStart, let previous = event.previousChain else {
        return finding(.forged, "a frame starts in the middle (its first event is \(event.frameFirst))")
      }
      if let verifier {
        guard previous == verifier.chain else {
          return finding(.forged, "its chain value before the frame does not continue the stream's chain")
        }
      } else {
        firstEvent = event.sequence
        if event.sequence == 1 {
          guard let id = [UInt8](hexDigits: event.logID) else {
            return finding(.forged, "its log id is not hexadecimal")
          }
          startsAtGenesis = previous == ShippedFrame.genesisChain(logID: id)
          guard startsAtGenesis else {
            return finding(.forged, "the first event's chain value before it is not the log's genesis value")
          }
          verifier = ChainVerifier(logID: id, key: key)
        } else {
          // Shipped after a retention cut (or a verification resumed mid-stream): the chain is taken from here.
          verifier = ChainVerifier(after: LogAnchor(sequence: event.sequence - 1, chain: previous), key: key)
        }
      }
      open = OpenFrame(
        first: event.frameFirst, count: event.frameCount, commitTime: event.commitTime, previous: previous,
        startPosition: position, records: [event.record])
    }
    expected = event.sequence + 1
    acceptedThrough = position
    guard let frame = open, UInt64(frame.records.count) == frame.count else { return nil }
    let chained = ChainedFrame(
      firstSequence: frame.first, commitTime: frame.commitTime, records: frame.records,
      chain: event.chain ?? frame.previous)
    guard var chain = verifier else { return nil }
    if let problem = chain.verify(chained) {
      let last = frame.first + UInt64(frame.records.count) - 1
      switch problem {
      case .undecodable(let record):
        let index = record.sequence >= frame.first ? record.sequence - frame.first : 0
        return RemoteFinding(
          kind: .undecodable, streamSequence: frame.startPosition + index, eventSequence: record.sequence,
          detail: "the chain holds but the event's record does not decode: \(record)")
      default:
        let span = frame.count == 1 ? "" : " (stream sequences \(frame.startPosition)...\(position))"
        return RemoteFinding(
          kind: .forged, streamSequence: frame.count == 1 ? position : frame.startPosition,
          eventSequence: frame.first,
          detail:
            "the frame of events \(frame.first)...\(last)\(span): \(problem); an event in it was altered or forged"
        )
      }
    }
    verifier = chain
    open = nil
    verifiedThrough = position
    verifiedEvent = event.sequence
    return nil
  }

  /// The events of a frame still open at the end (the shipper may be in the middle of it).
  var openFrame: (first: UInt64, count: UInt64, received: Int)? {
    open.map { ($0.first, $0.count, $0.records.count) }
  }
}
