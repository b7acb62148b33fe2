/// A type whose fingerprint is computed from its fields directly, without going through `Encoder`: the
/// same ``StateFingerprint`` as its `encode(to:)` gives, at a fraction of the cost.
///
/// A fingerprint after an edit digests the rows that changed (``StateFingerprint/of(_:)``), and through
/// `Encoder` a row of a few fields costs about 6,000 instructions: twice a whole send at 100,000 rows. A
/// row type that lists its fields here costs about a third of that. Conform the types a store holds many of
/// (the rows of an `IdentifiedArray`); the rest of a state is digested once per fingerprint and gains
/// little.
///
/// List every field `encode(to:)` writes, under the same key and with the same value: for a synthesized
/// `Codable`, each stored property under its name, and an optional with ``FingerprintFields/addIfPresent(_:_:)``
/// (a synthesized encoding leaves a `nil` out). The order does not matter: a keyed container is digested
/// in the order of its keys' digests.
///
/// ```swift
/// struct Row: Codable, Identifiable, FieldFingerprinting {
///   var id: Int
///   var title: String
///   var note: String?
///
///   private static let keys = (id: FingerprintKey("id"), title: FingerprintKey("title"),
///                              note: FingerprintKey("note"))
///
///   func addFingerprintFields(to fields: inout FingerprintFields) throws {
///     fields.add(Self.keys.id, id)
///     fields.add(Self.keys.title, title)
///     try fields.addIfPresent(Self.keys.note, note)
///   }
/// }
/// ```
///
/// A listing that disagrees with `encode(to:)` gives a different fingerprint than the encoding would, and a
/// log recorded by a build with one and replayed by a build with the other reports a divergence at its
/// first fingerprint. ``StateFingerprint/fieldsMatchEncoding(of:)`` compares the two: call it in a test.
public protocol FieldFingerprinting: Encodable {
  /// Adds each field that `encode(to:)` writes, under the same key and with the same value.
  /// - Throws: what digesting a field's value throws (its own `encode(to:)`'s errors).
  func addFingerprintFields(to fields: inout FingerprintFields) throws
}

/// The name of a field, digested once: keep it in a `static let`, so that a row's digest does not digest
/// its field names again.
public struct FingerprintKey: Sendable, Hashable {
  /// The digest of the name, as a keyed container digests a key.
  let digest: StateFingerprint

  /// The key named `name`: the `stringValue` of the field's `CodingKey`.
  public init(_ name: String) {
    digest = CanonicalValue.string(name)
  }
}

/// The fields of a value being fingerprinted (``FieldFingerprinting``): each field's key and the digest of
/// its value, digested together as a keyed container when the value's fields are all added.
///
/// The first 32 fields are kept in a buffer on the stack: a row's digest allocates nothing.
@safe
public struct FingerprintFields: ~Copyable {
  typealias Field = CanonicalValue.KeyedField

  /// The stack buffer, `capacity` fields long; its first `count` are added.
  private let buffer: UnsafeMutablePointer<Field>
  private var count = 0
  /// All the fields, once there are more than the buffer holds.
  private var overflow: [Field] = []

  /// How many fields the stack buffer holds.
  static var capacity: Int { 32 }

  private init(buffer: UnsafeMutablePointer<Field>) {
    unsafe self.buffer = buffer
  }

  /// Runs `body` with an empty set of fields, then digests them.
  static func digest(_ body: (inout FingerprintFields) throws -> Void) rethrows -> StateFingerprint {
    try unsafe withUnsafeTemporaryAllocation(of: Field.self, capacity: capacity) { buffer in
      guard let base = buffer.baseAddress else { return unsafe CanonicalValue.keyed(sortingInPlace: buffer) }
      var fields = unsafe FingerprintFields(buffer: base)
      try body(&fields)
      return fields.finish()
    }
  }

  private mutating func append(_ key: FingerprintKey, _ value: StateFingerprint) {
    if count < Self.capacity {
      unsafe (buffer + count).initialize(to: (key.digest, value))
      count &+= 1
    } else {
      if overflow.isEmpty { overflow = unsafe Array(UnsafeBufferPointer(start: buffer, count: count)) }
      overflow.append((key.digest, value))
    }
  }

  /// Adds the field `key` with a value of type `String`, digested as `encode(_:forKey:)` digests it.
  public mutating func add(_ key: FingerprintKey, _ value: String) {
    append(key, CanonicalValue.string(value))
  }

  /// Adds the field `key` with a value of type `Bool`, digested as `encode(_:forKey:)` digests it.
  public mutating func add(_ key: FingerprintKey, _ value: Bool) { append(key, CanonicalValue.bool(value)) }

  /// Adds the field `key` with a value of type `Int`, digested as `encode(_:forKey:)` digests it.
  public mutating func add(_ key: FingerprintKey, _ value: Int) {
    append(key, CanonicalValue.integer(Int64(value)))
  }

  /// Adds the field `key` with a value of type `Int64`, digested as `encode(_:forKey:)` digests it.
  public mutating func add(_ key: FingerprintKey, _ value: Int64) {
    append(key, CanonicalValue.integer(value))
  }

  /// Adds the field `key` with a value of type `UInt64`, digested as `encode(_:forKey:)` digests it.
  public mutating func add(_ key: FingerprintKey, _ value: UInt64) {
    append(key, CanonicalValue.integer(value))
  }

  /// Adds the field `key` with a value of type `Double`, digested as `encode(_:forKey:)` digests it.
  public mutating func add(_ key: FingerprintKey, _ value: Double) {
    append(key, CanonicalValue.float(value))
  }

  /// Adds a field of any other `Encodable` type, digested as `encode(_:forKey:)` would digest it.
  /// - Throws: what `value`'s `encode(to:)` throws.
  public mutating func add<Value: Encodable>(_ key: FingerprintKey, _ value: Value) throws {
    append(key, try CanonicalEncoder.fingerprint(of: value))
  }

  /// Adds the field when `value` is not `nil`, as `encodeIfPresent(_:forKey:)` (which a synthesized
  /// `encode(to:)` uses for an optional property) writes it; a `nil` adds nothing.
  /// - Throws: what the wrapped value's `encode(to:)` throws.
  public mutating func addIfPresent<Value: Encodable>(_ key: FingerprintKey, _ value: Value?) throws {
    guard let value else { return }
    append(key, try CanonicalEncoder.fingerprint(of: value))
  }

  /// The digest of the fields added, as a keyed container's.
  private mutating func finish() -> StateFingerprint {
    if overflow.isEmpty {
      return unsafe CanonicalValue.keyed(
        sortingInPlace: UnsafeMutableBufferPointer(start: buffer, count: count))
    }
    return CanonicalValue.keyed(&overflow)
  }
}

extension FieldFingerprinting {
  /// The fingerprint of this value from its listed fields.
  func fieldFingerprint() throws -> StateFingerprint {
    try FingerprintFields.digest { try addFingerprintFields(to: &$0) }
  }
}

extension StateFingerprint {
  /// Whether `value`'s listed fields (``FieldFingerprinting``) give the fingerprint its `encode(to:)` gives:
  /// what a test of a conforming type should check, on values that use every field (a `nil` and a
  /// non-`nil` optional among them).
  /// - Throws: what `value`'s `encode(to:)` or the digest of a field throws.
  public static func fieldsMatchEncoding<Value: FieldFingerprinting>(of value: Value) throws -> Bool {
    try value.fieldFingerprint() == CanonicalEncoder.encodedFingerprint(of: value)
  }
}
