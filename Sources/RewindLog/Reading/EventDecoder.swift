import Foundation
import Rewind

/// The one way a record becomes the app's `Event<Action>`: for the journal's replay and reads, the
/// tool's debugger and ``LogReader``, so the same record gives the same event, or the same error,
/// wherever it is read.
///
/// A record of the app's schema version is decoded directly (through ``BinaryCodable`` when the action
/// type is one); an older one is read as a tree, taken through the registered upcasters, then decoded.
/// Failures are named one way: ``FileJournalError/unknownEventType(_:schemaVersion:at:reason:)`` when
/// the action's case is not one the app knows, the upcasting errors when no chain of upcasters leads to
/// the app's version or a step throws, ``FileJournalError/undecodableEvent(sequence:typeName:schemaVersion:reason:)``
/// for any other payload that does not fit.
@usableFromInline
// @unchecked: `decodeDirect` comes from a `DirectCodec`, whose closures capture only a metatype.
struct EventDecoder<Action: Codable & Sendable>: @unchecked Sendable {
  /// The schema version the app reads (see ``FileJournal/readSchemaVersion``), found once: the conformance
  /// lookup behind it cost 300 instructions per replayed event.
  @usableFromInline let schemaVersion: UInt64
  /// The decoding function of a ``BinaryCodable`` action type, which bypasses `Codable`. Kept as a bare
  /// closure: binding a whole `DirectCodec?` per event went through its value witnesses, about 80
  /// instructions per replayed event.
  @usableFromInline let decodeDirect: ((inout BinaryReader) throws -> Action?)?
  /// The steps that convert events of older schema versions.
  let upcasters: EventUpcasters
  /// Whether any event type is retired; when none is (the common case), no record's type name is read
  /// before decoding.
  @usableFromInline let hasRetirements: Bool

  init(upcasters: EventUpcasters) {
    schemaVersion = Self.readSchemaVersion
    decodeDirect = DirectCodec<Action>.make()?.decode
    self.upcasters = upcasters
    hasRetirements = !upcasters.retirements.isEmpty
  }

  /// `Action.schemaVersion` for a ``VersionedAction``, otherwise 1.
  static var readSchemaVersion: UInt64 { (Action.self as? any VersionedAction.Type)?.schemaVersion ?? 1 }

  /// ``decode(_:at:)`` for the common case: an action of the current schema version, in the binary codec,
  /// of a ``BinaryCodable`` type. Anything else, and any failure, goes the general way, which also names
  /// the error. Inlinable so that replay is specialized for the app's action type.
  @inlinable @inline(__always)
  func decodeCommonCase(_ record: EventRecord, at location: EventLocation) throws -> Event<Action> {
    if record.kind == .action, record.codec == .binary, record.schemaVersion == schemaVersion,
      !hasRetirements, let decodeDirect
    {
      var reader = BinaryReader(record.bytes, record.payloadRange)
      if let action = try? decodeDirect(&reader), reader.isAtEnd {
        return Event(
          sequence: location.sequence, timestamp: record.timestamp, metadata: record.metadata,
          payload: .action(action), draws: record.draws)
      }
    }
    return try decode(record, at: location)
  }

