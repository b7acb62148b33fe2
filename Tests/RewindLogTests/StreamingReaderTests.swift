import Foundation
import RewindTesting
import Testing

@testable import RewindLog

/// Bytes handed over a window at a time, as a snapshot file's state is; optionally failing after
/// `failAfter` bytes, as a read error would.
private final class ChunkedSource: ByteSource {
  let bytes: [UInt8]
  let windowSize: Int
  let failAfter: Int?
  private(set) var position = 0
  private(set) var failed = false

  init(_ bytes: [UInt8], windowSize: Int, failAfter: Int? = nil) {
    (self.bytes, self.windowSize, self.failAfter) = (bytes, windowSize, failAfter)
  }

  var remaining: Int { failed ? 0 : bytes.count - position }

  func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    var count = Swift.min(buffer.count, remaining)
    if let failAfter, position + count > failAfter {
      count = Swift.max(0, failAfter - position)
      failed = true
    }
    bytes[position..<(position + count)].withUnsafeBytes { buffer.copyMemory(from: $0) }
    position += count
    return count
  }
}

/// Every value of `reader`'s next value, read with the reader's own reads (as a `BinaryCodable` type
/// would), as a tree.
private func readTree(_ reader: inout BinaryReader) throws -> BinaryValue {
  try reader.ensureHeader()
  switch try reader.state.tag(at: reader.offset) {
  case .null:
    _ = try reader.null()
    return .null
  case .false, .true: return .bool(try reader.bool())
  case .int: return .int(try reader.int64())
  case .uint: return .uint(try reader.uint())
  case .double: return .double(try reader.double())
  case .float: return .float(try reader.float())
  case .string: return .string(try reader.string())
  case .array:
    var values: [BinaryValue] = []
    for _ in 0..<(try reader.array()) { values.append(try readTree(&reader)) }
    return .array(values)
  case .keyed:
    var fields: [BinaryValue.Field] = []
    for _ in 0..<(try reader.keyed()) {
      let key = try reader.key()
      fields.append(BinaryValue.Field(key: key, value: try readTree(&reader)))
    }
    return .keyed(fields)
  }
}

@Suite struct StreamingReaderTests {
  static let windowSizes = [1, 2, 3, 5, 8, 16, 17, 31, 64, 4096]

  /// Random values of every shape (long strings and keys, counts over 127, nesting), read through windows
  /// of every size, give what reading them whole gives, and end exactly at the end.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func aValueReadAWindowAtATimeIsTheValueReadWhole(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    for trial in 0..<30 {
      let bytes = try BinaryEncoder().encode(Shape.random(using: &random))
      let whole = try BinaryValue.decode(bytes)
      for windowSize in Self.windowSizes {
        var reader = BinaryReader(streaming: ChunkedSource(bytes, windowSize: windowSize))
        #expect(try readTree(&reader) == whole, "seed \(seed), trial \(trial), window \(windowSize)")
        #expect(reader.isAtEnd, "seed \(seed), trial \(trial), window \(windowSize)")
        var skipping = BinaryReader(streaming: ChunkedSource(bytes, windowSize: windowSize))
        try skipping.skip()
        #expect(skipping.isAtEnd, "skip: seed \(seed), trial \(trial), window \(windowSize)")
      }
    }
  }

  /// A source that stops early (a failed read) ends the value with a typed error wherever it stops.
  @Test func aReadThatFailsEndsTheValueWithAnError() throws {
    var random = SplitMix64(seed: 4)
    let bytes = try BinaryEncoder().encode((0..<40).map { _ in Shape.random(using: &random) })
    for failAfter in stride(from: 0, to: bytes.count, by: Swift.max(1, bytes.count / 60)) {
      var reader = BinaryReader(streaming: ChunkedSource(bytes, windowSize: 7, failAfter: failAfter))
      #expect(throws: BinaryCodecError.self, "failing after \(failAfter) bytes") { _ = try readTree(&reader) }
    }
  }

  /// A length that claims more than the value holds is refused before anything is read for it.
  @Test func aLengthPastTheEndOfTheValueIsRefused() throws {
    for (tag, count) in [(BinaryValue.Tag.string, 1 << 40), (.array, 1 << 30), (.keyed, 5_000)] {
      var bytes: [UInt8] = [tag.rawValue]
      var writer = ByteWriter()
      writer.varint(UInt64(count))
      bytes += writer.bytes + [UInt8](repeating: 0, count: 100)
      var reader = BinaryReader(streaming: ChunkedSource(bytes, windowSize: 8))
      #expect(throws: BinaryCodecError.self, "\(tag)") { _ = try readTree(&reader) }
    }
  }
}
