import CRewind

extension SHA256 {
  /// How a hasher compresses blocks: the processor's SHA instructions where it has them (x86-64 with the
  /// SHA extensions, detected at run time), portable Swift everywhere else. Both give the same digests.
  package enum Engine: Sendable, CaseIterable, CustomStringConvertible {
    /// The 64 rounds in Swift (`SHA256+Compression.swift`).
    case portable
    /// The x86 SHA extensions, through CRewind.
    case processor

    /// The engines this processor can run, the portable one first.
    package static let available: [Engine] =
      rewind_sha256_hardware_available() != 0 ? [.portable, .processor] : [.portable]

    /// The engine a new ``SHA256`` uses: the processor's instructions when it has them.
    package static let fastest: Engine = available.last ?? .portable

    /// `"portable"` or `"processor"`.
    package var description: String { self == .portable ? "portable" : "processor" }
  }

  /// Compresses each whole 64-byte block of `blocks` into `state` with `engine`.
  static func compress(_ state: inout State, _ blocks: UnsafeRawBufferPointer, engine: Engine) {
    switch engine {
    case .portable:
      compressPortable(&state, blocks)
    case .processor:
      guard let base = blocks.baseAddress else { return }
      // `State` is eight UInt32 stored contiguously, as the C function's `uint32_t[8]`.
      withUnsafeMutablePointer(to: &state) { tuple in
        tuple.withMemoryRebound(to: UInt32.self, capacity: 8) { words in
          rewind_sha256_compress_hardware(words, base, blocks.count / 64)
        }
      }
    }
  }
}
