/// Converts events written with older schema versions of an action type to the version the app reads
/// now, as a chain of one-version steps (v1 → v2 → v3), when events are read. The log itself is never
/// rewritten.
///
/// The version the app reads is its action type's ``VersionedAction/schemaVersion`` (1 for an action that
/// does not conform). Each event records its type name and the version it was written with; an event of
/// an older version goes through the step registered for (its type name, its version), then the step for
/// the next version, and so on. A missing step is an error naming the type, the version and where the
/// event is (``FileJournalError/noUpcastPath(_:from:to:missingStep:at:)``), never a silent guess.
///
/// A step receives the action as a tree (``BinaryValue``), exactly as its `Codable` conformance encoded
/// it: for an enum case, a keyed value with one field named after the case.
///
/// ```swift
/// var upcasters = EventUpcasters()
/// // v1: add(String)  →  v2: add(text: String, pinned: Bool)
/// upcasters.register("add", from: 1) { action in
///   .keyed([.init(key: "add", value: .keyed([
///     .init(key: "text", value: action[path: "add", "_0"] ?? .string("")),
///     .init(key: "pinned", value: .bool(false)),
///   ]))])
/// }
/// upcasters.registerUnchanged(["clear"], from: 1)
/// let store = try Store.open(directory: path, initialState: .init(), reducer: Notes(), upcasters: upcasters)
/// ```
public struct EventUpcasters: Sendable {
  /// One step: the action's tree at one version in, the tree at the next version out.
  public typealias Transform = @Sendable (BinaryValue) throws -> BinaryValue

  struct Key: Hashable {
    var typeName: String
    var version: UInt64
  }

  struct Step {
    var transform: Transform?
    var renamedTo: String?
  }

  private var steps: [Key: Step] = [:]
  /// Retired event types and what each is read as now (see ``retire(_:as:)``).
  var retirements: [String: Transform] = [:]

  /// No upcasters: every event must already be at the version the app reads.
  public init() {}

  /// Whether no step is registered and no type retired.
  public var isEmpty: Bool { steps.isEmpty && retirements.isEmpty }

  /// Registers the step that takes events of type `typeName` from schema `version` to `version + 1`.
  /// Registering the same type and version again replaces the step.
  ///
  /// - Parameters:
  ///   - typeName: The event type as recorded (the enum case's name, or ``VersionedAction/eventTypeName``).
  ///   - version: The version the step starts from.
  ///   - newName: The event's type name from `version + 1` on, when the step renames it; the next step is
  ///     looked up under this name.
  ///   - transform: Maps the action's tree; throwing fails the read with
  ///     ``FileJournalError/upcastFailed(_:schemaVersion:at:reason:)``.
  public mutating func register(
    _ typeName: String, from version: UInt64, renamedTo newName: String? = nil,
    _ transform: @escaping Transform
  ) {
    steps[Key(typeName: typeName, version: version)] = Step(transform: transform, renamedTo: newName)
  }

  /// Declares that events of these types did not change from schema `version` to `version + 1`.
  public mutating func registerUnchanged(_ typeNames: [String], from version: UInt64) {
    for name in typeNames {
      steps[Key(typeName: name, version: version)] = Step(transform: nil, renamedTo: nil)
    }
  }

  /// Why ``upcast(_:typeName:from:to:)`` failed.
  public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
    /// No step is registered for `typeName` from `version` (or `version` is newer than the target).
    case noStep(typeName: String, version: UInt64)
    /// The step for `typeName` from `version` threw.
    case stepFailed(typeName: String, version: UInt64, reason: String)

    public var description: String {
      switch self {
      case .noStep(let name, let version): "no upcaster for \"\(name)\" from schema version \(version)"
      case .stepFailed(let name, let version, let reason):
        "the upcaster for \"\(name)\" from schema version \(version) failed: \(reason)"
      }
    }
  }

  /// Runs the chain of steps that takes `action`, of type `typeName` at schema `version`, to `target`.
  /// - Returns: The type name and the tree at `target`.
  /// - Throws: ``Failure``.
  public func upcast(
    _ action: BinaryValue, typeName: String, from version: UInt64, to target: UInt64
  ) throws(Failure) -> (typeName: String, action: BinaryValue) {
    guard version <= target else { throw .noStep(typeName: typeName, version: version) }
    var name = typeName
    var tree = action
    for step in version..<target {
      guard let registered = steps[Key(typeName: name, version: step)] else {
        throw .noStep(typeName: name, version: step)
      }
      if let transform = registered.transform {
        do { tree = try transform(tree) } catch {
          throw .stepFailed(typeName: name, version: step, reason: String(describing: error))
        }
      }
      if let renamed = registered.renamedTo { name = renamed }
    }
    return (name, tree)
  }
}

extension BinaryValue {
  /// The value at a path of field names in nested keyed values; `nil` when a field is missing.
  ///
  /// `action[path: "add", "_0"]` reads the first unlabeled value of case `add`.
  public subscript(path keys: String...) -> BinaryValue? { value(at: keys[...]) }

  /// The value of the first field named `key`, when this is a keyed value.
  public subscript(key: String) -> BinaryValue? {
    guard case .keyed(let fields) = self else { return nil }
    return fields.first { $0.key == key }?.value
  }

  func value(at keys: ArraySlice<String>) -> BinaryValue? {
    guard let first = keys.first else { return self }
    return self[first]?.value(at: keys.dropFirst())
  }

  /// Replaces the value at a path of field names; false when a field on the path is missing.
  mutating func replace(at keys: ArraySlice<String>, with value: BinaryValue) -> Bool {
    guard let first = keys.first else {
      self = value
      return true
    }
    guard case .keyed(var fields) = self, let index = fields.firstIndex(where: { $0.key == first }) else {
      return false
    }
    guard fields[index].value.replace(at: keys.dropFirst(), with: value) else { return false }
    self = .keyed(fields)
    return true
  }
}
