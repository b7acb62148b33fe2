/// SHA-256 (FIPS 180-4), the hash of the log's chain. Incremental; no allocation per block.
public struct SHA256: Sendable {
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
    for shift in stride(from: 56, through: 0, by: -8) {
      tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
    }
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

  /// One block: the 64 rounds unrolled, the message schedule kept in a 16-word window of locals and the
  /// round constants inlined, so the loop touches no arrays (about twice as fast as an indexed loop).
  private static func compress(
    _ state: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32), _ block: UnsafeRawPointer
  ) {
    var w0 = word(block, 0), w1 = word(block, 1), w2 = word(block, 2), w3 = word(block, 3)
    var w4 = word(block, 4), w5 = word(block, 5), w6 = word(block, 6), w7 = word(block, 7)
    var w8 = word(block, 8), w9 = word(block, 9), w10 = word(block, 10), w11 = word(block, 11)
    var w12 = word(block, 12), w13 = word(block, 13), w14 = word(block, 14), w15 = word(block, 15)
    var (a, b, c, d, e, f, g, h) = state
    round(a, b, c, &d, e, f, g, &h, 0x428a2f98 &+ w0)
    round(h, a, b, &c, d, e, f, &g, 0x71374491 &+ w1)
    round(g, h, a, &b, c, d, e, &f, 0xb5c0fbcf &+ w2)
    round(f, g, h, &a, b, c, d, &e, 0xe9b5dba5 &+ w3)
    round(e, f, g, &h, a, b, c, &d, 0x3956c25b &+ w4)
    round(d, e, f, &g, h, a, b, &c, 0x59f111f1 &+ w5)
    round(c, d, e, &f, g, h, a, &b, 0x923f82a4 &+ w6)
    round(b, c, d, &e, f, g, h, &a, 0xab1c5ed5 &+ w7)
    round(a, b, c, &d, e, f, g, &h, 0xd807aa98 &+ w8)
    round(h, a, b, &c, d, e, f, &g, 0x12835b01 &+ w9)
    round(g, h, a, &b, c, d, e, &f, 0x243185be &+ w10)
    round(f, g, h, &a, b, c, d, &e, 0x550c7dc3 &+ w11)
    round(e, f, g, &h, a, b, c, &d, 0x72be5d74 &+ w12)
    round(d, e, f, &g, h, a, b, &c, 0x80deb1fe &+ w13)
    round(c, d, e, &f, g, h, a, &b, 0x9bdc06a7 &+ w14)
    round(b, c, d, &e, f, g, h, &a, 0xc19bf174 &+ w15)
    w0 = w0 &+ smallSigma0(w1) &+ w9 &+ smallSigma1(w14)
    round(a, b, c, &d, e, f, g, &h, 0xe49b69c1 &+ w0)
    w1 = w1 &+ smallSigma0(w2) &+ w10 &+ smallSigma1(w15)
    round(h, a, b, &c, d, e, f, &g, 0xefbe4786 &+ w1)
    w2 = w2 &+ smallSigma0(w3) &+ w11 &+ smallSigma1(w0)
    round(g, h, a, &b, c, d, e, &f, 0x0fc19dc6 &+ w2)
    w3 = w3 &+ smallSigma0(w4) &+ w12 &+ smallSigma1(w1)
    round(f, g, h, &a, b, c, d, &e, 0x240ca1cc &+ w3)
    w4 = w4 &+ smallSigma0(w5) &+ w13 &+ smallSigma1(w2)
    round(e, f, g, &h, a, b, c, &d, 0x2de92c6f &+ w4)
    w5 = w5 &+ smallSigma0(w6) &+ w14 &+ smallSigma1(w3)
    round(d, e, f, &g, h, a, b, &c, 0x4a7484aa &+ w5)
    w6 = w6 &+ smallSigma0(w7) &+ w15 &+ smallSigma1(w4)
    round(c, d, e, &f, g, h, a, &b, 0x5cb0a9dc &+ w6)
    w7 = w7 &+ smallSigma0(w8) &+ w0 &+ smallSigma1(w5)
    round(b, c, d, &e, f, g, h, &a, 0x76f988da &+ w7)
    w8 = w8 &+ smallSigma0(w9) &+ w1 &+ smallSigma1(w6)
    round(a, b, c, &d, e, f, g, &h, 0x983e5152 &+ w8)
    w9 = w9 &+ smallSigma0(w10) &+ w2 &+ smallSigma1(w7)
    round(h, a, b, &c, d, e, f, &g, 0xa831c66d &+ w9)
    w10 = w10 &+ smallSigma0(w11) &+ w3 &+ smallSigma1(w8)
    round(g, h, a, &b, c, d, e, &f, 0xb00327c8 &+ w10)
    w11 = w11 &+ smallSigma0(w12) &+ w4 &+ smallSigma1(w9)
    round(f, g, h, &a, b, c, d, &e, 0xbf597fc7 &+ w11)
    w12 = w12 &+ smallSigma0(w13) &+ w5 &+ smallSigma1(w10)
    round(e, f, g, &h, a, b, c, &d, 0xc6e00bf3 &+ w12)
    w13 = w13 &+ smallSigma0(w14) &+ w6 &+ smallSigma1(w11)
    round(d, e, f, &g, h, a, b, &c, 0xd5a79147 &+ w13)
    w14 = w14 &+ smallSigma0(w15) &+ w7 &+ smallSigma1(w12)
    round(c, d, e, &f, g, h, a, &b, 0x06ca6351 &+ w14)
    w15 = w15 &+ smallSigma0(w0) &+ w8 &+ smallSigma1(w13)
    round(b, c, d, &e, f, g, h, &a, 0x14292967 &+ w15)
    w0 = w0 &+ smallSigma0(w1) &+ w9 &+ smallSigma1(w14)
    round(a, b, c, &d, e, f, g, &h, 0x27b70a85 &+ w0)
    w1 = w1 &+ smallSigma0(w2) &+ w10 &+ smallSigma1(w15)
    round(h, a, b, &c, d, e, f, &g, 0x2e1b2138 &+ w1)
    w2 = w2 &+ smallSigma0(w3) &+ w11 &+ smallSigma1(w0)
    round(g, h, a, &b, c, d, e, &f, 0x4d2c6dfc &+ w2)
    w3 = w3 &+ smallSigma0(w4) &+ w12 &+ smallSigma1(w1)
    round(f, g, h, &a, b, c, d, &e, 0x53380d13 &+ w3)
    w4 = w4 &+ smallSigma0(w5) &+ w13 &+ smallSigma1(w2)
    round(e, f, g, &h, a, b, c, &d, 0x650a7354 &+ w4)
    w5 = w5 &+ smallSigma0(w6) &+ w14 &+ smallSigma1(w3)
    round(d, e, f, &g, h, a, b, &c, 0x766a0abb &+ w5)
    w6 = w6 &+ smallSigma0(w7) &+ w15 &+ smallSigma1(w4)
    round(c, d, e, &f, g, h, a, &b, 0x81c2c92e &+ w6)
    w7 = w7 &+ smallSigma0(w8) &+ w0 &+ smallSigma1(w5)
    round(b, c, d, &e, f, g, h, &a, 0x92722c85 &+ w7)
    w8 = w8 &+ smallSigma0(w9) &+ w1 &+ smallSigma1(w6)
    round(a, b, c, &d, e, f, g, &h, 0xa2bfe8a1 &+ w8)
    w9 = w9 &+ smallSigma0(w10) &+ w2 &+ smallSigma1(w7)
    round(h, a, b, &c, d, e, f, &g, 0xa81a664b &+ w9)
    w10 = w10 &+ smallSigma0(w11) &+ w3 &+ smallSigma1(w8)
    round(g, h, a, &b, c, d, e, &f, 0xc24b8b70 &+ w10)
    w11 = w11 &+ smallSigma0(w12) &+ w4 &+ smallSigma1(w9)
    round(f, g, h, &a, b, c, d, &e, 0xc76c51a3 &+ w11)
    w12 = w12 &+ smallSigma0(w13) &+ w5 &+ smallSigma1(w10)
    round(e, f, g, &h, a, b, c, &d, 0xd192e819 &+ w12)
    w13 = w13 &+ smallSigma0(w14) &+ w6 &+ smallSigma1(w11)
    round(d, e, f, &g, h, a, b, &c, 0xd6990624 &+ w13)
    w14 = w14 &+ smallSigma0(w15) &+ w7 &+ smallSigma1(w12)
    round(c, d, e, &f, g, h, a, &b, 0xf40e3585 &+ w14)
    w15 = w15 &+ smallSigma0(w0) &+ w8 &+ smallSigma1(w13)
    round(b, c, d, &e, f, g, h, &a, 0x106aa070 &+ w15)
    w0 = w0 &+ smallSigma0(w1) &+ w9 &+ smallSigma1(w14)
    round(a, b, c, &d, e, f, g, &h, 0x19a4c116 &+ w0)
    w1 = w1 &+ smallSigma0(w2) &+ w10 &+ smallSigma1(w15)
    round(h, a, b, &c, d, e, f, &g, 0x1e376c08 &+ w1)
    w2 = w2 &+ smallSigma0(w3) &+ w11 &+ smallSigma1(w0)
    round(g, h, a, &b, c, d, e, &f, 0x2748774c &+ w2)
    w3 = w3 &+ smallSigma0(w4) &+ w12 &+ smallSigma1(w1)
    round(f, g, h, &a, b, c, d, &e, 0x34b0bcb5 &+ w3)
    w4 = w4 &+ smallSigma0(w5) &+ w13 &+ smallSigma1(w2)
    round(e, f, g, &h, a, b, c, &d, 0x391c0cb3 &+ w4)
    w5 = w5 &+ smallSigma0(w6) &+ w14 &+ smallSigma1(w3)
    round(d, e, f, &g, h, a, b, &c, 0x4ed8aa4a &+ w5)
    w6 = w6 &+ smallSigma0(w7) &+ w15 &+ smallSigma1(w4)
    round(c, d, e, &f, g, h, a, &b, 0x5b9cca4f &+ w6)
    w7 = w7 &+ smallSigma0(w8) &+ w0 &+ smallSigma1(w5)
    round(b, c, d, &e, f, g, h, &a, 0x682e6ff3 &+ w7)
    w8 = w8 &+ smallSigma0(w9) &+ w1 &+ smallSigma1(w6)
    round(a, b, c, &d, e, f, g, &h, 0x748f82ee &+ w8)
    w9 = w9 &+ smallSigma0(w10) &+ w2 &+ smallSigma1(w7)
    round(h, a, b, &c, d, e, f, &g, 0x78a5636f &+ w9)
    w10 = w10 &+ smallSigma0(w11) &+ w3 &+ smallSigma1(w8)
    round(g, h, a, &b, c, d, e, &f, 0x84c87814 &+ w10)
    w11 = w11 &+ smallSigma0(w12) &+ w4 &+ smallSigma1(w9)
    round(f, g, h, &a, b, c, d, &e, 0x8cc70208 &+ w11)
    w12 = w12 &+ smallSigma0(w13) &+ w5 &+ smallSigma1(w10)
    round(e, f, g, &h, a, b, c, &d, 0x90befffa &+ w12)
    w13 = w13 &+ smallSigma0(w14) &+ w6 &+ smallSigma1(w11)
    round(d, e, f, &g, h, a, b, &c, 0xa4506ceb &+ w13)
    w14 = w14 &+ smallSigma0(w15) &+ w7 &+ smallSigma1(w12)
    round(c, d, e, &f, g, h, a, &b, 0xbef9a3f7 &+ w14)
    w15 = w15 &+ smallSigma0(w0) &+ w8 &+ smallSigma1(w13)
    round(b, c, d, &e, f, g, h, &a, 0xc67178f2 &+ w15)
    state = (
      state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g,
      state.7 &+ h
    )
  }

  @inline(__always)
  private static func word(_ block: UnsafeRawPointer, _ index: Int) -> UInt32 {
    UInt32(bigEndian: block.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
  }

  @inline(__always)
  private static func smallSigma0(_ x: UInt32) -> UInt32 { x.rotatedRight(7) ^ x.rotatedRight(18) ^ (x >> 3) }

  @inline(__always)
  private static func smallSigma1(_ x: UInt32) -> UInt32 {
    x.rotatedRight(17) ^ x.rotatedRight(19) ^ (x >> 10)
  }

  /// One round with the working variables renamed instead of shifted: `d` and `h` are the two that change.
  @inline(__always)
  private static func round(
    _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
    _ h: inout UInt32, _ constantPlusWord: UInt32
  ) {
    let t1 =
      h &+ (e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)) &+ (g ^ (e & (f ^ g)))
      &+ constantPlusWord
    let t2 = (a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)) &+ ((a & b) | (c & (a | b)))
    d = d &+ t1
    h = t1 &+ t2
  }

  /// A 32-byte SHA-256 digest: the log's chain values.
  public struct Digest: Hashable, Sendable, CustomStringConvertible {
    /// The 32 bytes.
    public let bytes: [UInt8]

    /// Wraps 32 bytes.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// Lowercase hexadecimal.
    public var description: String {
      bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
        .joined()
    }
  }
}

extension UInt32 {
  @inline(__always)
  fileprivate func rotatedRight(_ count: UInt32) -> UInt32 { (self >> count) | (self << (32 - count)) }
}
