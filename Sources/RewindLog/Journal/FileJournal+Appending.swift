import Foundation
import Rewind
import Synchronization

// Appending: encoding an event into a record and handing it to the committer.
extension FileJournal {
  /// Encodes `event` and hands it to the committer; with ``Durability/immediate``, returns after its sync.
  ///
  /// - Throws: `JournalError.sequenceGap` for a misnumbered event, ``FileJournalError/durabilityLost(_:)``
  ///   once a write or sync failed, ``FileJournalError/closed`` after ``close()``;
  ///   ``FileJournalError/eventTooLarge(sequence:bytes:)`` or
  ///   ``FileJournalError/unencodableEvent(sequence:reason:)`` for an event that cannot be written:
  ///   waiting for the durability of it, or of any later sequence number, then throws the same error
  ///   (unless another event is appended with its number).
  public func append(_ event: Event<Action>) throws {
    let record: [UInt8]
    do {
      record = try encodeRecord(event)
    } catch {
      committer.refuse(event.sequence, because: error)
      throw error
    }
    let handler = try committer.append(
      record, sequence: event.sequence, snapshotInterval: options.snapshotInterval)
    if options.durability == .immediate { try committer.wait(for: .durable, through: event.sequence) }
    handler?(event.sequence)
  }

  /// The event as a length-prefixed record: the envelope written field by field, the action (or command)
  /// through the codec.
  func encodeRecord(_ event: Event<Action>) throws(FileJournalError) -> [UInt8] {
    var writer = ByteWriter(capacity: 96)
    do {
      switch event.payload {
      case .action(let action):
        let versioned = isVersioned ? action as? any VersionedAction : nil
        let version = versioned.map { type(of: $0).schemaVersion } ?? 1
        try EventRecord.append(
          codec: options.codec, schemaVersion: version, sequence: event.sequence, timestamp: event.timestamp,
          metadata: event.metadata, kind: .action, draws: event.draws, to: &writer,
          payload: { writer in
            switch options.codec {
            case .binary: return try appendBinary(action, to: &writer)
            case .json:
              writer.append(try JSONEncoder().encode(action))
              return nil
            }
          },
          typeName: { firstKey in
            if let versioned { return versioned.eventTypeName }
            if let firstKey, actionIsEnum(action) { return firstKey }
            return reflectedTypeName(of: action)
          })
      case .command(let command):
        try EventRecord.append(
          codec: options.codec, schemaVersion: 1, sequence: event.sequence, timestamp: event.timestamp,
          metadata: event.metadata, kind: .command, to: &writer,
          payload: { writer in
            switch options.codec {
            case .binary: try StreamEncoding.append(command, to: &writer)
            case .json: writer.append(try JSONEncoder().encode(command))
            }
            return nil
          },
          typeName: { _ in "rewind." + reflectedTypeName(of: command) })
      }
    } catch {
      throw .unencodableEvent(sequence: event.sequence, reason: String(describing: error))
    }
    guard writer.bytes.count <= Frame.maximumBodySize - Frame.minimumBodySize else {
      throw .eventTooLarge(sequence: event.sequence, bytes: writer.bytes.count)
    }
    return writer.bytes
  }

  /// Appends the binary encoding of `action`, directly when its type is ``BinaryCodable``; returns the
  /// first field name of a keyed encoding (an enum's case name).
  func appendBinary(_ action: Action, to writer: inout ByteWriter) throws -> String? {
    let start = writer.bytes.count
    if let direct {
      var binary = BinaryWriter(buffer: ByteWriter(capacity: 0))
      swap(&binary.buffer, &writer)
      let written = direct.encode(action, &binary)
      swap(&binary.buffer, &writer)
      if written {
        return writer.bytes.count > start && writer.bytes[start] == BinaryValue.Tag.keyed.rawValue
          ? binary.firstKey : nil
      }
    }
    return try StreamEncoding.append(action, to: &writer)
  }

  /// Suspends until every event through `sequence` is synced (with ``Durability/none``, this syncs).
  /// - Throws: ``FileJournalError/durabilityLost(_:)`` when a write or sync failed first;
  ///   ``FileJournalError/closed`` when the journal closed first; the error that refused an event through
  ///   `sequence`, or ``FileJournalError/notAppended(sequence:lastAppended:)`` when `sequence` was never
  ///   appended: nothing is reported durable that the journal does not hold.
  public func waitForDurability(through sequence: UInt64) async throws {
    try await committer.waitAsync(for: .durable, through: sequence)
  }

  /// Blocks until every event appended so far is synced.
  /// - Throws: ``FileJournalError/durabilityLost(_:)`` when a write or sync failed first.
  public func flush() throws {
    try committer.wait(for: .durable, through: lastSequence)
  }

  /// Calls `handler` (on the appending thread, outside any journal lock) with the sequence number of every
  /// `options.snapshotInterval`-th event. `Store.open` uses it to schedule snapshots.
  public func onSnapshotDue(_ handler: @escaping @Sendable (UInt64) -> Void) {
    committer.setSnapshotHandler(handler)
  }

  func actionIsEnum(_ action: Action) -> Bool {
    switch isEnum.load(ordering: .relaxed) {
    case 1: return false
    case 2: return true
    default:
      let found = Mirror(reflecting: action).displayStyle == .enum
      isEnum.store(found ? 2 : 1, ordering: .relaxed)
      return found
    }
  }
}
