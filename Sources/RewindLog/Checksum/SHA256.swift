/// SHA-256 (FIPS 180-4), the hash of the log's chain. Incremental; no allocation per block.
public struct SHA256: Sendable {
  private static let roundConstants: [UInt32] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ]

  private var h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
  )
  /// Bytes not yet forming a whole block (fewer than 64).
  private var pending: [UInt8] = []
  private var totalBytes: UInt64 = 0

  /// Starts a new hash.
  public init() { pending.reserveCapacity(64) }

  /// The SHA-256 digest of `bytes`.
  public static func hash(_ bytes: some Collection<UInt8>) -> Digest {
    var hasher = SHA256()
    hasher.update(bytes)
    return hasher.finalize()
  }

  /// Adds `bytes` to the hash.
  public mutating func update(_ bytes: some Collection<UInt8>) {
    if let done: Void = bytes.withContiguousStorageIfAvailable({ update(UnsafeRawBufferPointer($0)) }) {
      return done
    }
    Array(bytes).withUnsafeBytes { update($0) }
  }

  /// Adds the bytes in `buffer` to the hash.
  public mutating func update(_ buffer: UnsafeRawBufferPointer) {
    totalBytes &+= UInt64(buffer.count)
    var index = 0
    if !pending.isEmpty {
      let take = min(64 - pending.count, buffer.count)
      pending.append(contentsOf: buffer[0..<take])
      index = take
      if pending.count == 64 {
        pending.withUnsafeBytes { if let base = $0.baseAddress { Self.compress(&h, base) } }
        pending.removeAll(keepingCapacity: true)
      }
    }
    while buffer.count - index >= 64 {
      if let base = buffer.baseAddress { Self.compress(&h, base + index) }
      index += 64
    }
    if index < buffer.count { pending.append(contentsOf: buffer[index...]) }
  }

  /// Finishes the hash and returns the digest.
  public mutating func finalize() -> Digest {
    let bitLength = totalBytes &* 8
    var tail: [UInt8] = [0x80]
    let padding = (55 &- pending.count) & 63
    tail.append(contentsOf: repeatElement(0, count: padding))
    for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
    let length = totalBytes
    tail.withUnsafeBytes { update($0) }
    totalBytes = length
    var out = [UInt8]()
    out.reserveCapacity(32)
    for word in [h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7] {
      out.append(UInt8(word >> 24)); out.append(UInt8((word >> 16) & 0xFF))
      out.append(UInt8((word >> 8) & 0xFF)); out.append(UInt8(word & 0xFF))
    }
    return Digest(bytes: out)
  }

  private static func compress(
    _ h: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32), _ block: UnsafeRawPointer
  ) {
    roundConstants.withUnsafeBufferPointer { k in
      withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
        for t in 0..<16 { w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t * 4, as: UInt32.self)) }
        for t in 16..<64 {
          let s0 = w[t - 15].rotatedRight(7) ^ w[t - 15].rotatedRight(18) ^ (w[t - 15] >> 3)
          let s1 = w[t - 2].rotatedRight(17) ^ w[t - 2].rotatedRight(19) ^ (w[t - 2] >> 10)
          w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, hh) = h
        for t in 0..<64 {
          let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
          let choice = (e & f) ^ (~e & g)
          let temp1 = hh &+ s1 &+ choice &+ k[t] &+ w[t]
          let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
          let majority = (a & b) ^ (a & c) ^ (b & c)
          let temp2 = s0 &+ majority
          hh = g; g = f; f = e; e = d &+ temp1
          d = c; c = b; b = a; a = temp1 &+ temp2
        }
        h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e, h.5 &+ f, h.6 &+ g, h.7 &+ hh)
      }
    }
  }

  /// A 32-byte SHA-256 digest: the log's chain values.
  public struct Digest: Hashable, Sendable, CustomStringConvertible {
    /// The 32 bytes.
    public let bytes: [UInt8]

    /// Wraps 32 bytes.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// Lowercase hexadecimal.
    public var description: String {
      bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
  }
}

extension UInt32 {
  @inline(__always)
  fileprivate func rotatedRight(_ count: UInt32) -> UInt32 { (self >> count) | (self << (32 - count)) }
}