  /// Decodes `record`, the event at `location`, upcasting it first when it is of an older schema version.
  /// - Throws: ``FileJournalError``, named as the type's documentation says.
  @usableFromInline
  func decode(_ record: EventRecord, at location: EventLocation) throws -> Event<Action> {
    if hasRetirements, record.kind == .action, upcasters.retirements[record.typeName] != nil {
      return try decodeUpcasting(record, at: location)
    }
    if record.kind == .action, record.schemaVersion != schemaVersion {
      return try decodeUpcasting(record, at: location)
    }
    let payload: EventPayload<Action>
    do {
      switch (record.kind, record.codec) {
      case (.action, .binary):
        if let decodeDirect {
          var reader = BinaryReader(record.bytes, record.payloadRange)
          // The codec was made for `Action`, so its cast back cannot fail; name it should it ever.
          guard let action = try decodeDirect(&reader) else {
            throw BinaryCodecError.mismatch(
              expected: "\(Action.self)", found: "another BinaryCodable type", offset: 0)
          }
          guard reader.isAtEnd else {
            throw BinaryCodecError.trailingBytes(offset: reader.offset - record.payloadRange.lowerBound)
          }
          payload = .action(action)
        } else {
          payload = .action(try StreamDecoding.decode(Action.self, from: record.bytes, record.payloadRange))
        }
      case (.command, .binary):
        payload = .command(
          try StreamDecoding.decode(HistoryCommand.self, from: record.bytes, record.payloadRange))
      case (.action, .json):
        payload = .action(try JSONDecoder().decode(Action.self, from: Data(record.payload)))
      case (.command, .json):
        payload = .command(try JSONDecoder().decode(HistoryCommand.self, from: Data(record.payload)))
      }
    } catch {
      // The payload is the action itself: its coding paths start at the action.
      throw Self.failure(
        error, typeName: record.typeName, version: record.schemaVersion, at: location,
        actionPath: record.kind == .action ? [] : ["-"])
    }
    return Event(
      sequence: location.sequence, timestamp: record.timestamp, metadata: record.metadata, payload: payload,
      draws: record.draws)
  }

  /// Decodes an event of another schema version, or of a retired type: as a tree, upcast (or replaced),
  /// then as `Event<Action>`.
  private func decodeUpcasting(_ record: EventRecord, at location: EventLocation) throws -> Event<Action> {
    var tree: BinaryValue
    do {
      tree = try record.tree(sequence: location.sequence)
    } catch {
      throw FileJournalError.undecodableEvent(
        sequence: location.sequence, typeName: record.typeName, schemaVersion: record.schemaVersion,
        reason: String(describing: error))
    }
    let (typeName, version) =
      try record.replaceRetired(&tree, with: upcasters, version: schemaVersion, at: location)
      ?? record.upcast(&tree, to: schemaVersion, with: upcasters, at: location)
    do {
      switch record.codec {
      case .binary: return try BinaryDecoder().decode(Event<Action>.self, from: tree)
      case .json:
        // Back through JSON text, so JSONDecoder's own conventions (dates, data) still apply.
        guard let text = tree.jsonText else {
          throw FileJournalError.undecodableEvent(
            sequence: location.sequence, typeName: typeName, schemaVersion: version,
            reason: "the upcast event has no JSON form")
        }
        return try JSONDecoder().decode(Event<Action>.self, from: Data(text.utf8))
      }
    } catch let error as FileJournalError {
      throw error
    } catch {
      throw Self.failure(error, typeName: typeName, version: version, at: location)
    }
  }

  /// An unknown enum case shows as a type mismatch at the action itself; anything else is a payload that
  /// does not fit. Foundation's wording of a decoding error is replaced with what it means for a log.
  private static func failure(
    _ error: any Error, typeName: String, version: UInt64, at location: EventLocation,
    actionPath: [String] = Array(EventRecord.actionPath)
  ) -> FileJournalError {
    let noCase = "\(Action.self) has no case \"\(typeName)\""
    if case .unknownCase? = error as? BinaryCodecError, actionPath.isEmpty {
      return .unknownEventType(typeName, schemaVersion: version, at: location, reason: noCase)
    }
    if let decoding = error as? DecodingError {
      let context: DecodingError.Context?
      switch decoding {
      case .typeMismatch(_, let found), .dataCorrupted(let found): context = found
      default: context = nil
      }
      if let context, context.codingPath.map(\.stringValue) == actionPath {
        return .unknownEventType(typeName, schemaVersion: version, at: location, reason: noCase)
      }
      return .undecodableEvent(
        sequence: location.sequence, typeName: typeName, schemaVersion: version,
        reason: DecodingFailure.describe(decoding, below: actionPath))
    }
    return .undecodableEvent(
      sequence: location.sequence, typeName: typeName, schemaVersion: version,
      reason: String(describing: error))
  }
}
