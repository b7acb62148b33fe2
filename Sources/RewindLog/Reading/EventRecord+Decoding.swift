import Foundation
import Rewind

extension EventRecord {
  /// Where an app action sits in the tree of an encoded `Event`: `payload` → `action` → its single
  /// unlabeled value.
  static let actionPath: ArraySlice<String> = ["payload", "action", "_0"]

  /// Replaces the action in `tree` when the record's type is retired (``EventUpcasters/retire(_:as:)``).
  /// - Returns: the type name and schema version the tree has afterwards (the app's `version`), or `nil`
  ///   when the type is not retired.
  func replaceRetired(
    _ tree: inout BinaryValue, with upcasters: EventUpcasters, version: UInt64, at location: EventLocation
  ) throws(FileJournalError) -> (typeName: String, version: UInt64)? {
    guard !upcasters.retirements.isEmpty, let action = tree.value(at: Self.actionPath) else { return nil }
    let replaced: BinaryValue?
    do { replaced = try upcasters.replacingRetired(action, typeName: typeName, version: schemaVersion) } catch
    {
      var reason = error.description
      if case .stepFailed(_, _, let why) = error { reason = "retiring it failed: \(why)" }
      throw .upcastFailed(typeName, schemaVersion: schemaVersion, at: location, reason: reason)
    }
    guard let replaced else { return nil }
    _ = tree.replace(at: Self.actionPath, with: replaced)
    // The replacement's case names it from now on (an enum case encodes as a keyed value of one field).
    guard case .keyed(let fields) = replaced, let first = fields.first else { return (typeName, version) }
    return (first.key, version)
  }

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
}
