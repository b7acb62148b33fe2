import CRewind

/// CRC-32C (Castagnoli), the checksum of every frame and snapshot: with the processor's instruction where
/// there is one, otherwise with slicing-by-8 tables.
///
/// Frames store the checksum masked, as LevelDB does, so a CRC computed over bytes that themselves embed a
/// CRC does not degenerate.
public enum CRC32C {
  /// Eight 256-entry tables, flattened: table k at `k * 256`.
  static let tables: [UInt32] = {
    var tables = [UInt32](repeating: 0, count: 8 * 256)
    for index in 0..<256 {
      var crc = UInt32(index)
      for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
      tables[index] = crc
    }
    for table in 1..<8 {
      for index in 0..<256 {
        let previous = tables[(table - 1) * 256 + index]
        tables[table * 256 + index] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
      }
    }
    return tables
  }()

  /// Whether the processor's CRC-32C instruction is used (SSE 4.2 on x86-64, the CRC extension on ARM):
  /// about a byte per cycle, where the tables take two to three instructions a byte.
  static let usesInstruction = rewind_crc32c_available() != 0

  /// The CRC-32C of `bytes`, continuing from `crc` (the result of an earlier call, or 0).
  public static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
    guard usesInstruction, let base = bytes.baseAddress else { return tableChecksum(bytes, continuing: crc) }
    return ~rewind_crc32c_update(~crc, base, bytes.count)
  }

  /// ``checksum(_:continuing:)`` with the tables, on any processor.
  static func tableChecksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
    tables.withUnsafeBufferPointer { table in
      var crc = ~crc
      var index = 0
      let count = bytes.count
      while count - index >= 8 {
        let low = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self)) ^ crc
        let high = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self))
        crc =
          table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
          ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
          ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
          ^ table[1 * 256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
        index += 8
      }
      while index < count {
        crc = table[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
        index += 1
      }
      return ~crc
    }
  }

  /// The CRC-32C of `bytes`.
  public static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
    if let crc = bytes.withContiguousStorageIfAvailable({ checksum(UnsafeRawBufferPointer($0)) }) {
      return crc
    }
    return Array(bytes).withUnsafeBytes { checksum($0) }
  }

  /// Masks a CRC for storage: rotate right by 15 bits and add a constant.
  public static func mask(_ crc: UInt32) -> UInt32 {
    ((crc >> 15) | (crc << 17)) &+ 0xA282_EAD8
  }

  /// Undoes ``mask(_:)``.
  public static func unmask(_ masked: UInt32) -> UInt32 {
    let rotated = masked &- 0xA282_EAD8
    return (rotated >> 17) | (rotated << 15)
  }
}
