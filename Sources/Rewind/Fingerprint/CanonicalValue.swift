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
    // A native string's bytes are contiguous (a small one's are copied out): read them a word at a time.
    let contiguous: Void? = unsafe value.utf8.withContiguousStorageIfAvailable { bytes in
      unsafe absorbBytes(UnsafeRawBufferPointer(bytes), into: &lanes)
    }
    if contiguous == nil { absorbBytesOneByOne(value.utf8, into: &lanes) }
    return lanes.digest(tag: Tag.string.rawValue)
  }

  /// Absorbs `bytes` eight to a word, little-endian; the last word padded with zeros.
  private static func absorbBytes(_ bytes: UnsafeRawBufferPointer, into lanes: inout DigestLanes) {
    let whole = bytes.count & ~7
    var offset = 0
    while offset < whole {
      lanes.absorb(UInt64(littleEndian: unsafe bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
      offset &+= 8
    }
    guard offset < bytes.count else { return }
    var word: UInt64 = 0
    var shift: UInt64 = 0
    while offset < bytes.count {
      word |= UInt64(unsafe bytes[offset]) << shift
      offset &+= 1
      shift &+= 8
    }
    lanes.absorb(word)
  }

  /// The same words as ``absorbBytes(_:into:)``, from a string whose bytes are not contiguous.
  private static func absorbBytesOneByOne(_ bytes: String.UTF8View, into lanes: inout DigestLanes) {
    var word: UInt64 = 0
    var filled: UInt64 = 0
    for byte in bytes {
      word |= UInt64(byte) << (filled * 8)
      filled += 1
      if filled == 8 {
        lanes.absorb(word)
        (word, filled) = (0, 0)
      }
    }
    if filled > 0 { lanes.absorb(word) }
  }

  /// A keyed container of `fields` (key digest, value digest), in any order: sorted by key digest, stably
  /// (duplicate keys keep their order): by insertion for a struct's handful of fields, by the standard
  /// library's sort (stable) beyond, where insertion would be quadratic.
  static func keyed(_ fields: inout [KeyedField]) -> StateFingerprint {
    unsafe fields.withUnsafeMutableBufferPointer { unsafe keyed(sortingInPlace: $0) }
  }

  /// ``keyed(_:)`` of fields in a buffer, which it sorts.
  static func keyed(sortingInPlace fields: UnsafeMutableBufferPointer<KeyedField>) -> StateFingerprint {
    var lanes = DigestLanes()
    var fields = unsafe fields
    if fields.count > 16 { unsafe fields.sort { precedes($0.key, $1.key) } }
    for index in fields.indices.dropFirst() {
      let field = unsafe fields[index]
      var slot = index
      while slot > 0, unsafe precedes(field.key, fields[slot &- 1].key) {
        unsafe fields[slot] = fields[slot &- 1]
        slot &-= 1
      }
      unsafe fields[slot] = field
    }
    for index in fields.indices {
      let field = unsafe fields[index]
      lanes.absorb(field.key.high)
      lanes.absorb(field.key.low)
      lanes.absorb(field.value.high)
      lanes.absorb(field.value.low)
    }
    return lanes.digest(tag: Tag.keyed.rawValue)
  }

  /// A field of a keyed container: its key's digest and its value's.
  typealias KeyedField = (key: StateFingerprint, value: StateFingerprint)

  /// The order of keys: by their digests' high word, then low word.
  @inline(__always)
  private static func precedes(_ a: StateFingerprint, _ b: StateFingerprint) -> Bool {
    a.high != b.high ? a.high < b.high : a.low < b.low
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
