/// The canonical digests of the values an `Encodable` state is made of: the leaves and the rules that
/// combine them. Each kind of value has a tag, so that values of different kinds never share words.
enum CanonicalValue {
  /// The tag of each kind of value, finalizing its digest.
  enum Tag: UInt64 {
    case null = 1
    case bool = 2
    case integer = 3
    /// An unsigned integer above `Int64.max`.
    case largeInteger = 4
    case float = 5
    case string = 6
    /// A keyed container: its fields ordered by their keys' digests.
    case keyed = 7
    /// An unkeyed container, an `IdentifiedArray` or a `PersistentArray`: its elements in order.
    case sequence = 8
    /// A dictionary or a set: its entries ordered by their digests.
    case unordered = 9
    /// A key and its value, inside a dictionary.
    case pair = 10
    /// A value whose `encode(to:)` asked for no container.
    case empty = 11
    /// An integer beyond 64 bits (`Int128`, `UInt128`): its two halves.
    case wideInteger = 12
  }

  static func null() -> StateFingerprint { DigestLanes().digest(tag: Tag.null.rawValue) }

  static func bool(_ value: Bool) -> StateFingerprint { word(value ? 1 : 0, tag: .bool) }

  static func integer(_ value: Int64) -> StateFingerprint {
    word(UInt64(bitPattern: value), tag: .integer)
  }

  static func integer(_ value: UInt64) -> StateFingerprint {
    value <= UInt64(Int64.max) ? word(value, tag: .integer) : word(value, tag: .largeInteger)
  }

  /// An integer that may not fit 64 bits (`Int128`, `UInt128`): as the 64-bit integer it equals when
  /// it fits, so that widening an integer field keeps its fingerprint.
  static func wideInteger<Wide: BinaryInteger>(_ value: Wide) -> StateFingerprint {
    if let small = Int64(exactly: value) { return integer(small) }
    if let small = UInt64(exactly: value) { return integer(small) }
    var lanes = DigestLanes()
    lanes.absorb(UInt64(truncatingIfNeeded: value >> 64))
    lanes.absorb(UInt64(truncatingIfNeeded: value))
    return lanes.digest(tag: Tag.wideInteger.rawValue)
  }

  /// A floating-point number, widened to `Double`; `-0.0` is `0.0`, and every NaN the same NaN.
  static func float(_ value: Double) -> StateFingerprint {
    let canonical: Double = value.isNaN ? .nan : (value == 0 ? 0 : value)
    return word(canonical.bitPattern, tag: .float)
  }

  /// A string, by its UTF-8 bytes: the byte count, then the bytes eight to a word, little-endian.
  static func string(_ value: String) -> StateFingerprint {
    var lanes = DigestLanes()
    lanes.absorb(UInt64(value.utf8.count))
    var word: UInt64 = 0
    var filled: UInt64 = 0
    for byte in value.utf8 {
      word |= UInt64(byte) << (filled * 8)
      filled += 1
      if filled == 8 {
        lanes.absorb(word)
        (word, filled) = (0, 0)
      }
    }
    if filled > 0 { lanes.absorb(word) }
    return lanes.digest(tag: Tag.string.rawValue)
  }

  /// A keyed container of `fields` (key digest, value digest), in any order.
  static func keyed(_ fields: inout [(key: StateFingerprint, value: StateFingerprint)]) -> StateFingerprint {
    fields.sort { ($0.key.high, $0.key.low) < ($1.key.high, $1.key.low) }
    var lanes = DigestLanes()
    for field in fields {
      lanes.absorb(field.key.high)
      lanes.absorb(field.key.low)
      lanes.absorb(field.value.high)
      lanes.absorb(field.value.low)
    }
    return lanes.digest(tag: Tag.keyed.rawValue)
  }

  /// Adds an element whose digest is `element` to the lanes of a sequence.
  @inline(__always)
  static func append(element: StateFingerprint, to lanes: inout DigestLanes) {
    lanes.absorb(element.high)
    lanes.absorb(element.low)
  }

  /// A sequence whose elements' lanes (each added by ``append(element:to:)``) are `lanes`.
  static func sequence(_ lanes: DigestLanes) -> StateFingerprint {
    lanes.digest(tag: Tag.sequence.rawValue)
  }

  /// A dictionary or set whose entries have the digests `entries`, in any order.
  static func unordered(_ entries: inout [StateFingerprint]) -> StateFingerprint {
    entries.sort { ($0.high, $0.low) < ($1.high, $1.low) }
    var lanes = DigestLanes()
    for entry in entries {
      lanes.absorb(entry.high)
      lanes.absorb(entry.low)
    }
    return lanes.digest(tag: Tag.unordered.rawValue)
  }

  /// A dictionary entry.
  static func pair(key: StateFingerprint, value: StateFingerprint) -> StateFingerprint {
    var lanes = DigestLanes()
    lanes.absorb(key.high)
    lanes.absorb(key.low)
    lanes.absorb(value.high)
    lanes.absorb(value.low)
    return lanes.digest(tag: Tag.pair.rawValue)
  }

  static func empty() -> StateFingerprint { DigestLanes().digest(tag: Tag.empty.rawValue) }

  private static func word(_ value: UInt64, tag: Tag) -> StateFingerprint {
    var lanes = DigestLanes()
    lanes.absorb(value)
    return lanes.digest(tag: tag.rawValue)
  }
}
