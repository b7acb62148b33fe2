// The reads a `BinaryCodable` type makes most, inlined into it: a field name, a keyed value's header, an
// integer, a Boolean, a string. Each reads its common shape straight from the window (a one-byte length,
// a name written in full or a well-known one) with the same checks as the full read, and hands anything
// else (a longer length, the end of a window, a mismatch, which then throws) to the full read, which is
// not inlined. A snapshot of 100,000 rows makes 700,000 of these reads; a call and its checks for each
// cost more than the rest of decoding a row.

extension BinaryReader {
  /// The value tags, as bytes (``BinaryValue``'s format).
  @usableFromInline static var falseTag: UInt8 { 1 }
  @usableFromInline static var trueTag: UInt8 { 2 }
  @usableFromInline static var intTag: UInt8 { 3 }
  @usableFromInline static var uintTag: UInt8 { 4 }
  @usableFromInline static var stringTag: UInt8 { 7 }
  @usableFromInline static var arrayTag: UInt8 { 8 }
  @usableFromInline static var keyedTag: UInt8 { 9 }
  @usableFromInline static var nullTag: UInt8 { 0 }

  /// The length after a `tag` at `offset` when both lie in the window and the length takes one byte, and
  /// fits (each unit at least `unit` bytes) in what remains of the value; `nil` otherwise.
  @inlinable @inline(__always)
  func quickLength(_ tag: UInt8, unit: Int) -> Int? {
    let state = self.state
    let position = offset
    guard state.end &- position >= 2, state.bytes[position] == tag else { return nil }
    let length = state.bytes[position &+ 1]
    guard length < 0x80, Int(length) &* unit <= state.end &- position &- 2 &+ state.beyond else { return nil }
    return Int(length)
  }

  /// The varint after a `tag` at `offset`, and the offset after it, when the window holds the tag and the
  /// longest varint and the varint takes at most nine bytes; `nil` otherwise.
  @inlinable @inline(__always)
  func quickVarint(_ tag: UInt8) -> (UInt64, Int)? {
    let state = self.state
    var next = offset
    guard state.end &- next >= 11, state.bytes[next] == tag else { return nil }
    next &+= 1
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let byte = state.bytes[next]
      next &+= 1
      value |= UInt64(byte & 0x7F) &<< shift
      if byte < 0x80 { return (value, next) }
      shift &+= 7
      if shift > 56 { return nil }
    }
  }

  /// Reads the header of a keyed value and returns its number of fields.
  @inlinable
  public mutating func keyed() throws(BinaryCodecError) -> Int {
    if let count = quickLength(Self.keyedTag, unit: 2) {
      offset &+= 2
      return count
    }
    return try slowKeyed()
  }

  /// Reads the header of a keyed value that must have `count` fields.
  @inlinable
  public mutating func keyed(count: Int) throws(BinaryCodecError) {
    if quickLength(Self.keyedTag, unit: 2) == count {
      offset &+= 2
      return
    }
    try slowKeyed(count: count)
  }

  /// Reads a field name that must be `name`.
  @inlinable
  public mutating func key(_ name: String) throws(BinaryCodecError) {
    let state = self.state
    let position = offset
    if state.end &- position >= 1 {
      let header = state.bytes[position]
      if header & 0x81 == 0 {
        // A name written in full, shorter than 64 bytes.
        let count = Int(header &>> 1)
        if count <= state.end &- position &- 1, state.matches(name, at: position &+ 1, count: count) {
          offset = position &+ 1 &+ count
          return
        }
      } else if header & 0x81 == 1, state.isWellKnown(Int(header &>> 1), name) {
        offset = position &+ 1
        return
      }
    }
    try slowKey(name)
  }

  /// Reads the header of an array and returns its number of values.
  @inlinable
  public mutating func array() throws(BinaryCodecError) -> Int {
    if let count = quickLength(Self.arrayTag, unit: 1) {
      offset &+= 2
      return count
    }
    return try slowArray()
  }

  /// Whether the next value is `nil`; reads it if so.
  @inlinable
  public mutating func null() throws(BinaryCodecError) -> Bool {
    let state = self.state
    if state.end &- offset >= 1 {
      if state.bytes[offset] != Self.nullTag { return false }
      offset &+= 1
      return true
    }
    return try slowNull()
  }

  /// Reads a Boolean.
  @inlinable
  public mutating func bool() throws(BinaryCodecError) -> Bool {
    let state = self.state
    if state.end &- offset >= 1 {
      let tag = state.bytes[offset]
      if tag == Self.trueTag || tag == Self.falseTag {
        offset &+= 1
        return tag == Self.trueTag
      }
    }
    return try slowBool()
  }

  /// Reads a signed integer that fits in `Int`.
  @inlinable
  public mutating func int() throws(BinaryCodecError) -> Int {
    if let (raw, next) = quickVarint(Self.intTag) {
      let value = Int64(bitPattern: raw &>> 1) ^ -Int64(bitPattern: raw & 1)
      if let exact = Int(exactly: value) {
        offset = next
        return exact
      }
    }
    return try integer(Int.self)
  }

  /// Reads a signed integer that fits in `Int64`.
  @inlinable
  public mutating func int64() throws(BinaryCodecError) -> Int64 {
    if let (raw, next) = quickVarint(Self.intTag) {
      offset = next
      return Int64(bitPattern: raw &>> 1) ^ -Int64(bitPattern: raw & 1)
    }
    return try integer(Int64.self)
  }

  /// Reads an unsigned integer.
  @inlinable
  public mutating func uint() throws(BinaryCodecError) -> UInt64 {
    if let (raw, next) = quickVarint(Self.uintTag) {
      offset = next
      return raw
    }
    return try integer(UInt64.self)
  }

  /// Reads a string.
  @inlinable
  public mutating func string() throws(BinaryCodecError) -> String {
    if let count = quickLength(Self.stringTag, unit: 1) {
      let start = offset &+ 2
      if count <= state.end &- start, let text = state.text(start..<(start &+ count)) {
        offset = start &+ count
        return text
      }
    }
    return try slowString()
  }
}
