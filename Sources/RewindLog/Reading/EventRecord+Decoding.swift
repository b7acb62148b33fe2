import Foundation
import Rewind

extension EventRecord {
  /// Where an app action sits in the tree of an encoded `Event`: `payload` → `action` → its single
  /// unlabeled value.
  static let actionPath: ArraySlice<String> = ["payload", "action", "_0"]

  /// Upcasts the action in `tree` (this record as ``tree(sequence:)`` gives it) from the record's schema
  /// version to `target`. History commands belong to the store, not to the app's action type: they are
  /// never upcast. Returns the type name and schema version the tree has afterwards.
  func upcast(
    _ tree: inout BinaryValue, to target: UInt64, with upcasters: EventUpcasters, at location: EventLocation
  ) throws(FileJournalError) -> (typeName: String, version: UInt64) {
    let typeName = self.typeName
    guard let action = tree.value(at: Self.actionPath) else { return (typeName, schemaVersion) }
    do {
      let upcast = try upcasters.upcast(action, typeName: typeName, from: schemaVersion, to: target)
      _ = tree.replace(at: Self.actionPath, with: upcast.action)
      return (upcast.typeName, target)
    } catch {
      switch error {
      case .noStep(_, let missing):
        throw .noUpcastPath(typeName, from: schemaVersion, to: target, missingStep: missing, at: location)
      case .stepFailed(_, let step, let reason):
        throw .upcastFailed(typeName, schemaVersion: step, at: location, reason: reason)
      }
    }
  }

  /// Decodes the record as `Event<Action>`, upcasting an older schema version through `upcasters`: the
  /// same rules as ``FileJournal``'s reading, for readers that do not open the log.
  func decodeEvent<Action: Codable & Sendable>(
    _ type: Action.Type, at location: RecordLocation, upcasters: EventUpcasters
  ) throws -> Event<Action> {
    let sequence = location.event.sequence
    let target = FileJournal<Action>.readSchemaVersion
    var typeName = self.typeName
    var version = schemaVersion
    let event: Event<Action>
    do {
      // The envelope and payload as the tree of `Event`'s encoding: what upcasters work on.
      var tree = try tree(sequence: sequence)
      if schemaVersion != target {
        (typeName, version) = try upcast(&tree, to: target, with: upcasters, at: location.event)
      }
      switch codec {
      case .binary: event = try BinaryDecoder().decode(Event<Action>.self, from: tree)
      case .json:
        // Back through JSON text, so JSONDecoder's own conventions (dates, data) still apply.
        guard let text = tree.jsonText else { throw BinaryCodecError.trailingBytes(offset: 0) }
        event = try JSONDecoder().decode(Event<Action>.self, from: Data(text.utf8))
      }
    } catch let error as FileJournalError {
      throw error
    } catch {
      throw FileJournalError.undecodableEvent(
        sequence: sequence, typeName: typeName, schemaVersion: version, reason: String(describing: error))
    }
    guard event.sequence == sequence else {
      throw FileJournalError.undecodableEvent(
        sequence: sequence, typeName: typeName, schemaVersion: version,
        reason: "it carries sequence number \(event.sequence)")
    }
    return event
  }
}
