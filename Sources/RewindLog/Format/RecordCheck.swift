/// The one check that an event record decodes, wherever its bytes come from: a segment file (recovery's
/// repair, verification, the readers), a stream of shipped events (`ChainVerifier`) or a replay that must
/// tell a record that does not decode from an app type that no longer fits it.
///
/// A record decodes when its envelope parses (``EventRecord``), a binary payload decodes as a tree, and a
/// record that names its type by the payload's case holds a keyed payload to take the name from. It does
/// not check the payload against any app type: that is the job of `EventDecoder`.
package enum RecordCheck {
  /// The problem with record `record` of event `sequence` (its bytes without the length prefix), or `nil`
  /// when it decodes.
  package static func problem(record: [UInt8], sequence: UInt64) -> UndecodableRecord? {
    problem(in: record, record.indices, sequence: sequence)
  }

  /// The problem with the record in `range` of `bytes`, or `nil` when it decodes.
  static func problem(in bytes: [UInt8], _ range: Range<Int>, sequence: UInt64) -> UndecodableRecord? {
    do {
      let record = try parse(bytes, range, sequence: sequence)
      if record.codec == .binary { _ = try BinaryValue.decode(Array(record.payload)) }
      if record.typeNameIsCase, EventRecord.firstKey(in: record.bytes, record.payloadRange) == nil {
        throw BinaryCodecError.mismatch(
          expected: "a keyed payload naming the event type", found: "none", offset: 0)
      }
      return nil
    } catch let problem as UndecodableRecord {
      return problem
    } catch {
      return UndecodableRecord(sequence: sequence, reason: "\(error)")
    }
  }

  /// Parses the envelope of the record in `range` of `bytes` (what every reader does before decoding the
  /// payload), failing with the one problem text.
  static func parse(_ bytes: [UInt8], _ range: Range<Int>, sequence: UInt64) throws(UndecodableRecord)
    -> EventRecord
  {
    do { return try EventRecord.parse(bytes, range, sequence: sequence) } catch {
      throw UndecodableRecord(sequence: sequence, reason: "\(error)")
    }
  }

  /// Parses the record like ``parse(_:_:sequence:)``, for a reader of a log directory: a record that does
  /// not parse is ``FileJournalError/corrupted(segment:offset:lastGoodSequence:reason:)`` at its frame.
  static func read(
    _ bytes: [UInt8], _ range: Range<Int>, sequence: UInt64, segment: String, frameOffset: UInt64
  ) throws(FileJournalError) -> EventRecord {
    do { return try parse(bytes, range, sequence: sequence) } catch {
      throw .corrupted(
        segment: segment, offset: frameOffset, lastGoodSequence: sequence - 1, reason: error.description)
    }
  }
}
