import Foundation
import Rewind

extension EventRecord {
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
        let actionPath: ArraySlice<String> = ["payload", "action", "_0"]
        // History commands belong to the store, not to the app's action type: they are never upcast.
        if let action = tree.value(at: actionPath) {
          let upcast: (typeName: String, action: BinaryValue)
          do { upcast = try upcasters.upcast(action, typeName: typeName, from: schemaVersion, to: target) } catch {
            switch error {
            case .noStep(_, let missing):
              throw FileJournalError.noUpcastPath(
                typeName, from: schemaVersion, to: target, missingStep: missing, at: location.event)
            case .stepFailed(_, let step, let reason):
              throw FileJournalError.upcastFailed(typeName, schemaVersion: step, at: location.event, reason: reason)
            }
          }
          _ = tree.replace(at: actionPath, with: upcast.action)
          (typeName, version) = (upcast.typeName, target)
        }
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
        sequence: sequence, typeName: typeName, schemaVersion: version, reason: "it carries sequence number \(event.sequence)")
    }
    return event
  }
}
