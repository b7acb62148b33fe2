extension SHA256 {
  /// Compresses each whole 64-byte block of `blocks` into `state` in portable Swift: the 64 rounds
  /// unrolled, the message schedule in a 16-word window of locals and the round constants inlined, so the
  /// rounds touch no arrays. About 2,800 instructions per block on x86-64 (callgrind), see
  /// Docs/Performance.md.
  static func compressPortable(_ state: inout State, _ blocks: UnsafeRawBufferPointer) {
    guard var block = blocks.baseAddress else { return }
    for _ in 0..<(blocks.count / 64) {
      var w0 = word(block, 0), w1 = word(block, 1), w2 = word(block, 2), w3 = word(block, 3)
      var w4 = word(block, 4), w5 = word(block, 5), w6 = word(block, 6), w7 = word(block, 7)
      var w8 = word(block, 8), w9 = word(block, 9), w10 = word(block, 10), w11 = word(block, 11)
      var w12 = word(block, 12), w13 = word(block, 13), w14 = word(block, 14), w15 = word(block, 15)
      var (a, b, c, d, e, f, g, h) = state
      var bXorC = b ^ c
      round(a, b, &bXorC, &d, e, f, g, &h, 0x428a2f98 &+ w0)
      round(h, a, &bXorC, &c, d, e, f, &g, 0x71374491 &+ w1)
      round(g, h, &bXorC, &b, c, d, e, &f, 0xb5c0fbcf &+ w2)
      round(f, g, &bXorC, &a, b, c, d, &e, 0xe9b5dba5 &+ w3)
      round(e, f, &bXorC, &h, a, b, c, &d, 0x3956c25b &+ w4)
      round(d, e, &bXorC, &g, h, a, b, &c, 0x59f111f1 &+ w5)
      round(c, d, &bXorC, &f, g, h, a, &b, 0x923f82a4 &+ w6)
      round(b, c, &bXorC, &e, f, g, h, &a, 0xab1c5ed5 &+ w7)
      round(a, b, &bXorC, &d, e, f, g, &h, 0xd807aa98 &+ w8)
      round(h, a, &bXorC, &c, d, e, f, &g, 0x12835b01 &+ w9)
      round(g, h, &bXorC, &b, c, d, e, &f, 0x243185be &+ w10)
      round(f, g, &bXorC, &a, b, c, d, &e, 0x550c7dc3 &+ w11)
      round(e, f, &bXorC, &h, a, b, c, &d, 0x72be5d74 &+ w12)
      round(d, e, &bXorC, &g, h, a, b, &c, 0x80deb1fe &+ w13)
      round(c, d, &bXorC, &f, g, h, a, &b, 0x9bdc06a7 &+ w14)
      round(b, c, &bXorC, &e, f, g, h, &a, 0xc19bf174 &+ w15)
      w0 = w0 &+ sigma0(w1) &+ w9 &+ sigma1(w14)
      round(a, b, &bXorC, &d, e, f, g, &h, 0xe49b69c1 &+ w0)
      w1 = w1 &+ sigma0(w2) &+ w10 &+ sigma1(w15)
      round(h, a, &bXorC, &c, d, e, f, &g, 0xefbe4786 &+ w1)
      w2 = w2 &+ sigma0(w3) &+ w11 &+ sigma1(w0)
      round(g, h, &bXorC, &b, c, d, e, &f, 0x0fc19dc6 &+ w2)
      w3 = w3 &+ sigma0(w4) &+ w12 &+ sigma1(w1)
      round(f, g, &bXorC, &a, b, c, d, &e, 0x240ca1cc &+ w3)
      w4 = w4 &+ sigma0(w5) &+ w13 &+ sigma1(w2)
      round(e, f, &bXorC, &h, a, b, c, &d, 0x2de92c6f &+ w4)
      w5 = w5 &+ sigma0(w6) &+ w14 &+ sigma1(w3)
      round(d, e, &bXorC, &g, h, a, b, &c, 0x4a7484aa &+ w5)
      w6 = w6 &+ sigma0(w7) &+ w15 &+ sigma1(w4)
      round(c, d, &bXorC, &f, g, h, a, &b, 0x5cb0a9dc &+ w6)
      w7 = w7 &+ sigma0(w8) &+ w0 &+ sigma1(w5)
      round(b, c, &bXorC, &e, f, g, h, &a, 0x76f988da &+ w7)
      w8 = w8 &+ sigma0(w9) &+ w1 &+ sigma1(w6)
      round(a, b, &bXorC, &d, e, f, g, &h, 0x983e5152 &+ w8)
      w9 = w9 &+ sigma0(w10) &+ w2 &+ sigma1(w7)
      round(h, a, &bXorC, &c, d, e, f, &g, 0xa831c66d &+ w9)
      w10 = w10 &+ sigma0(w11) &+ w3 &+ sigma1(w8)
      round(g, h, &bXorC, &b, c, d, e, &f, 0xb00327c8 &+ w10)
      w11 = w11 &+ sigma0(w12) &+ w4 &+ sigma1(w9)
      round(f, g, &bXorC, &a, b, c, d, &e, 0xbf597fc7 &+ w11)
      w12 = w12 &+ sigma0(w13) &+ w5 &+ sigma1(w10)
      round(e, f, &bXorC, &h, a, b, c, &d, 0xc6e00bf3 &+ w12)
      w13 = w13 &+ sigma0(w14) &+ w6 &+ sigma1(w11)
      round(d, e, &bXorC, &g, h, a, b, &c, 0xd5a79147 &+ w13)
      w14 = w14 &+ sigma0(w15) &+ w7 &+ sigma1(w12)
      round(c, d, &bXorC, &f, g, h, a, &b, 0x06ca6351 &+ w14)
      w15 = w15 &+ sigma0(w0) &+ w8 &+ sigma1(w13)
      round(b, c, &bXorC, &e, f, g, h, &a, 0x14292967 &+ w15)
      w0 = w0 &+ sigma0(w1) &+ w9 &+ sigma1(w14)
      round(a, b, &bXorC, &d, e, f, g, &h, 0x27b70a85 &+ w0)
      w1 = w1 &+ sigma0(w2) &+ w10 &+ sigma1(w15)
      round(h, a, &bXorC, &c, d, e, f, &g, 0x2e1b2138 &+ w1)
      w2 = w2 &+ sigma0(w3) &+ w11 &+ sigma1(w0)
      round(g, h, &bXorC, &b, c, d, e, &f, 0x4d2c6dfc &+ w2)
      w3 = w3 &+ sigma0(w4) &+ w12 &+ sigma1(w1)
      round(f, g, &bXorC, &a, b, c, d, &e, 0x53380d13 &+ w3)
      w4 = w4 &+ sigma0(w5) &+ w13 &+ sigma1(w2)
      round(e, f, &bXorC, &h, a, b, c, &d, 0x650a7354 &+ w4)
      w5 = w5 &+ sigma0(w6) &+ w14 &+ sigma1(w3)
      round(d, e, &bXorC, &g, h, a, b, &c, 0x766a0abb &+ w5)
      w6 = w6 &+ sigma0(w7) &+ w15 &+ sigma1(w4)
      round(c, d, &bXorC, &f, g, h, a, &b, 0x81c2c92e &+ w6)
      w7 = w7 &+ sigma0(w8) &+ w0 &+ sigma1(w5)
      round(b, c, &bXorC, &e, f, g, h, &a, 0x92722c85 &+ w7)
      w8 = w8 &+ sigma0(w9) &+ w1 &+ sigma1(w6)
      round(a, b, &bXorC, &d, e, f, g, &h, 0xa2bfe8a1 &+ w8)
      w9 = w9 &+ sigma0(w10) &+ w2 &+ sigma1(w7)
      round(h, a, &bXorC, &c, d, e, f, &g, 0xa81a664b &+ w9)
      w10 = w10 &+ sigma0(w11) &+ w3 &+ sigma1(w8)
      round(g, h, &bXorC, &b, c, d, e, &f, 0xc24b8b70 &+ w10)
      w11 = w11 &+ sigma0(w12) &+ w4 &+ sigma1(w9)
      round(f, g, &bXorC, &a, b, c, d, &e, 0xc76c51a3 &+ w11)
      w12 = w12 &+ sigma0(w13) &+ w5 &+ sigma1(w10)
      round(e, f, &bXorC, &h, a, b, c, &d, 0xd192e819 &+ w12)
      w13 = w13 &+ sigma0(w14) &+ w6 &+ sigma1(w11)
      round(d, e, &bXorC, &g, h, a, b, &c, 0xd6990624 &+ w13)
      w14 = w14 &+ sigma0(w15) &+ w7 &+ sigma1(w12)
      round(c, d, &bXorC, &f, g, h, a, &b, 0xf40e3585 &+ w14)
      w15 = w15 &+ sigma0(w0) &+ w8 &+ sigma1(w13)
      round(b, c, &bXorC, &e, f, g, h, &a, 0x106aa070 &+ w15)
      w0 = w0 &+ sigma0(w1) &+ w9 &+ sigma1(w14)
      round(a, b, &bXorC, &d, e, f, g, &h, 0x19a4c116 &+ w0)
      w1 = w1 &+ sigma0(w2) &+ w10 &+ sigma1(w15)
      round(h, a, &bXorC, &c, d, e, f, &g, 0x1e376c08 &+ w1)
      w2 = w2 &+ sigma0(w3) &+ w11 &+ sigma1(w0)
      round(g, h, &bXorC, &b, c, d, e, &f, 0x2748774c &+ w2)
      w3 = w3 &+ sigma0(w4) &+ w12 &+ sigma1(w1)
      round(f, g, &bXorC, &a, b, c, d, &e, 0x34b0bcb5 &+ w3)
      w4 = w4 &+ sigma0(w5) &+ w13 &+ sigma1(w2)
      round(e, f, &bXorC, &h, a, b, c, &d, 0x391c0cb3 &+ w4)
      w5 = w5 &+ sigma0(w6) &+ w14 &+ sigma1(w3)
      round(d, e, &bXorC, &g, h, a, b, &c, 0x4ed8aa4a &+ w5)
      w6 = w6 &+ sigma0(w7) &+ w15 &+ sigma1(w4)
      round(c, d, &bXorC, &f, g, h, a, &b, 0x5b9cca4f &+ w6)
      w7 = w7 &+ sigma0(w8) &+ w0 &+ sigma1(w5)
      round(b, c, &bXorC, &e, f, g, h, &a, 0x682e6ff3 &+ w7)
      w8 = w8 &+ sigma0(w9) &+ w1 &+ sigma1(w6)
      round(a, b, &bXorC, &d, e, f, g, &h, 0x748f82ee &+ w8)
      w9 = w9 &+ sigma0(w10) &+ w2 &+ sigma1(w7)
      round(h, a, &bXorC, &c, d, e, f, &g, 0x78a5636f &+ w9)
      w10 = w10 &+ sigma0(w11) &+ w3 &+ sigma1(w8)
      round(g, h, &bXorC, &b, c, d, e, &f, 0x84c87814 &+ w10)
      w11 = w11 &+ sigma0(w12) &+ w4 &+ sigma1(w9)
      round(f, g, &bXorC, &a, b, c, d, &e, 0x8cc70208 &+ w11)
      w12 = w12 &+ sigma0(w13) &+ w5 &+ sigma1(w10)
      round(e, f, &bXorC, &h, a, b, c, &d, 0x90befffa &+ w12)
      w13 = w13 &+ sigma0(w14) &+ w6 &+ sigma1(w11)
      round(d, e, &bXorC, &g, h, a, b, &c, 0xa4506ceb &+ w13)
      w14 = w14 &+ sigma0(w15) &+ w7 &+ sigma1(w12)
      round(c, d, &bXorC, &f, g, h, a, &b, 0xbef9a3f7 &+ w14)
      w15 = w15 &+ sigma0(w0) &+ w8 &+ sigma1(w13)
      round(b, c, &bXorC, &e, f, g, h, &a, 0xc67178f2 &+ w15)
      // Through `state`, not locals kept across blocks: fewer registers live, fewer spills (callgrind).
      state = (
        state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g,
        state.7 &+ h
      )
      block += 64
    }
  }

  /// Message word `index` of the block at `block`, big-endian.
  @inline(__always)
  private static func word(_ block: UnsafeRawPointer, _ index: Int) -> UInt32 {
    UInt32(bigEndian: block.loadUnaligned(fromByteOffset: index &* 4, as: UInt32.self))
  }

  /// One round with the working variables renamed instead of shifted: only `d` and `h` change.
  ///
  /// The rotations are nested (`ROTR2(a ^ ROTR11(a ^ ROTR9(a)))` equals `ROTR2(a) ^ ROTR13(a) ^ ROTR22(a)`)
  /// so that x86's two-operand rotate needs no copies, and the majority is `b ^ ((a ^ b) & (b ^ c))` where
  /// `b ^ c` is the previous round's `a ^ b`, carried in `bXorC`.
  @inline(__always)
  private static func round(
    _ a: UInt32, _ b: UInt32, _ bXorC: inout UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32,
    _ g: UInt32, _ h: inout UInt32, _ constantPlusWord: UInt32
  ) {
    let bigSigma1 = ((e.rotatedRight(14) ^ e).rotatedRight(5) ^ e).rotatedRight(6)
    let choice = g ^ (e & (f ^ g))
    let t1 = h &+ bigSigma1 &+ choice &+ constantPlusWord
    let bigSigma0 = ((a.rotatedRight(9) ^ a).rotatedRight(11) ^ a).rotatedRight(2)
    let aXorB = a ^ b
    let majority = b ^ (aXorB & bXorC)
    bXorC = aXorB
    d &+= t1
    h = t1 &+ bigSigma0 &+ majority
  }

  /// σ0: `ROTR7(x) ^ ROTR18(x) ^ SHR3(x)`, the two rotations nested.
  @inline(__always)
  private static func sigma0(_ x: UInt32) -> UInt32 { (x.rotatedRight(11) ^ x).rotatedRight(7) ^ (x &>> 3) }

  /// σ1: `ROTR17(x) ^ ROTR19(x) ^ SHR10(x)`, the two rotations nested.
  @inline(__always)
  private static func sigma1(_ x: UInt32) -> UInt32 { (x.rotatedRight(2) ^ x).rotatedRight(17) ^ (x &>> 10) }
}

extension UInt32 {
  @inline(__always)
  fileprivate func rotatedRight(_ count: UInt32) -> UInt32 { (self &>> count) | (self &<< (32 &- count)) }
}
