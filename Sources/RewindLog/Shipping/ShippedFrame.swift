import Foundation

/// A frame as a shipper sends it and a verifier receives it: its fixed fields, its event records and
/// the chain values around it. The chain covers the frame's bytes from its length field to the end of
/// its records, and those bytes are rebuilt here from the fields: so whoever holds the records and the
/// fields (a stream, an archive) can recompute the chain without the segment file.
package struct ShippedFrame: Sendable, Hashable {
  /// The sequence number of the frame's first event.
  package var firstSequence: UInt64
  /// The commit time, nanoseconds since 1970.
  package var commitTime: Int64
  /// Each event record's bytes (without their length prefixes), in order.
  package var records: [[UInt8]]
  /// The chain value before the frame.
  package var previousChain: SHA256.Digest
  /// The chain value the frame stores.
  package var chain: SHA256.Digest
  /// Each record's envelope, when the reader already parsed them (empty otherwise).
  package var summaries: [RecordSummary] = []

  /// Creates a frame.
  package init(
    firstSequence: UInt64, commitTime: Int64, records: [[UInt8]], previousChain: SHA256.Digest,
    chain: SHA256.Digest
  ) {
    self.firstSequence = firstSequence
    self.commitTime = commitTime
    self.records = records
    self.previousChain = previousChain
    self.chain = chain
  }

  /// The sequence number of the frame's last event.
  package var lastSequence: UInt64 { firstSequence + UInt64(records.count) - 1 }

  /// The bytes the chain value covers, rebuilt from the fields the way ``ChainedFrame`` lays them out
  /// (the body length, the fixed fields with zero flags, each record after its varint length).
  package static func hashedBytes(firstSequence: UInt64, commitTime: Int64, records: [[UInt8]]) -> [UInt8] {
    ChainedFrame(
      firstSequence: firstSequence, commitTime: commitTime, records: records,
      chain: SHA256.Digest(bytes: [UInt8](repeating: 0, count: 32))
    ).encoded.bytes
  }

  /// The frame as ``ChainVerifier`` checks it.
  package var chained: ChainedFrame {
    ChainedFrame(firstSequence: firstSequence, commitTime: commitTime, records: records, chain: chain)
  }

  /// The chain value a log with id `logID` starts from.
  package static func genesisChain(logID: [UInt8]) -> SHA256.Digest {
    SegmentHeader.genesisChain(logID: logID)
  }

  /// What a shipper says about one event record without decoding its payload.
  package struct RecordSummary: Sendable, Hashable {
    /// The recorded type name (escaped for display: no control characters).
    package var typeName: String
    /// The event's timestamp in seconds since 2001-01-01.
    package var timestamp: Double
    /// The schema version it was written with.
    package var schemaVersion: UInt64
  }

  /// Reads the envelope of a record (the event numbered `sequence`).
  /// - Throws: ``BinaryCodecError`` when the record does not parse.
  package static func summary(ofRecord bytes: [UInt8], sequence: UInt64) throws(BinaryCodecError)
    -> RecordSummary
  {
    let record = try EventRecord.parse(bytes, 0..<bytes.count, sequence: sequence)
    return RecordSummary(
      typeName: LogText.escaped(record.typeName), timestamp: record.timestamp.timeIntervalSinceReferenceDate,
      schemaVersion: record.schemaVersion)
  }

  /// The key check value a keyed log's segment headers store for `logID`.
  package static func keyCheck(_ key: ChainKey, logID: [UInt8]) -> SHA256.Digest {
    key.checkValue(logID: logID)
  }
}

extension SHA256.Digest {
  /// Parses 64 hexadecimal digits.
  package init?(hexadecimal text: some StringProtocol) {
    guard text.utf8.count == 64, let bytes = [UInt8](hexadecimal: String(text)) else { return nil }
    self.init(bytes: bytes)
  }
}

extension [UInt8] {
  /// Lowercase hexadecimal, for log ids in subjects and headers.
  package var lowercaseHex: String { hexadecimal }

  /// Parses hexadecimal digits; `nil` for anything else.
  package init?(hexDigits text: String) { self.init(hexadecimal: text) }
}
