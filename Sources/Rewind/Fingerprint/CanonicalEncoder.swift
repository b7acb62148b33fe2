/// An `Encoder` that turns a value's encoding into its ``StateFingerprint`` instead of bytes: each
/// container becomes the digest of its contents (``CanonicalValue``), and a nested value the digest of
/// its own encoding, so the fingerprint is a Merkle digest over the value's structure.
///
/// One encoder digests one value. Its containers write into it; nested containers are encoders of their
/// own, registered in their parent and digested when the parent is (``finish()``), since a caller may
/// keep writing into a nested container after writing into its parent.
final class CanonicalEncoder: Encoder {
  /// What a container holds until it is digested.
  enum Entry {
    case value(StateFingerprint)
    case nested(CanonicalEncoder)

    func fingerprint() throws -> StateFingerprint {
      switch self {
      case .value(let fingerprint): fingerprint
      case .nested(let encoder): try encoder.finish()
      }
    }
  }

  /// Which container the value asked for.
  enum Content {
    case none
    case single(StateFingerprint)
    /// Fields by key digest and value digest; a field whose value is a nested encoder has a placeholder
    /// value until the end, when `nested` (its index and encoder) fills it in.
    case keyed(Fields, nested: [(index: Int, encoder: CanonicalEncoder)])
    /// Elements digested so far, then those that are nested encoders (kept in order until the end).
    case unkeyed(DigestLanes, pending: [Entry])
    /// The value asked for two kinds of container: its encoding is not a value.
    case conflicting(String)
  }

  /// A keyed container's fields: plain digests, so that a struct of scalars costs one array and no
  /// reference counting per field.
  typealias Fields = [(key: StateFingerprint, value: StateFingerprint)]

  var content = Content.none
  // Paths are not tracked: a fingerprint never fails on a value's position, and tracking costs an
  // allocation per field.
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  /// The fingerprint of `value`.
  static func fingerprint<Value: Encodable>(of value: Value) throws -> StateFingerprint {
    if let scalar = scalarFingerprint(value) { return scalar }
    if let special = value as? any CanonicalFingerprinting { return try special.canonicalFingerprint() }
    if let listed = value as? any FieldFingerprinting { return try listed.fieldFingerprint() }
    return try encodedFingerprint(of: value)
  }

  /// The fingerprint of `value`, a value of a type for which ``isEncodedDirectly(_:)`` holds: by its
  /// `encode(to:)`, without the cast ``fingerprint(of:)`` makes (about 600 instructions per value).
  static func encodedFingerprint<Value: Encodable>(of value: Value) throws -> StateFingerprint {
    let encoder = CanonicalEncoder()
    try value.encode(to: encoder)
    return try encoder.finish()
  }

  /// Whether every value of type `Value` is digested by its `encode(to:)`: it is not a scalar with a rule
  /// of its own, nor digested by a rule of its own (``CanonicalFingerprinting``) or by its listed fields
  /// (``FieldFingerprinting``), nor an `Optional` (a cast looks inside one, so an optional dictionary is
  /// digested as a dictionary). Decided once per leaf of a persistent collection, instead of by a cast per
  /// element.
  static func isEncodedDirectly<Value>(_ type: Value.Type) -> Bool {
    if Value.self == String.self || Value.self == Int.self || Value.self == Bool.self
      || Value.self == Double.self
    {
      return false
    }
    return !(Value.self is any CanonicalFingerprinting.Type)
      && !(Value.self is any FieldFingerprinting.Type)
      && !(Value.self is any OptionalFingerprinting.Type)
  }

  /// The fingerprint of the common scalar types, recognized by type before anything is allocated (an
  /// array of them encodes each element through the generic path).
  @inline(__always)
  static func scalarFingerprint<Value>(_ value: Value) -> StateFingerprint? {
    if Value.self == String.self, let string = value as? String { return CanonicalValue.string(string) }
    if Value.self == Int.self, let int = value as? Int { return CanonicalValue.integer(Int64(int)) }
    if Value.self == Bool.self, let bool = value as? Bool { return CanonicalValue.bool(bool) }
    if Value.self == Double.self, let double = value as? Double { return CanonicalValue.float(double) }
    return nil
  }

