/// A 128-bit digest of a state's canonical encoding: equal states have equal fingerprints in every process
/// and every build that encodes them the same way.
///
/// A store records fingerprints in its log (see ``Fingerprinting``), and a replay compares them with the
/// states it computes, to name the first event where a build disagrees with the recording. The
/// fingerprint of a value is ``of(_:)``:
///
/// ```swift
/// let fingerprint = try StateFingerprint.of(store.state)
/// print(fingerprint)  // 32 hexadecimal digits
/// ```
///
/// The canonical encoding is the value's `Encodable` form with the encoder's freedoms taken away: keyed
/// containers are ordered by key, dictionaries and sets by their entries' digests, every integer type
/// encodes its value (an `Int32` 5 and an `Int64` 5 are the same), `-0.0` is `0.0` and every NaN is one
/// NaN. An `IdentifiedArray` or `PersistentArray` is digested by its elements, the same as an array of
/// them, whatever the shape of its tree. What is not
/// canonicalized: strings are compared by their UTF-8 bytes (two strings that are `==` under Unicode
/// equivalence but spelled with different code points differ), and a type whose `encode(to:)` writes
/// something that is not part of its value (a cache, a timestamp) makes equal states differ.
public struct StateFingerprint: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The first 64 bits.
  public var high: UInt64
  /// The last 64 bits.
  public var low: UInt64

  /// A fingerprint from its two halves.
  @inlinable
  public init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  /// Parses 32 hexadecimal digits, as ``description`` prints them; `nil` for anything else.
  public init?(hexadecimal text: some StringProtocol) {
    let digits = Array(text.utf8)
    guard digits.count == 32 else { return nil }
    var halves: [UInt64] = [0, 0]
    for (index, digit) in digits.enumerated() {
      let value: UInt8
      switch digit {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = digit - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): value = digit - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): value = digit - UInt8(ascii: "A") + 10
      default: return nil
      }
      halves[index / 16] = halves[index / 16] << 4 | UInt64(value)
    }
    self.init(high: halves[0], low: halves[1])
  }

  /// The 16 bytes, big-endian: the order ``description`` prints them in.
  public var bytes: [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
      + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
  }

  /// A fingerprint from the 16 bytes of ``bytes``; `nil` unless there are exactly 16.
  public init?(bytes: some Collection<UInt8>) {
    guard bytes.count == 16 else { return nil }
    var halves: [UInt64] = [0, 0]
    for (index, byte) in bytes.enumerated() { halves[index / 8] = halves[index / 8] << 8 | UInt64(byte) }
    self.init(high: halves[0], low: halves[1])
  }

  /// 32 lowercase hexadecimal digits.
  public var description: String {
    Self.hex(high) + Self.hex(low)
  }

  /// The first 8 hexadecimal digits: enough to tell fingerprints apart at a glance.
  public var short: String { String(description.prefix(8)) }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// The fingerprint of `value`: a digest over its canonical encoding.
  /// - Throws: what `value`'s `encode(to:)` throws.
  /// - Complexity: O(the encoded size of `value`) the first time; an `IdentifiedArray` or
  ///   `PersistentArray` then digests only what changed since its last fingerprint (its tree's nodes
  ///   cache their digests): O(log n) nodes and a leaf of elements after a one-row edit.
  public static func of<Value: Encodable>(_ value: Value) throws -> StateFingerprint {
    try CanonicalEncoder.fingerprint(of: value)
  }
}
