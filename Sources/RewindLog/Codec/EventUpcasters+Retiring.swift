/// Retiring an action case: the app no longer has it, and events that recorded it are read as something
/// the app has now. The log keeps them as written, so their sequence numbers, metadata, undo steps and
/// the hash chain stay as they were.
extension EventUpcasters {
  /// Retires event type `typeName` (an action case the app removed): every event recorded with it, at any
  /// schema version, is read as the action `replacement` returns, which must be one of the app's current
  /// version.
  ///
  /// `replacement` receives the action as recorded (a tree like `{"rename": {"id": 3, "title": "…"}}`) and
  /// returns the tree of the action to read instead: the case that now does the same thing
  /// (`{"setTitle": …}`), so that replay rebuilds the same state; or a tombstone case the reducer ignores
  /// (see ``retire(_:toTombstone:)``) when the retired case's effect on state no longer matters (its state
  /// is gone too). Retirement is applied before any upcasting step, so no step is needed for the type.
  ///
  /// Don't give a new case a retired name: the events of the old one would be read as it. Reading such an
  /// event fails with ``FileJournalError/upcastFailed(_:schemaVersion:at:reason:)`` when `replacement`
  /// throws, and with the decoding errors when its tree is not an action of the app's type.
  public mutating func retire(_ typeName: String, as replacement: @escaping Transform) {
    retirements[typeName] = replacement
  }

  /// Retires the event types `typeNames` into `tombstone`, a case without associated values (`case
  /// retired`) that the reducer ignores: every event recorded with one of them is read as that case.
  ///
  /// ```swift
  /// enum Action: Codable, Sendable {
  ///   case add(String), toggle(id: Int)
  ///   case retired  // events of removed cases; the reducer returns .none
  /// }
  /// var upcasters = EventUpcasters()
  /// upcasters.retire(["rename", "archive"], toTombstone: "retired")
  /// ```
  public mutating func retire(_ typeNames: [String], toTombstone tombstone: String) {
    let value = BinaryValue.keyed([.init(key: tombstone, value: .keyed([]))])
    for name in typeNames { retirements[name] = { _ in value } }
  }

  /// The event types ``retire(_:as:)`` and ``retire(_:toTombstone:)`` retired.
  public var retiredTypeNames: Set<String> { Set(retirements.keys) }

  /// Reads `action`, recorded as retired type `typeName`, as its replacement.
  /// - Returns: `nil` when `typeName` is not retired.
  /// - Throws: ``Failure/stepFailed(typeName:version:reason:)`` when the replacement throws.
  public func replacingRetired(_ action: BinaryValue, typeName: String, version: UInt64) throws(Failure)
    -> BinaryValue?
  {
    guard let replacement = retirements[typeName] else { return nil }
    do { return try replacement(action) } catch {
      throw .stepFailed(typeName: typeName, version: version, reason: String(describing: error))
    }
  }
}