  /// The digest of everything written; nested encoders are digested first.
  /// - Throws: `EncodingError.invalidValue` when the value asked for two kinds of container.
  func finish() throws -> StateFingerprint {
    // Taken out, so that the keyed fields are sorted in place rather than copied.
    let taken = content
    content = .none
    switch consume taken {
    case .none: return CanonicalValue.empty()
    case .single(let fingerprint): return fingerprint
    case .keyed(var fields, let nested):
      for field in nested { fields[field.index].value = try field.encoder.finish() }
      return CanonicalValue.keyed(&fields)
    case .unkeyed(var lanes, let pending):
      for entry in pending { CanonicalValue.append(element: try entry.fingerprint(), to: &lanes) }
      return CanonicalValue.sequence(lanes)
    case .conflicting(let what):
      throw EncodingError.invalidValue(
        what, EncodingError.Context(codingPath: [], debugDescription: "a value's encoding used \(what)"))
    }
  }

  // MARK: Writing

  /// Adds a field to the keyed container.
  func addField(_ key: some CodingKey, _ entry: Entry) {
    guard case .keyed(var fields, var nested) = content else { return }  // a conflict, already remembered
    // Not cached: a lookup by bytes cost more than digesting a field name (a word or two).
    let digest = CanonicalValue.string(key.stringValue)
    content = .none  // keeps `fields` uniquely referenced while it grows
    switch entry {
    case .value(let value): fields.append((digest, value))
    case .nested(let encoder):
      nested.append((fields.count, encoder))
      fields.append((digest, StateFingerprint(high: 0, low: 0)))
    }
    content = .keyed(fields, nested: nested)
  }

  /// Adds an element to the unkeyed container.
  func addElement(_ entry: Entry) {
    guard case .unkeyed(var lanes, var pending) = content else { return }
    content = .none
    switch entry {
    case .value(let fingerprint) where pending.isEmpty:
      CanonicalValue.append(element: fingerprint, to: &lanes)
    default: pending.append(entry)
    }
    content = .unkeyed(lanes, pending: pending)
  }

  /// Sets the single value.
  func setSingle(_ fingerprint: StateFingerprint) {
    switch content {
    case .none, .single: content = .single(fingerprint)
    default: content = .conflicting("a single value and a container")
    }
  }

  /// Makes this encoder's content keyed, unless it is already; a conflicting request is remembered.
  func startKeyed() {
    switch content {
    case .none:
      var fields = Fields()
      fields.reserveCapacity(8)  // growing from empty reallocated twice for three fields
      content = .keyed(fields, nested: [])
    case .keyed: break
    default: content = .conflicting("a keyed container and another container")
    }
  }

  /// Makes this encoder's content unkeyed, unless it is already.
  func startUnkeyed() {
    switch content {
    case .none: content = .unkeyed(DigestLanes(), pending: [])
    case .unkeyed: break
    default: content = .conflicting("an unkeyed container and another container")
    }
  }

  /// A nested encoder registered as field `key`.
  func nestedField(_ key: some CodingKey) -> CanonicalEncoder {
    let child = CanonicalEncoder()
    addField(key, .nested(child))
    return child
  }

  /// A nested encoder registered as the next element.
  func nestedElement() -> CanonicalEncoder {
    let child = CanonicalEncoder()
    addElement(.nested(child))
    return child
  }

  // MARK: Encoder

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    startKeyed()
    return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    startUnkeyed()
    return UnkeyedContainer(encoder: self)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(encoder: self) }
}

/// `Optional`, recognized by type (``CanonicalEncoder/isEncodedDirectly(_:)``).
protocol OptionalFingerprinting {}

extension Optional: OptionalFingerprinting {}

/// A value digested by a rule of its own rather than by its `encode(to:)`: dictionaries and sets (whose
/// encodings follow their hash order, which changes from process to process), and the persistent
/// collections (which digest what changed only).
protocol CanonicalFingerprinting {
  func canonicalFingerprint() throws -> StateFingerprint
}

extension Dictionary: CanonicalFingerprinting where Key: Encodable, Value: Encodable {
  func canonicalFingerprint() throws -> StateFingerprint {
    var entries: [StateFingerprint] = []
    entries.reserveCapacity(count)
    for (key, value) in self {
      entries.append(
        CanonicalValue.pair(
          key: try CanonicalEncoder.fingerprint(of: key), value: try CanonicalEncoder.fingerprint(of: value)))
    }
    return CanonicalValue.unordered(&entries)
  }
}

extension Set: CanonicalFingerprinting where Element: Encodable {
  func canonicalFingerprint() throws -> StateFingerprint {
    var entries: [StateFingerprint] = []
    entries.reserveCapacity(count)
    for element in self { entries.append(try CanonicalEncoder.fingerprint(of: element)) }
    return CanonicalValue.unordered(&entries)
  }
}
