/// SHA-256 (FIPS 180-4), the hash of the log's chain. Incremental and allocation-free: the state, the bytes
/// of an incomplete block and the digest are stored inline. Blocks are compressed with the processor's SHA
/// instructions where it has them (x86-64, detected at run time), in portable Swift otherwise.
///
/// The raw-pointer code (buffering into inline storage, the rounds' loads, the call into C) is in this
/// type's files only: it is what lets a chain step hash without allocating.
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(Array("ab".utf8))
/// hasher.update(Array("c".utf8))
/// hasher.finalize().description  // "ba7816bf…f20015ad"
/// ```
public struct SHA256: Sendable {
  /// The hash value H0…H7 between blocks.
  typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
  /// 64 bytes stored inline.
  typealias Block = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

  private var state: State = (
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
  )
  /// The first `buffered` bytes are input that does not yet fill a block.
  private var block: Block = (0, 0, 0, 0, 0, 0, 0, 0)
  private var buffered = 0
  private var totalBytes: UInt64 = 0
  private let engine: Engine

  /// Starts a new hash.
  public init() { engine = .fastest }

  /// Starts a new hash compressed by `engine`, which must be one of ``Engine/available``.
  package init(engine: Engine) {
    precondition(Engine.available.contains(engine), "SHA-256 engine \(engine) is not available here")
    self.engine = engine
  }

  /// The SHA-256 digest of `bytes`.
  @inlinable
  public static func hash(_ bytes: some Collection<UInt8>) -> Digest {
    var hasher = SHA256()
    hasher.update(bytes)
    return hasher.finalize()
  }

  /// Adds `bytes` to the hash.
  @inlinable
  public mutating func update(_ bytes: some Collection<UInt8>) {
    let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
    if done == nil { Array(bytes).withUnsafeBytes { update($0) } }
  }

  /// Adds the bytes in `buffer` to the hash.
  public mutating func update(_ buffer: UnsafeRawBufferPointer) {
    guard !buffer.isEmpty else { return }
    totalBytes &+= UInt64(buffer.count)
    var input = buffer
    if buffered > 0 {
      let taken = Swift.min(64 - buffered, input.count)
      append(UnsafeRawBufferPointer(rebasing: input[..<taken]))
      input = UnsafeRawBufferPointer(rebasing: input[taken...])
      guard buffered == 64 else { return }
      compressBuffered()
    }
    let whole = input.count & ~63
    if whole > 0 {
      Self.compress(&state, UnsafeRawBufferPointer(rebasing: input[..<whole]), engine: engine)
      input = UnsafeRawBufferPointer(rebasing: input[whole...])
    }
    append(input)
  }

  /// Finishes the hash and returns the digest. Start a new hasher for the next message.
  public mutating func finalize() -> Digest {
    let bitLength = totalBytes &* 8
    let used = buffered
    withUnsafeMutableBytes(of: &block) { block in
      block[used] = 0x80
      block[(used + 1)...].initializeMemory(as: UInt8.self, repeating: 0)
    }
    if used >= 56 {
      buffered = 64
      compressBuffered()
      block = (0, 0, 0, 0, 0, 0, 0, 0)
    }
    withUnsafeMutableBytes(of: &block) {
      $0.storeBytes(of: bitLength.bigEndian, toByteOffset: 56, as: UInt64.self)
    }
    buffered = 64
    compressBuffered()
    return Digest(state: state)
  }

  /// Copies `bytes` (no more than the block has room for) after the buffered bytes.
  private mutating func append(_ bytes: UnsafeRawBufferPointer) {
    guard !bytes.isEmpty else { return }
    let start = buffered
    withUnsafeMutableBytes(of: &block) { block in
      UnsafeMutableRawBufferPointer(rebasing: block[start..<(start + bytes.count)]).copyMemory(from: bytes)
    }
    buffered += bytes.count
  }

  /// Compresses the full buffered block and empties it.
  private mutating func compressBuffered() {
    var state = self.state
    withUnsafeBytes(of: &block) { Self.compress(&state, $0, engine: engine) }
    self.state = state
    buffered = 0
  }
}
