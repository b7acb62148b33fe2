/// One frame of a log as its chain value covers it, rebuilt from its fields wherever it came from: for
/// ``ChainVerifier``, e.g. from events shipped one message each that carry their record bytes and their
/// frame's first sequence number, commit time and chain value.
///
/// The chain value covers the frame as Rewind writes it: the body length, the frame type (events), zero
/// flag and reserved bytes, the event count, the first sequence number, the commit time and the records,
/// each with its varint length. A frame is rebuilt from these fields exactly, so its chain value checks
/// as it did in the segment file.
public struct ChainedFrame: Sendable, Hashable {
  /// The sequence number of the frame's first event.
  public var firstSequence: UInt64
  /// When the frame was committed: nanoseconds since 1970, as the frame stores it.
  public var commitTime: Int64
  /// The frame's event records in order, each without its length prefix.
  public var records: [[UInt8]]
  /// The chain value the frame stores: the value after it.
  public var chain: SHA256.Digest

  /// Creates a frame from its fields.
  public init(firstSequence: UInt64, commitTime: Int64, records: [[UInt8]], chain: SHA256.Digest) {
    self.firstSequence = firstSequence
    self.commitTime = commitTime
    self.records = records
    self.chain = chain
  }

  /// The bytes the chain value covers and the frame as parsed from them (its ranges point into them).
  var encoded: (bytes: [UInt8], frame: Frame.Parsed) {
    var prefixed = ByteWriter(capacity: records.reduce(0) { $0 + $1.count + 2 })
    var ranges: [Range<Int>] = []
    ranges.reserveCapacity(records.count)
    for record in records {
      prefixed.varint(UInt64(record.count))
      ranges.append(prefixed.bytes.count..<(prefixed.bytes.count + record.count))
      prefixed.append(record)
    }
    var writer = ByteWriter(capacity: Frame.fixedBodySize + prefixed.bytes.count + 4)
    Frame.appendHashed(
      records: prefixed.bytes, count: UInt32(truncatingIfNeeded: records.count), firstSequence: firstSequence,
      commitTime: commitTime, to: &writer)
    // The records follow the length field and the fixed fields; a frame adds its checksum before them
    // and the chain value after.
    let start = writer.bytes.count - prefixed.bytes.count
    let frame = Frame.Parsed(
      offset: 0, totalSize: 4 + writer.bytes.count + Frame.chainSize,
      count: UInt32(truncatingIfNeeded: records.count),
      firstSequence: firstSequence, commitTime: commitTime,
      records: ranges.map { ($0.lowerBound + start)..<($0.upperBound + start) }, storedChain: chain,
      hashed: 0..<writer.bytes.count)
    return (writer.bytes, frame)
  }
}
