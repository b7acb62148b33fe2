/// Appends little-endian integers, varints and byte strings to a growing array.
struct ByteWriter {
  var bytes: [UInt8]

  init(capacity: Int = 256) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  mutating func u8(_ value: UInt8) { bytes.append(value) }

  mutating func u16(_ value: UInt16) { littleEndian(UInt64(value), count: 2) }

  mutating func u32(_ value: UInt32) { littleEndian(UInt64(value), count: 4) }

  mutating func u64(_ value: UInt64) { littleEndian(value, count: 8) }

  private mutating func littleEndian(_ value: UInt64, count: Int) {
    for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(index * 8))) }
  }

  /// LEB128: seven bits per byte, low bits first.
  mutating func varint(_ value: UInt64) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  mutating func append(_ other: some Sequence<UInt8>) { bytes.append(contentsOf: other) }

  /// The digest's 32 bytes, without an intermediate array.
  mutating func append(_ digest: SHA256.Digest) { digest.withUnsafeBytes { bytes.append(contentsOf: $0) } }

  /// A varint length followed by the UTF-8 bytes.
  mutating func string(_ value: String) {
    var value = value
    value.withUTF8 { utf8 in
      varint(UInt64(utf8.count))
      bytes.append(contentsOf: utf8)
    }
  }

  /// Overwrites four bytes at `offset` with `value`, little-endian.
  mutating func patchU32(_ value: UInt32, at offset: Int) {
    for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> UInt32(index * 8)) }
  }
}

/// Reads what ``ByteWriter`` writes, checking every length against the bytes that remain.
struct ByteReader {
  let bytes: [UInt8]
  private(set) var offset: Int
  let end: Int

  init(_ bytes: [UInt8], from offset: Int = 0, end: Int? = nil) {
    self.bytes = bytes
    self.offset = offset
    self.end = min(end ?? bytes.count, bytes.count)
  }

  var remaining: Int { end - offset }
  var isAtEnd: Bool { offset >= end }

  mutating func u8() throws(BinaryCodecError) -> UInt8 {
    guard offset < end else { throw .truncated(offset: offset) }
    defer { offset += 1 }
    return bytes[offset]
  }

  mutating func u16() throws(BinaryCodecError) -> UInt16 { UInt16(try littleEndian(2)) }
  mutating func u32() throws(BinaryCodecError) -> UInt32 { UInt32(try littleEndian(4)) }
  mutating func u64() throws(BinaryCodecError) -> UInt64 { try littleEndian(8) }

  private mutating func littleEndian(_ count: Int) throws(BinaryCodecError) -> UInt64 {
    guard remaining >= count else { throw .truncated(offset: offset) }
    var value: UInt64 = 0
    for index in 0..<count { value |= UInt64(bytes[offset + index]) << UInt64(index * 8) }
    offset += count
    return value
  }

  mutating func varint() throws(BinaryCodecError) -> UInt64 {
    let start = offset
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let byte = try u8()
      if shift == 63 && byte > 1 { throw .varintOverflow(offset: start) }
      value |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 == 0 { return value }
      shift += 7
      if shift > 63 { throw .varintOverflow(offset: start) }
    }
  }

  /// A length that must fit in what remains (each unit taking at least `unit` bytes).
  mutating func length(unit: Int = 1) throws(BinaryCodecError) -> Int {
    let start = offset
    let value = try varint()
    guard value <= UInt64(remaining / max(unit, 1)) else { throw .lengthOutOfBounds(offset: start) }
    return Int(value)
  }

  mutating func bytes(_ count: Int) throws(BinaryCodecError) -> ArraySlice<UInt8> {
    guard count >= 0, count <= remaining else { throw .truncated(offset: offset) }
    defer { offset += count }
    return bytes[offset..<(offset + count)]
  }

  mutating func string() throws(BinaryCodecError) -> String {
    let start = offset
    let count = try length()
    let slice = try bytes(count)
    guard let text = String(validating: slice, as: UTF8.self) else { throw .invalidUTF8(offset: start) }
    return text
  }
}

extension ByteWriter {
  /// Reserves one byte for a varint that ``patchVarint(_:reservedAt:)`` fills in later; returns its offset.
  mutating func reserveVarint() -> Int {
    bytes.append(0)
    return bytes.count - 1
  }

  /// Writes `value` as a varint into the byte reserved at `offset`, moving what follows when it needs more
  /// than one byte (values of 128 and more; rare for the lengths it is used for).
  mutating func patchVarint(_ value: UInt64, reservedAt offset: Int) {
    if value < 0x80 {
      bytes[offset] = UInt8(value)
      return
    }
    var encoded = ByteWriter(capacity: 10)
    encoded.varint(value)
    bytes.replaceSubrange(offset..<(offset + 1), with: encoded.bytes)
  }
}
