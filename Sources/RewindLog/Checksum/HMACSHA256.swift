/// HMAC-SHA-256 (RFC 2104 with FIPS 180-4 SHA-256): the keyed chain step of a log opened with a
/// ``ChainKey``. Incremental and allocation-free after `init(key:)`, like ``SHA256``: the key's padded
/// blocks are hashed once there, and a copy of the value authenticates each message.
///
/// ```swift
/// let tag = HMACSHA256.authenticationCode(for: Array("message".utf8), key: Array("secret".utf8))
/// ```
public struct HMACSHA256: Sendable {
  private static let blockSize = 64
  private var inner: SHA256
  private var outer: SHA256

  /// Starts a MAC under `key`; keys longer than the 64-byte block are hashed first, as RFC 2104 says.
  public init(key: some Collection<UInt8>) {
    var block = key.count > Self.blockSize ? SHA256.hash(key).bytes : Array(key)
    block.append(contentsOf: repeatElement(0, count: Self.blockSize - block.count))
    inner = SHA256()
    inner.update(block.map { $0 ^ 0x36 })
    outer = SHA256()
    outer.update(block.map { $0 ^ 0x5C })
  }

  /// Adds `bytes` to the message.
  public mutating func update(_ bytes: some Collection<UInt8>) { inner.update(bytes) }

  /// Finishes the MAC and returns the 32-byte tag.
  public mutating func finalize() -> SHA256.Digest {
    let innerDigest = inner.finalize()
    var outer = self.outer
    innerDigest.withUnsafeBytes { outer.update($0) }
    return outer.finalize()
  }

  /// The HMAC-SHA-256 tag of `message` under `key`.
  public static func authenticationCode(for message: some Collection<UInt8>, key: some Collection<UInt8>)
    -> SHA256.Digest
  {
    var mac = HMACSHA256(key: key)
    mac.update(message)
    return mac.finalize()
  }
}
