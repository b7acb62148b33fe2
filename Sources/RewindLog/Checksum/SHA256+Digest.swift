extension SHA256 {
  /// A 32-byte SHA-256 digest: the log's chain values. Stored inline (no allocation); ``bytes`` makes an
  /// array, ``withUnsafeBytes(_:)`` does not.
  public struct Digest: Hashable, Sendable, CustomStringConvertible {
    /// The 32 bytes in order, as the memory of four words.
    private var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// Wraps exactly 32 bytes; any other count is a programming error.
    public init(bytes: some Collection<UInt8>) {
      precondition(bytes.count == 32, "a SHA-256 digest is 32 bytes, not \(bytes.count)")
      Swift.withUnsafeMutableBytes(of: &storage) { storage in
        for (index, byte) in zip(storage.indices, bytes) { storage[index] = byte }
      }
    }

    /// The digest of a finished hash: the state's words, big-endian.
    init(state: State) {
      Swift.withUnsafeMutableBytes(of: &storage) { storage in
        storage.storeBytes(of: state.0.bigEndian, toByteOffset: 0, as: UInt32.self)
        storage.storeBytes(of: state.1.bigEndian, toByteOffset: 4, as: UInt32.self)
        storage.storeBytes(of: state.2.bigEndian, toByteOffset: 8, as: UInt32.self)
        storage.storeBytes(of: state.3.bigEndian, toByteOffset: 12, as: UInt32.self)
        storage.storeBytes(of: state.4.bigEndian, toByteOffset: 16, as: UInt32.self)
        storage.storeBytes(of: state.5.bigEndian, toByteOffset: 20, as: UInt32.self)
        storage.storeBytes(of: state.6.bigEndian, toByteOffset: 24, as: UInt32.self)
        storage.storeBytes(of: state.7.bigEndian, toByteOffset: 28, as: UInt32.self)
      }
    }

    /// The 32 bytes, in a new array.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Calls `body` with the 32 bytes, without copying them into an array.
    public func withUnsafeBytes<Result, Failure: Error>(
      _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
      var storage = self.storage
      return try Swift.withUnsafeBytes(of: &storage) { (bytes) throws(Failure) -> Result in try body(bytes) }
    }

    /// Whether the two digests have the same bytes.
    public static func == (lhs: Digest, rhs: Digest) -> Bool { lhs.storage == rhs.storage }

    /// Hashes the 32 bytes.
    public func hash(into hasher: inout Hasher) {
      hasher.combine(storage.0)
      hasher.combine(storage.1)
      hasher.combine(storage.2)
      hasher.combine(storage.3)
    }

    /// Lowercase hexadecimal.
    public var description: String {
      withUnsafeBytes { bytes in
        String(unsafeUninitializedCapacity: 64) { text in
          for (index, byte) in bytes.enumerated() {
            text[2 * index] = Self.hexDigit(byte >> 4)
            text[2 * index + 1] = Self.hexDigit(byte & 0x0F)
          }
          return 64
        }
      }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
      nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
  }
}
